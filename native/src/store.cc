// Copyright pinget authors. Licensed under the Apache License 2.0.
// Opening, closing and writing. The get strategies are in get.cc.

#include "pinget/store.h"

#include <rocksdb/db.h>
#include <rocksdb/version.h>

#include <utility>

#include "checks.h"
#include "convert.h"
#include "engine.h"
#include "gate.h"

namespace pinget {

using internal::Admit;
using internal::CheckKey;
using internal::CheckNotNull;
using internal::Engine;
using internal::FromRocksDB;
using internal::GateGuard;
using internal::ToSlice;

Store::Store() : gate_(std::make_unique<internal::Gate>()) {}

Store::~Store() { Close(); }

namespace {

rocksdb::WriteOptions ToRocksDB(const WriteOptions& o) {
  rocksdb::WriteOptions w;
  w.sync = o.sync;
  w.disableWAL = o.disable_wal;
  return w;
}

Status CheckValue(std::string_view value) {
  if (value.data() == nullptr && !value.empty()) {
    return Status::InvalidArgument("value is null");
  }
  return Status::OK();
}

}  // namespace

Status Store::Open(const std::string& path, const Options& options,
                   std::unique_ptr<Store>* store) {
  if (store == nullptr) return Status::InvalidArgument("store is null");
  store->reset();
  std::shared_ptr<Engine> engine;
  Status st = internal::OpenEngine(path, options, &engine);
  if (!st.ok()) return st;
  store->reset(new Store());
  (*store)->engine_ = std::move(engine);
  return Status::OK();
}

Status Store::Borrow(rocksdb::DB* db,
                     const std::vector<rocksdb::ColumnFamilyHandle*>& families,
                     std::unique_ptr<Store>* store) {
  if (store == nullptr) return Status::InvalidArgument("store is null");
  store->reset();
  std::shared_ptr<Engine> engine;
  Status st = internal::BorrowEngine(db, families, &engine);
  if (!st.ok()) return st;
  store->reset(new Store());
  (*store)->engine_ = std::move(engine);
  return Status::OK();
}

Status Store::Close() {
  std::lock_guard<std::mutex> closing(gate_->closing);
  if (!gate_->CloseAndDrain()) return Status::OK();
  engine_->store_closed.store(true, std::memory_order_release);
  // No call is in flight and none can start, so engine_ has no other reader.
  // If pins or snapshots still share the engine, the last of them closes it.
  std::shared_ptr<Engine> engine = std::move(engine_);
  if (engine.use_count() == 1) return engine->Close();
  return Status::OK();
}

bool Store::closed() const { return gate_->closed(); }

Status Store::ColumnFamilyId(std::string_view name, uint32_t* id) const {
  GateGuard guard(*gate_);
  Status st = Admit(guard, {CheckNotNull(id, "id")});
  if (!st.ok()) return st;
  const std::vector<std::string>& names = engine_->family_names;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) {
      *id = static_cast<uint32_t>(i);
      return Status::OK();
    }
  }
  return Status::NotFound();
}

Status Store::Put(const WriteOptions& options, uint32_t column_family,
                  std::string_view key, std::string_view value) {
  GateGuard guard(*gate_);
  Status st = Admit(guard, {CheckKey(key), CheckValue(value),
                            internal::CheckWriteOptions(options)});
  if (st.ok()) st = engine_->CheckFamily(column_family);  // inside the gate
  if (!st.ok()) return st;
  return FromRocksDB(engine_->db->Put(ToRocksDB(options),
                                      engine_->families[column_family],
                                      ToSlice(key), ToSlice(value)));
}

Status Store::Delete(const WriteOptions& options, uint32_t column_family,
                     std::string_view key) {
  GateGuard guard(*gate_);
  Status st =
      Admit(guard, {CheckKey(key), internal::CheckWriteOptions(options)});
  if (st.ok()) st = engine_->CheckFamily(column_family);
  if (!st.ok()) return st;
  return FromRocksDB(engine_->db->Delete(
      ToRocksDB(options), engine_->families[column_family], ToSlice(key)));
}

