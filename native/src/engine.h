// Copyright pinget authors. Licensed under the Apache License 2.0.
// Internal: the open database, the close gate, and status translation.

#ifndef PINGET_SRC_ENGINE_H_
#define PINGET_SRC_ENGINE_H_

#include <rocksdb/db.h>

#include <atomic>
#include <memory>
#include <string>
#include <string_view>
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
};

// Opens the database at path as Store::Open does. Also used by the benchmarks
// native_pinned row, which reads the same RocksDB setup without pinget.
Status OpenEngine(const std::string& path, const Options& options,
                  std::shared_ptr<Engine>* engine);

// Lets calls into a Store run concurrently with no shared write on the hot
// path, and lets Close() wait until none is in flight. Each thread counts its
// calls in one of kStripes cache-line-sized counters. Enter and Close use
// sequentially consistent operations, so either a call sees closed_ and backs
// out, or Close sees the call's count and waits for it.
class Gate {
 public:
  // Returns false (and counts nothing) once closed.
  bool Enter(size_t* stripe);
  void Exit(size_t stripe);
  // Marks the gate closed and waits for every entered call to exit. Returns
  // false if it was already closed.
  bool CloseAndDrain();
  bool closed() const { return closed_.load(std::memory_order_acquire); }

 private:
  static constexpr size_t kStripes = 16;
  struct alignas(64) Stripe {
    std::atomic<int64_t> calls{0};
  };
  Stripe stripes_[kStripes];
  std::atomic<bool> closed_{false};
};

// RAII entry into a Gate.
class GateGuard {
 public:
  explicit GateGuard(Gate& gate)
      : gate_(gate), entered_(gate.Enter(&stripe_)) {}
  ~GateGuard() {
    if (entered_) gate_.Exit(stripe_);
  }
  GateGuard(const GateGuard&) = delete;
  GateGuard& operator=(const GateGuard&) = delete;
  bool entered() const { return entered_; }

 private:
  Gate& gate_;
  size_t stripe_ = 0;
  bool entered_;
};

Status FromRocksDB(const rocksdb::Status& s);

// What every Store method returns once the store is closed.
inline Status ClosedStatus() { return Status::Closed("store is closed"); }

inline rocksdb::Slice ToSlice(std::string_view s) {
  return rocksdb::Slice(s.data(), s.size());
}

// InvalidArgument unless key is non-empty and backed by memory.
Status CheckKey(std::string_view key);

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_SRC_ENGINE_H_
