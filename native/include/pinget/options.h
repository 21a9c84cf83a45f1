// Copyright pinget authors. Licensed under the Apache License 2.0.

#ifndef PINGET_OPTIONS_H_
#define PINGET_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pinget {

class Snapshot;

enum class Compression : int {
  kNone = 0,
  kSnappy = 1,
  kLz4 = 2,
  kZstd = 3,
  kZlib = 4,
  kBzip2 = 5,
};

// Options for Store::Open.
struct Options {
  bool create_if_missing = true;
  bool error_if_exists = false;
  // Shared LRU block cache for all column families; 0 disables the cache
  // (every SST read then copies into the PinnableSlice: P = 1).
  size_t block_cache_bytes = size_t{64} << 20;
  size_t block_size = 4096;
  size_t write_buffer_bytes = size_t{64} << 20;
  // Open fails with NotSupported if this RocksDB build lacks the codec.
  Compression compression = Compression::kSnappy;
  // Column families besides "default", created if missing. Their ids are
  // 1, 2, ... in this order; the default column family is 0.
  std::vector<std::string> column_families;
};

// Options for every read strategy.
struct ReadOptions {
  // Read as of this snapshot (nullptr: latest). REQUIRES: taken from the same
  // store; a snapshot of another store gives InvalidArgument.
  const Snapshot* snapshot = nullptr;
  // false: a block read from disk is not inserted into the block cache.
  bool fill_cache = true;
  // false: blocks read from files are not checked, and (whatever fill_cache
  // says) not inserted into the block cache, where verified reads would trust
  // them. Only for files you trust: RocksDB decodes a damaged block unchecked
  // and may read past it. See docs/security.md.
  bool verify_checksums = true;
  uint32_t column_family = 0;
};

struct WriteOptions {
  // fsync the WAL before acknowledging the write.
  bool sync = false;
  // Skip the WAL: the write is lost on a crash before the next flush.
  bool disable_wal = false;
};

}  // namespace pinget

#endif  // PINGET_OPTIONS_H_
