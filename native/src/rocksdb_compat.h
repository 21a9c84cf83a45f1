// Copyright pinget authors. Licensed under the Apache License 2.0.
// Internal: the one place where pinget's code depends on the RocksDB release
// it is built against (the bundled 11.8.1, or a system RocksDB >= 7.8).

#ifndef PINGET_SRC_ROCKSDB_COMPAT_H_
#define PINGET_SRC_ROCKSDB_COMPAT_H_

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/version.h>

#include <memory>
#include <string>
#include <vector>

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

// A HyperClockCache of capacity bytes. RocksDB 8.7 added the variant whose
// table grows as it fills (estimated_entry_charge 0; RocksDB's choice since).
// Before it the table's size was fixed from the estimate, and 0 sized it for
// entries holding nothing but metadata; those releases' cache.h advises the
// block size as the estimate.
inline std::shared_ptr<rocksdb::Cache> NewHyperClockCache(size_t capacity,
                                                          size_t block_size) {
#if ROCKSDB_MAJOR > 8 || (ROCKSDB_MAJOR == 8 && ROCKSDB_MINOR >= 7)
  static_cast<void>(block_size);
  return rocksdb::HyperClockCacheOptions(capacity, 0).MakeSharedCache();
#else
  return rocksdb::HyperClockCacheOptions(capacity, block_size)
      .MakeSharedCache();
#endif
}

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_SRC_ROCKSDB_COMPAT_H_
