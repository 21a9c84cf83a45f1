// Copyright pinget authors. Licensed under the Apache License 2.0.
// Internal: the one place where pinget's code depends on the RocksDB release
// it is built against (the bundled 11.8.1, or a system RocksDB >= 7.8).

#ifndef PINGET_SRC_ROCKSDB_COMPAT_H_
#define PINGET_SRC_ROCKSDB_COMPAT_H_

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/version.h>

#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pinget/status.h"

namespace pinget {
namespace internal {

// RocksDB 9.11 added DB::Open with a std::unique_ptr<DB>* out-parameter and
// deprecated the DB** form, which 11.8.1 no longer has. On success *db owns
// the database.
inline rocksdb::Status OpenDB(
    const rocksdb::DBOptions& options, const std::string& path,
    const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
    std::vector<rocksdb::ColumnFamilyHandle*>* handles,
    std::unique_ptr<rocksdb::DB>* db) {
#if ROCKSDB_MAJOR > 9 || (ROCKSDB_MAJOR == 9 && ROCKSDB_MINOR >= 11)
  return rocksdb::DB::Open(options, path, families, handles, db);
#else
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, path, families, handles, &raw);
  db->reset(raw);
  return s;
#endif
}

// Maps bytes of anonymous read-write memory as RocksDB's port layer does
// (mmap; VirtualAlloc on Windows); null if the system refuses.
inline void* MapAnonymous(size_t bytes) {
#if defined(_WIN32)
  return VirtualAlloc(nullptr, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
#else
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
#endif
}

inline void UnmapAnonymous(void* p, size_t bytes) {
#if defined(_WIN32)
  static_cast<void>(bytes);
  VirtualFree(p, 0, MEM_RELEASE);
#else
  munmap(p, bytes);
#endif
}

// A HyperClockCache of capacity bytes, or InvalidArgument if this machine
// cannot map its table. RocksDB 8.7 added the variant whose table grows as it
// fills (estimated_entry_charge 0; RocksDB's choice since). It maps address
// space for each shard's largest table when the cache is made, and if the
// kernel refuses a mapping it terminates the process ("Anonymous mmap for
// RocksDB HyperClockCache failed"): with 24 GiB of memory, 8 TiB did. So the
// shard count is set here (RocksDB's own rule: shards of at least 32 MiB, at
// most 64) and the shards' mappings are tried first, the same way RocksDB makes
// it, sized with twice RocksDB 11's 64-byte slot: a size refused here is one
// whose tables the kernel would not map now. Before 8.7 the table's size was
// fixed from the estimate, and 0 sized it for entries holding nothing but
// metadata; those releases' cache.h advises the block size as the estimate.
inline Status NewHyperClockCache(size_t capacity, size_t block_size,
                                 std::shared_ptr<rocksdb::Cache>* cache) {
#if ROCKSDB_MAJOR > 8 || (ROCKSDB_MAJOR == 8 && ROCKSDB_MINOR >= 7)
  static_cast<void>(block_size);
  rocksdb::HyperClockCacheOptions options(capacity, 0);
  int shard_bits = 0;
  for (size_t shards = capacity / (size_t{32} << 20);
       shards > 1 && shard_bits < 6; shards >>= 1) {
    ++shard_bits;
  }
  options.num_shard_bits = shard_bits;
  // RocksDB's slots per shard: capacity / (min_avg_entry_charge x its load
  // factor, 0.6), at most. Every shard's table is tried, as RocksDB will map
  // them, so that the kernel's decision (per mapping, in total, or against
  // the address space, whatever its overcommit policy) is the one it makes.
  constexpr size_t kSlotBytesBound = 128;
  const double slots =
      static_cast<double>(capacity >> shard_bits) /
      (static_cast<double>(options.min_avg_entry_charge) * 0.6);
  const double bytes = slots * kSlotBytesBound + 4096;
  bool mapped = bytes < static_cast<double>(SIZE_MAX / 128);
  std::vector<void*> probes;
  for (int i = 0; mapped && i < (1 << shard_bits); ++i) {
    void* p = MapAnonymous(static_cast<size_t>(bytes));
    mapped = p != nullptr;
    if (mapped) probes.push_back(p);
  }
  for (void* p : probes) UnmapAnonymous(p, static_cast<size_t>(bytes));
  if (!mapped) {
    return Status::InvalidArgument(
        "block_cache_bytes " + std::to_string(capacity) +
        " is too large for a kHyperClock cache on this machine: its " +
        std::to_string(1 << shard_bits) + " shards' tables need " +
        std::to_string(static_cast<uint64_t>(bytes)) +
        " bytes of address space each, which the kernel refuses to map");
  }
  *cache = options.MakeSharedCache();
#else
  // These releases allocate the table, and construct its slots, when the
  // cache is made: the next power of two above capacity / (0.7 x the
  // estimate) slots of 64 bytes (1 TiB of 4 KiB blocks: 32 GiB). A table
  // larger than this machine's memory is refused rather than committed.
  const double slots =
      static_cast<double>(capacity) /
      (0.7 * static_cast<double>(std::max<size_t>(block_size, 1)));
  const double table = 2 * slots * 64;  // bound on the power-of-two rounding
  const double memory = static_cast<double>(sysconf(_SC_PHYS_PAGES)) *
                        static_cast<double>(sysconf(_SC_PAGESIZE));
  if (table > memory) {
    return Status::InvalidArgument(
        "block_cache_bytes " + std::to_string(capacity) +
        " is too large for a kHyperClock cache on this machine: with RocksDB " +
        "before 8.7 its table takes up to " +
        std::to_string(static_cast<uint64_t>(table)) +
        " bytes of memory when the cache is made, more than the machine's " +
        std::to_string(static_cast<uint64_t>(memory)));
  }
  *cache =
      rocksdb::HyperClockCacheOptions(capacity, block_size).MakeSharedCache();
#endif
  return Status::OK();
}

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_SRC_ROCKSDB_COMPAT_H_
