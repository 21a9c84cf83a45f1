// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// For pinget's bindings (the JNI layer), not installed: the Store calls that
// serve a binding's own copies and nothing else.

#ifndef PINGET_BINDING_STORE_BINDING_H_
#define PINGET_BINDING_STORE_BINDING_H_

#include <string_view>

#include "pinget/options.h"
#include "pinget/pinned_value.h"
#include "pinget/status.h"
#include "pinget/store.h"

namespace pinget {
namespace internal {

class StoreBinding {
 public:
  // string_copy for a binding that copies the string again: the value in this
  // thread's scratch std::string (1 copy, no allocation once warm), visited
  // while it is held (store.h, Store::GetStringVisit).
  static Status GetStringVisit(Store& store, const ReadOptions& options,
                               std::string_view key, ValueVisitor visit,
                               void* context) {
    return store.GetStringVisit(options, key, visit, context);
  }

  // Release(), and let go of the database too, even if its store is open: for
  // a handle that one thread reuses across stores (the JNI layer's decoded
  // reads), which must keep no database open between calls. May close the
  // database (the last reference of a closed store). The next get into the
  // handle takes a reference again (one atomic increment).
  static void Detach(PinnedValue* value) {
    value->Release();
    value->engine_.reset();
  }
  static void Detach(PinnedBatch* batch) {
    batch->Release();
    batch->engine_.reset();
  }

  // Decode on read in one crossing (the JNI layer's per-thread slot,
  // io.pinget.Decoding): a value of at most capacity bytes (none if capacity
  // is 0) is copied into buffer and *value keeps nothing (P + 1 copies, the
  // + 1 counted; Store::GetPinnedOrCopy: a detached handle takes no reference
  // to the database for it); a larger value stays pinned in *value (P copies)
  // for the caller to read and then Detach. On any non-OK status *value is
  // detached. *value_size is the value's size (0 unless OK). Java passes
  // 1 KiB (io.pinget.internal.CallSlot.SMALL): for a decoder that reads the
  // whole value, copying that much costs less than a second crossing
  // (docs/benchmarks.md, "One crossing up to 1 KiB").
  static Status GetCopiedIfSmall(Store& store, const ReadOptions& options,
                                 std::string_view key, char* buffer,
                                 size_t capacity, PinnedValue* value,
                                 size_t* value_size) {
    size_t copied;
    Status st =
        store.GetPinnedOrCopy(options, key, value, buffer, capacity, &copied);
    if (!st.ok()) {
      *value_size = 0;
      Detach(value);
      return st;
    }
    *value_size = copied == Store::kNotCopied ? value->size() : copied;
    return st;
  }
};

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_BINDING_STORE_BINDING_H_
