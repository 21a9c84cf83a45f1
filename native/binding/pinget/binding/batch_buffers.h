// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// For pinget's bindings (the JNI layer, the C API), not installed: storage
// for one batched get's arguments and results, for a caller whose own memory
// cannot be lent to the call (keys in a Java byte[][], destinations in an
// array of ByteBuffers).

#ifndef PINGET_BINDING_BATCH_BUFFERS_H_
#define PINGET_BINDING_BATCH_BUFFERS_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pinget/export.h"
#include "pinget/status.h"
#include "pinget/store.h"

namespace pinget {

// Keys copied into one buffer, the destination buffers, and room for the
// value sizes and statuses of Store::MultiGetInto. Reused across batches: no
// allocation once it has held a batch that large; Reset() frees storage that
// grew past 1 MiB. Not thread-safe.
class PINGET_EXPORT BatchBuffers {
 public:
  BatchBuffers() = default;
  BatchBuffers(const BatchBuffers&) = delete;
  BatchBuffers& operator=(const BatchBuffers&) = delete;

  // This thread's instance, for callers with no storage of their own; in
  // the thread's exit, once that one is destroyed (a call from another
  // thread_local's destructor), a fresh one the lease owns.
  // REQUIRES: one lease at a time on this thread.
  class PINGET_EXPORT Lease {
   public:
    Lease();
    ~Lease();
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    BatchBuffers& operator*() const { return *buffers_; }

   private:
    BatchBuffers* buffers_;
    std::unique_ptr<BatchBuffers> owned_;
  };

  // Empties it for a new batch.
  void Reset();
  // Room for the next key's size bytes, which the caller fills (and counts:
  // RecordKeyCopy) before the next AddKey or keys(). The pointer is valid
  // until then.
  char* AddKey(size_t size);
  // Instead of AddKey: room for count keys that the caller sets to memory it
  // keeps alive until the batch is done (no copy here). Valid until the next
  // Reset.
  std::string_view* KeysInPlace(size_t count);
  // The next key's destination (for MultiGetInto).
  void AddBuffer(char* data, size_t capacity);

  // Keys added so far.
  size_t size() const { return in_place_ ? views_.size() : ends_.size(); }
  // The keys in order. Valid until the next Reset or AddKey.
  const std::string_view* keys();
  const Buffer* buffers() const { return buffers_.data(); }
  // Sets size() value sizes to 0 and as many statuses to NotFound: the
  // results a batch reports for keys it never read.
  void ResetResults();
  // MultiGetInto's results, size() elements each after ResetResults(). Valid
  // until the next Reset or ResetResults.
  size_t* value_sizes() { return value_sizes_.data(); }
  Status* statuses() { return statuses_.data(); }

 private:
  std::string bytes_;
  std::vector<size_t> ends_;  // key i is bytes_[ends_[i - 1], ends_[i])
  std::vector<std::string_view> views_;
  std::vector<Buffer> buffers_;
  std::vector<size_t> value_sizes_;
  std::vector<Status> statuses_;
  bool in_place_ = false;  // views_ were set by the caller (KeysInPlace)
};

}  // namespace pinget

#endif  // PINGET_BINDING_BATCH_BUFFERS_H_