Status Store::Write(const WriteOptions& options, const WriteBatch& batch) {
  // The batch's operations (arguments), then the write options, then each
  // operation's column family: the contract's order.
  Status ops;
  for (const WriteBatch::Op& op : batch.ops_) {
    ops = op.null_data
              ? Status::InvalidArgument("batch holds a null key or value")
              : CheckKey(std::string_view(batch.bytes_.data() + op.key_offset,
                                          op.key_size));
    if (!ops.ok()) break;
  }
  GateGuard guard(*gate_);
  Status st = Admit(guard, {ops, internal::CheckWriteOptions(options)});
  if (!st.ok()) return st;
  for (const WriteBatch::Op& op : batch.ops_) {
    st = engine_->CheckFamily(op.column_family);
    if (!st.ok()) return st;
  }
  rocksdb::WriteBatch wb;
  for (const WriteBatch::Op& op : batch.ops_) {
    rocksdb::ColumnFamilyHandle* cf = engine_->families[op.column_family];
    const rocksdb::Slice key(batch.bytes_.data() + op.key_offset, op.key_size);
    rocksdb::Status s =
        op.is_put ? wb.Put(cf, key,
                           rocksdb::Slice(batch.bytes_.data() + op.value_offset,
                                          op.value_size))
                  : wb.Delete(cf, key);
    if (!s.ok()) return FromRocksDB(s);
  }
  return FromRocksDB(engine_->db->Write(ToRocksDB(options), &wb));
}

Status Store::Flush(uint32_t column_family) {
  GateGuard guard(*gate_);
  Status st = Admit(guard, {});
  if (st.ok()) st = engine_->CheckFamily(column_family);
  if (!st.ok()) return st;
  rocksdb::FlushOptions fo;
  fo.wait = true;
  return FromRocksDB(engine_->db->Flush(fo, engine_->families[column_family]));
}

Status Store::Compact(uint32_t column_family) {
  GateGuard guard(*gate_);
  Status st = Admit(guard, {});
  if (st.ok()) st = engine_->CheckFamily(column_family);
  if (!st.ok()) return st;
  rocksdb::CompactRangeOptions co;
  co.bottommost_level_compaction =
      rocksdb::BottommostLevelCompaction::kForceOptimized;
  return FromRocksDB(engine_->db->CompactRange(
      co, engine_->families[column_family], nullptr, nullptr));
}

Status Store::GetSnapshot(std::unique_ptr<Snapshot>* snapshot) {
  GateGuard guard(*gate_);
  Status st = Admit(guard, {CheckNotNull(snapshot, "snapshot")});
  if (!st.ok()) return st;
  std::unique_ptr<Snapshot> snap(new Snapshot());
  snap->engine_ = engine_;
  snap->snapshot_ = engine_->db->GetSnapshot();
  *snapshot = std::move(snap);
  return Status::OK();
}

Status Store::BorrowSnapshot(const rocksdb::Snapshot* snapshot,
                             std::unique_ptr<Snapshot>* out) {
  GateGuard guard(*gate_);
  Status st = Admit(
      guard, {CheckNotNull(snapshot, "snapshot"), CheckNotNull(out, "out")});
  if (!st.ok()) return st;
  std::unique_ptr<Snapshot> snap(new Snapshot());
  snap->engine_ = engine_;
  snap->snapshot_ = snapshot;
  snap->borrowed_ = true;
  *out = std::move(snap);
  return Status::OK();
}

Snapshot::~Snapshot() {
  if (snapshot_ != nullptr && !borrowed_) {
    engine_->db->ReleaseSnapshot(snapshot_);
  }
}

Status Store::GetProperty(uint32_t column_family, std::string_view property,
                          std::string* value) {
  GateGuard guard(*gate_);
  Status st = Admit(guard, {CheckNotNull(value, "value")});
  if (st.ok()) st = engine_->CheckFamily(column_family);
  if (!st.ok()) return st;
  if (!engine_->db->GetProperty(engine_->families[column_family],
                                ToSlice(property), value)) {
    return Status::NotFound();
  }
  return Status::OK();
}

const char* RocksDBVersion() {
#define PINGET_STR2(x) #x
#define PINGET_STR(x) PINGET_STR2(x)
  return PINGET_STR(ROCKSDB_MAJOR) "." PINGET_STR(ROCKSDB_MINOR) "." PINGET_STR(
      ROCKSDB_PATCH);
#undef PINGET_STR
#undef PINGET_STR2
}

}  // namespace pinget
