// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The benchmarks' native controls: pinget's reads made in a loop by native
// code through the C API (pinget/c.h), as any C caller of the shipped library
// makes them, for a binding to call once per many reads. A binding's per-read
// cost is its row's time per read over the control's, measured in one process
// (same data, block cache and JIT state). Built into the bench-only JNI
// library (libpinget_bench_jni), never into what ships. Not thread-safe per
// loop object; the store may be shared.

#ifndef PINGET_BENCH_JNI_CONTROLS_H_
#define PINGET_BENCH_JNI_CONTROLS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pinget/c.h"

namespace pinget_bench {

// The outcome of a loop: the first code other than PINGET_OK and
// PINGET_NOT_FOUND (PINGET_OK if none), with its message.
struct LoopStatus {
  pinget_code code = PINGET_OK;
  std::string message;
};

// Keys copied once, and the reused results of the reads over them.
class KeyLoop {
 public:
  explicit KeyLoop(std::vector<std::string> keys);
  ~KeyLoop();
  KeyLoop(const KeyLoop&) = delete;
  KeyLoop& operator=(const KeyLoop&) = delete;

  size_t size() const { return keys_.size(); }

  // pinned_view of keys [from, from + count) in order into one reused pin
  // (pinget_pinned_view), as native_pinned_loop (docs/strategies.md). Adds each
  // value's size to *bytes, so that no read can be elided; every key is read
  // whatever fails. REQUIRES: from + count <= size().
  LoopStatus PinnedGets(pinget_store* store, size_t from, size_t count,
                        uint64_t* bytes);

  // PinnedGets, handing each value found (j: its key's place in the call,
  // from 0; its pinned bytes, valid for the call) to visit: native_utf8_loop's
  // and native_avro_loop's (docs/benchmarks.md, "Paired: the name's floor
  // makes the String too", "Paired: the Avro event's floor").
  using ValueVisitor = void (*)(void* context, size_t j, const char* data,
                                size_t size);
  LoopStatus PinnedGets(pinget_store* store, size_t from, size_t count,
                        uint64_t* bytes, ValueVisitor visit, void* context);

  // Batched pinned_view (pinget_multi_pinned_view) of keys [from, from +
  // count) in consecutive batches of batch keys, the last one shorter.
  // REQUIRES: from + count <= size(); batch >= 1.
  LoopStatus PinnedBatches(pinget_store* store, size_t from, size_t count,
                           size_t batch, uint64_t* bytes);

 private:
  std::vector<std::string> keys_;
  std::vector<const char*> data_;
  std::vector<size_t> sizes_;
  std::vector<size_t> value_sizes_;  // one batch's
  pinget_pinned* pinned_ = nullptr;
  pinget_pinned_batch* batch_ = nullptr;
};

// A cursor of the C API over a whole store (default read options), for scans
// made in native code.
class CursorLoop {
 public:
  // Creates the cursor, positioned at the first entry. REQUIRES: max_batch
  // >= 1. On failure, status() says why and the loop reads nothing.
  CursorLoop(pinget_store* store, size_t max_batch);
  ~CursorLoop();
  CursorLoop(const CursorLoop&) = delete;
  CursorLoop& operator=(const CursorLoop&) = delete;

  const LoopStatus& status() const { return made_; }

  // A scan: batches of up to batch entries (pinget_cursor_next) from the
  // position until total entries were lent, starting over at the first entry
  // when the range ends, adding each entry's key and value sizes to *bytes
  // and the entries to *entries. Each entry is read as the Java scans read
  // theirs (bench/common's CursorScans, the FFM suite's FfmScans): its key's
  // and its value's last byte. 0 value copies from the block cache and the
  // memtable. REQUIRES: 1 <= batch <= max_batch.
  LoopStatus Scan(size_t batch, size_t total, uint64_t* bytes,
                  uint64_t* entries);

  // A short scan: a seek to key, then one batch of up to count entries.
  // REQUIRES: 1 <= count <= max_batch.
  LoopStatus Seek(const char* key, size_t key_size, size_t count,
                  uint64_t* bytes, uint64_t* entries);

 private:
  LoopStatus Next(size_t max, size_t* count, uint64_t* bytes);

  pinget_cursor* cursor_ = nullptr;
  LoopStatus made_;
  std::vector<const char*> keys_;
  std::vector<size_t> key_sizes_;
  std::vector<const char*> values_;
  std::vector<size_t> value_sizes_;
  // The last bytes read, folded: a result kept, so that no read is elided.
  uint8_t last_bytes_ = 0;
};

}  // namespace pinget_bench

#endif  // PINGET_BENCH_JNI_CONTROLS_H_
