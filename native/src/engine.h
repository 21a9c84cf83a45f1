// Copyright pinget authors. Licensed under the Apache License 2.0.
// Internal: the open RocksDB database behind a Store and everything taken
// from it, and how it is opened.

#ifndef PINGET_SRC_ENGINE_H_
#define PINGET_SRC_ENGINE_H_

#include <rocksdb/db.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pinget/options.h"
#include "pinget/status.h"

namespace pinget {
namespace internal {

// The open RocksDB database. Shared by the Store and by every PinnedValue,
// PinnedBatch and Snapshot taken from it; the last owner closes the database.
class Engine {
 public:
  Engine() = default;
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Closes the database (lets go of it, if borrowed) and reports how it
  // went. REQUIRES: no other owner.
  Status Close();

  // InvalidArgument unless id names one of families.
  Status CheckFamily(uint32_t id) const {
    return id < families.size() ? Status::OK() : NoFamily(id);
  }

  // The file system that counts file reads (file_reads.h); null for a
  // borrowed database or an engine opened without counting. Outlives db.
  std::unique_ptr<rocksdb::Env> env;
  std::unique_ptr<rocksdb::DB> db;
  // False for a database another library opened (Store::Borrow): neither it
  // nor its column family handles are closed or freed here.
  bool owned = true;
  // Set by Store::Close. From then on a released PinnedValue or PinnedBatch
  // drops its reference, so that idle handles do not keep the database open.
  std::atomic<bool> store_closed{false};
  // Indexed by pinget's column family id; [0] is "default".
  std::vector<rocksdb::ColumnFamilyHandle*> families;
  std::vector<std::string> family_names;
  // Per family: whether RocksDB may compute a value (a merge operator, blob
  // files) instead of pointing into a block or the memtable. Never for a
  // database pinget opened; read from the options of a borrowed one.
  std::vector<bool> values_computed;

 private:
  static Status NoFamily(uint32_t id);
};

// Opens the database at path as Store::Open does, after CheckOptions. Also
// used by the benchmarks' native_pinned row, which reads the same RocksDB
// setup without pinget (count_file_reads false: RocksDB's own file system).
Status OpenEngine(const std::string& path, const Options& options,
                  std::shared_ptr<Engine>* engine,
                  bool count_file_reads = true);

// An engine over a database another library opened (Store::Borrow).
Status BorrowEngine(rocksdb::DB* db,
                    const std::vector<rocksdb::ColumnFamilyHandle*>& families,
                    std::shared_ptr<Engine>* engine);

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_SRC_ENGINE_H_
