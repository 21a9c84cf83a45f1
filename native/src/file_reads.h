// Copyright pinget authors. Licensed under the Apache License 2.0.
// Internal: counting the copies RocksDB makes when it reads blocks from SST
// files (CopyStats::file_reads, file_bytes_read).

#ifndef PINGET_SRC_FILE_READS_H_
#define PINGET_SRC_FILE_READS_H_

#include <rocksdb/env.h>

#include <cstddef>
#include <memory>

namespace pinget {
namespace internal {

// Counts one read of bytes from a file into memory on this thread
// (copy_stats.cc).
void RecordFileRead(size_t bytes);

// An Env whose file system is base's, with every random-access file (SST and
// blob files) wrapped so that a read that copies file bytes into a caller's
// buffer counts once on the reading thread. A read served from a memory map
// (allow_mmap_reads) copies nothing and is not counted. Sequential files (the
// WAL, MANIFEST) and writes are not wrapped. The Env must outlive every
// database opened with it. Thread-safe.
std::unique_ptr<rocksdb::Env> NewFileReadCountingEnv(rocksdb::Env* base);

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_SRC_FILE_READS_H_
