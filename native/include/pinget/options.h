// Copyright pinget authors. Licensed under the Apache License 2.0.

#ifndef PINGET_OPTIONS_H_
#define PINGET_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pinget/export.h"

namespace pinget {

class Status;

class Snapshot;

enum class Compression : int {
  kNone = 0,
  kSnappy = 1,
  kLz4 = 2,
  kZstd = 3,
  kZlib = 4,
  kBzip2 = 5,
};

// The block cache's implementation (Options::block_cache_kind).
enum class BlockCacheKind : int {
  kLru = 0,
  kHyperClock = 1,
};

// Options for Store::Open.
struct Options {
  bool create_if_missing = true;
  bool error_if_exists = false;
  // Shared block cache for all column families; 0 disables the cache
  // (every SST read then copies into the PinnableSlice: P = 1).
  size_t block_cache_bytes = size_t{64} << 20;
  // kHyperClock: RocksDB's lock-free HyperClockCache, whose lookups do not
  // contend on a shard's mutex as LRU's do when many threads read. Its CLOCK
  // eviction keeps a slightly different set of blocks than LRU (a hit rate a
  // little lower or higher). REQUIRES: block_cache_bytes > 0.
  BlockCacheKind block_cache_kind = BlockCacheKind::kLru;
  // Index and filter blocks live in the block cache, within its capacity,
  // instead of in each open SST file's memory, outside any limit; an evicted
  // one is read again from the file. REQUIRES: block_cache_bytes > 0.
  bool cache_index_and_filter_blocks = false;
  // Index and filter blocks of flushed (level-0) files stay pinned in the
  // cache while their file is open, so lookups in the newest files never read
  // them again; they take cache capacity that cannot be evicted.
  // REQUIRES: cache_index_and_filter_blocks.
  bool pin_l0_filter_and_index_blocks_in_cache = false;
  size_t block_size = 4096;
  // Reads of SST files go through a memory map instead of pread: a block
  // that is not in the block cache is read in place, with no copy into
  // memory of RocksDB's (F = 0), but such a value cannot be pinned: RocksDB
  // copies it into the PinnableSlice (P = 1), and the block is not inserted
  // into the block cache. Excludes use_direct_reads.
  bool allow_mmap_reads = false;
  // Reads of SST files bypass the OS page cache (O_DIRECT): every block that
  // is not in the block cache comes from the device, into an aligned buffer
  // that RocksDB then copies into the block (still F = 1 by pinget's count,
  // which counts the read). Open fails where the file system lacks O_DIRECT
  // (tmpfs). Excludes allow_mmap_reads.
  bool use_direct_reads = false;
  // A hash index in each data block beside its binary-search index: a point
  // lookup finds its key's place in the block with one hash probe instead of
  // a binary search. Costs about 1.3 bytes per key (one per bucket at 0.75
  // keys per bucket) in every data block, on disk and in the cache.
  bool data_block_hash_index = false;
  // A Bloom filter per SST file with this many bits per key: a lookup skips
  // files that lack its key without reading their data blocks. 0: no filter;
  // else 1 to 100 (10 gives about 1% false positives). Costs bits/8 bytes per
  // key in memory (or the cache) and on disk, and hashing at flush time.
  double bloom_bits_per_key = 0;
  // Whether the filter holds whole keys (RocksDB's default). pinget sets no
  // prefix extractor, so whole keys are all a filter can hold: false with a
  // Bloom filter would leave it empty, and is refused.
  bool whole_key_filtering = true;
  size_t write_buffer_bytes = size_t{64} << 20;
  // Files RocksDB keeps open (their table readers, with index and filter
  // blocks held outside the cache unless cache_index_and_filter_blocks): -1
  // keeps every file open (RocksDB's default: no table is ever reopened by a
  // lookup); otherwise at least 20 (RocksDB raises less to 20), and a lookup
  // in a file that was closed reopens it (reads its footer, index and filter
  // blocks again), while memory for open tables stays bounded.
  int max_open_files = -1;
  // Open fails with NotSupported if this RocksDB build lacks the codec.
  Compression compression = Compression::kSnappy;
  // Column families besides "default", created if missing. Their ids are
  // 1, 2, ... in this order; the default column family is 0.
  std::vector<std::string> column_families;
};

// The options as text, in the one format every binding passes them in:
// "name=value" pairs joined by ';', the names those of the fields above
// (column_families excepted). Values: true or false; a size in decimal
// bytes; a number (bloom_bits_per_key, in C notation: 10, 0.5, 1e-3, nan);
// block_cache_kind lru or hyper_clock; compression none, snappy, lz4, zstd,
// zlib or bzip2. ParseOptions sets the fields named (others keep their
// values): InvalidArgument naming an unknown name or a value that is not of
// its kind, with *options unchanged. Ranges are checked by Store::Open.
PINGET_EXPORT Status ParseOptions(std::string_view text, Options* options);
// Every field but column_families, in that format: ParseOptions of it gives
// the same options.
PINGET_EXPORT std::string FormatOptions(const Options& options);

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
  // GetPinned into a PinnedValue looks for the key in the memtables first,
  // through an iterator the PinnedValue keeps, and pins a value found there
  // in place: P = 0 for a memtable hit too (RocksDB's Get copies it). A key
  // not in the memtables is then read as usual, after that probe. The probe
  // reads memtables only, so the shape of the LSM tree below does not change
  // its cost. Families whose values RocksDB may compute (a merge operator,
  // blob files) are read as usual. Other reads ignore it. The PinnedValue
  // holds the memtables' version (and so their memory) until its Release()
  // or destruction, or its next such get after a flush. Over a borrowed
  // database (Store::Borrow) the iterator lives only as long as a pin it
  // lent, so that an idle handle holds nothing of a database its owner may
  // close; each get then makes one.
  bool pin_memtable = false;
};

struct WriteOptions {
  // fsync the WAL before acknowledging the write.
  bool sync = false;
  // Skip the WAL: the write is lost on a crash before the next flush.
  bool disable_wal = false;
};

}  // namespace pinget

#endif  // PINGET_OPTIONS_H_
