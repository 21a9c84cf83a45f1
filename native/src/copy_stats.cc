// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "pinget/copy_stats.h"

#include "file_reads.h"

namespace pinget {
namespace {
// Per thread, so counting is a few plain adds with no contention.
thread_local CopyStats tls_stats;
}  // namespace

CopyStats GetCopyStats() { return tls_stats; }
void ResetCopyStats() { tls_stats = CopyStats(); }

void RecordValueCopy(size_t bytes) {
  ++tls_stats.value_copies;
  tls_stats.value_bytes_copied += bytes;
}
void RecordKeyCopy(size_t count) { tls_stats.key_copies += count; }
void RecordAllocation() { ++tls_stats.allocations; }

namespace internal {
void RecordFileRead(size_t bytes) {
  ++tls_stats.file_reads;
  tls_stats.file_bytes_read += bytes;
}
}  // namespace internal

}  // namespace pinget
