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
};

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_BINDING_STORE_BINDING_H_
