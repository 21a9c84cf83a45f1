// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Copy accounting, as defined in docs/design.md. Counters are per thread: each
// thread sees only the copies made on its own calls, with no contention.
//
// What is counted, where it happens:
//   value_copies / value_bytes_copied: every copy of value bytes between
//     RocksDB's memory and the memory the caller reads. RocksDB's own copy into
//     a PinnableSlice is inferred exactly from PinnableSlice::IsPinned().
//   key_copies: every copy of key bytes pinget makes (C++ keys: none).
//   allocations: every heap allocation of a buffer that holds a value for the
//     caller (a grown std::string in string_copy, a new Java byte[]). Buffers
//     RocksDB allocates for its own use are not counted.
//   file_reads / file_bytes_read: every read by which RocksDB copied bytes of
//     an SST file into memory on this thread (F in docs/design.md: a block that
//     was not in the block cache, read with pread or direct I/O; an index or
//     filter block read the same way counts too). A read answered from a
//     memory map (Options::allow_mmap_reads) copies nothing here and is not
//     counted; RocksDB then copies the value into the PinnableSlice, which
//     value_copies counts. Counted for stores pinget opened (Store::Open),
//     not for a borrowed database (Store::Borrow), whose files its owner
//     opened. Costs nothing on a block-cache hit.

#ifndef PINGET_COPY_STATS_H_
#define PINGET_COPY_STATS_H_

#include <cstddef>
#include <cstdint>

#include "pinget/export.h"

namespace pinget {

struct CopyStats {
  uint64_t value_copies = 0;
  uint64_t value_bytes_copied = 0;
  uint64_t key_copies = 0;
  uint64_t allocations = 0;
  uint64_t file_reads = 0;
  uint64_t file_bytes_read = 0;
};

// This thread's counters since its start or its last ResetCopyStats().
PINGET_EXPORT CopyStats GetCopyStats();
PINGET_EXPORT void ResetCopyStats();

// For code that copies on pinget's behalf (the JNI layer, a C++ caller that
// wants its own copies in the totals). Each call counts on this thread.
PINGET_EXPORT void RecordValueCopy(size_t bytes);
PINGET_EXPORT void RecordKeyCopy(size_t count = 1);  // count key copies
PINGET_EXPORT void RecordAllocation();

}  // namespace pinget

#endif  // PINGET_COPY_STATS_H_
