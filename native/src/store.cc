// Copyright pinget authors. Licensed under the Apache License 2.0.
// Opening, closing and writing. The get strategies are in get.cc.

#include "pinget/store.h"

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/table.h>
#include <rocksdb/version.h>

#include <algorithm>
#include <utility>

#include "engine.h"
#include "rocksdb_compat.h"

namespace pinget {

using internal::Engine;
using internal::FromRocksDB;
using internal::GateGuard;
using internal::ToSlice;

namespace internal {

Engine::~Engine() { Close(); }

Status Engine::Close() {
  if (db == nullptr) return Status::OK();
  if (!owned) {
    static_cast<void>(db.release());
    families.clear();
    return Status::OK();
  }
  for (rocksdb::ColumnFamilyHandle* h : families) {
    db->DestroyColumnFamilyHandle(h);
  }
  families.clear();
  rocksdb::Status s = db->Close();
  db.reset();
  return FromRocksDB(s);
}

}  // namespace internal

namespace {

Status ToRocksDBCompression(Compression c, rocksdb::CompressionType* out) {
  switch (c) {
    case Compression::kNone:
      *out = rocksdb::kNoCompression;
      return Status::OK();
    case Compression::kSnappy:
      *out = rocksdb::kSnappyCompression;
      break;
    case Compression::kLz4:
      *out = rocksdb::kLZ4Compression;
      break;
    case Compression::kZstd:
      *out = rocksdb::kZSTD;
      break;
    case Compression::kZlib:
      *out = rocksdb::kZlibCompression;
      break;
    case Compression::kBzip2:
      *out = rocksdb::kBZip2Compression;
      break;
    default:
      return Status::InvalidArgument("unknown compression");
  }
  const std::vector<rocksdb::CompressionType> supported =
      rocksdb::GetSupportedCompressions();
  if (std::find(supported.begin(), supported.end(), *out) == supported.end()) {
    return Status::NotSupported("this RocksDB build lacks the codec");
  }
  return Status::OK();
}

Status CheckOptions(const std::string& path, const Options& options) {
  if (path.empty()) return Status::InvalidArgument("path is empty");
  if (options.block_size == 0) {
    return Status::InvalidArgument("block_size is 0");
  }
  if (options.write_buffer_bytes == 0) {
    return Status::InvalidArgument("write_buffer_bytes is 0");
  }
  std::vector<std::string> names = options.column_families;
  std::sort(names.begin(), names.end());
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) {
      return Status::InvalidArgument("column family name is empty");
    }
    if (names[i] == rocksdb::kDefaultColumnFamilyName) {
      return Status::InvalidArgument("\"default\" is always open; omit it");
    }
    if (i > 0 && names[i] == names[i - 1]) {
      return Status::InvalidArgument("column family named twice: " + names[i]);
    }
  }
  return Status::OK();
}

}  // namespace

Store::Store() : gate_(std::make_unique<internal::Gate>()) {}

Store::~Store() { Close(); }

namespace internal {

Status OpenEngine(const std::string& path, const Options& options,
                  std::shared_ptr<Engine>* engine) {
  Status st = CheckOptions(path, options);
  if (!st.ok()) return st;

  rocksdb::Options ro;
  ro.create_if_missing = options.create_if_missing;
  ro.error_if_exists = options.error_if_exists;
  ro.create_missing_column_families = true;
  ro.write_buffer_size = options.write_buffer_bytes;
  st = ToRocksDBCompression(options.compression, &ro.compression);
  if (!st.ok()) return st;
  rocksdb::BlockBasedTableOptions table;
  table.block_size = options.block_size;
  if (options.block_cache_bytes == 0) {
    table.no_block_cache = true;
  } else {
    table.block_cache = rocksdb::NewLRUCache(options.block_cache_bytes);
  }
  ro.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));

  // Families the caller names get ids 1, 2, ... in order; families that exist
  // on disk but were not named are opened too (RocksDB requires it) and get
  // the ids after them.
  std::vector<std::string> names{rocksdb::kDefaultColumnFamilyName};
  names.insert(names.end(), options.column_families.begin(),
               options.column_families.end());
  std::vector<std::string> existing;
  if (rocksdb::DB::ListColumnFamilies(ro, path, &existing).ok()) {
    for (const std::string& name : existing) {
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        names.push_back(name);
      }
    }
  }
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const std::string& name : names) {
    descriptors.emplace_back(name, rocksdb::ColumnFamilyOptions(ro));
  }

  auto opened = std::make_shared<Engine>();
  rocksdb::Status s = OpenDB(rocksdb::DBOptions(ro), path, descriptors,
                             &opened->families, &opened->db);
  if (!s.ok()) {
    opened->families.clear();
    opened->db = nullptr;
    return FromRocksDB(s);
  }
  opened->family_names = std::move(names);
  *engine = std::move(opened);
  return Status::OK();
}

}  // namespace internal

Status Store::Open(const std::string& path, const Options& options,
                   std::unique_ptr<Store>* store) {
  if (store == nullptr) return Status::InvalidArgument("store is null");
  store->reset();
  std::shared_ptr<Engine> engine;
  Status st = internal::OpenEngine(path, options, &engine);
  if (!st.ok()) return st;
  std::unique_ptr<Store> opened(new Store());
  opened->engine_ = std::move(engine);
  *store = std::move(opened);
  return Status::OK();
}

Status Store::Borrow(rocksdb::DB* db,
                     const std::vector<rocksdb::ColumnFamilyHandle*>& families,
                     std::unique_ptr<Store>* store) {
  if (store == nullptr) return Status::InvalidArgument("store is null");
  store->reset();
  if (db == nullptr) return Status::InvalidArgument("db is null");
  auto engine = std::make_shared<Engine>();
  engine->owned = false;
  engine->db.reset(db);
  engine->families.push_back(db->DefaultColumnFamily());
  engine->family_names.push_back(rocksdb::kDefaultColumnFamilyName);
  for (rocksdb::ColumnFamilyHandle* h : families) {
    if (h == nullptr) {
      engine->Close();
      return Status::InvalidArgument("column family handle is null");
    }
    engine->families.push_back(h);
    engine->family_names.push_back(h->GetName());
  }
  std::unique_ptr<Store> borrowed(new Store());
  borrowed->engine_ = std::move(engine);
  *store = std::move(borrowed);
  return Status::OK();
}

Status Store::Close() {
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
  if (id == nullptr) return Status::InvalidArgument("id is null");
  GateGuard guard(*gate_);
  if (!guard.entered()) return internal::ClosedStatus();
  const std::vector<std::string>& names = engine_->family_names;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) {
      *id = static_cast<uint32_t>(i);
      return Status::OK();
    }
  }
  return Status::NotFound();
}

namespace {

rocksdb::WriteOptions ToRocksDB(const WriteOptions& o) {
  rocksdb::WriteOptions w;
  w.sync = o.sync;
  w.disableWAL = o.disable_wal;
  return w;
}

Status CheckFamily(const Engine& engine, uint32_t id) {
  if (id >= engine.families.size()) {
    return Status::InvalidArgument("no column family with id " +
                                   std::to_string(id));
  }
  return Status::OK();
}

}  // namespace

Status Store::Put(const WriteOptions& options, uint32_t column_family,
                  std::string_view key, std::string_view value) {
  GateGuard guard(*gate_);
  if (!guard.entered()) return internal::ClosedStatus();
  Status st = internal::CheckKey(key);
  if (st.ok()) st = CheckFamily(*engine_, column_family);
  if (!st.ok()) return st;
  if (value.data() == nullptr && !value.empty()) {
    return Status::InvalidArgument("value is null");
  }
  return FromRocksDB(engine_->db->Put(ToRocksDB(options),
                                      engine_->families[column_family],
                                      ToSlice(key), ToSlice(value)));
}

Status Store::Delete(const WriteOptions& options, uint32_t column_family,
                     std::string_view key) {
  GateGuard guard(*gate_);
  if (!guard.entered()) return internal::ClosedStatus();
  Status st = internal::CheckKey(key);
  if (st.ok()) st = CheckFamily(*engine_, column_family);
  if (!st.ok()) return st;
  return FromRocksDB(engine_->db->Delete(
      ToRocksDB(options), engine_->families[column_family], ToSlice(key)));
}

Status Store::Write(const WriteOptions& options, const WriteBatch& batch) {
  GateGuard guard(*gate_);
  if (!guard.entered()) return internal::ClosedStatus();
  rocksdb::WriteBatch wb;
  for (const WriteBatch::Op& op : batch.ops_) {
    if (op.null_data) {
      return Status::InvalidArgument("batch holds a null key or value");
    }
    std::string_view key(batch.bytes_.data() + op.key_offset, op.key_size);
    Status st = internal::CheckKey(key);
    if (st.ok()) st = CheckFamily(*engine_, op.column_family);
    if (!st.ok()) return st;
    rocksdb::ColumnFamilyHandle* cf = engine_->families[op.column_family];
    rocksdb::Status s;
    if (op.is_put) {
      s = wb.Put(
          cf, ToSlice(key),
          rocksdb::Slice(batch.bytes_.data() + op.value_offset, op.value_size));
    } else {
      s = wb.Delete(cf, ToSlice(key));
    }
    if (!s.ok()) return FromRocksDB(s);
  }
  return FromRocksDB(engine_->db->Write(ToRocksDB(options), &wb));
}

Status Store::Flush(uint32_t column_family) {
  GateGuard guard(*gate_);
  if (!guard.entered()) return internal::ClosedStatus();
  Status st = CheckFamily(*engine_, column_family);
  if (!st.ok()) return st;
  rocksdb::FlushOptions fo;
  fo.wait = true;
  return FromRocksDB(engine_->db->Flush(fo, engine_->families[column_family]));
}

Status Store::Compact(uint32_t column_family) {
  GateGuard guard(*gate_);
  if (!guard.entered()) return internal::ClosedStatus();
  Status st = CheckFamily(*engine_, column_family);
  if (!st.ok()) return st;
  rocksdb::CompactRangeOptions co;
  co.bottommost_level_compaction =
      rocksdb::BottommostLevelCompaction::kForceOptimized;
  return FromRocksDB(engine_->db->CompactRange(
      co, engine_->families[column_family], nullptr, nullptr));
}

Status Store::GetSnapshot(std::unique_ptr<Snapshot>* snapshot) {
  if (snapshot == nullptr) return Status::InvalidArgument("snapshot is null");
  GateGuard guard(*gate_);
  if (!guard.entered()) return internal::ClosedStatus();
  std::unique_ptr<Snapshot> snap(new Snapshot());
  snap->engine_ = engine_;
  snap->snapshot_ = engine_->db->GetSnapshot();
  *snapshot = std::move(snap);
  return Status::OK();
}

Status Store::BorrowSnapshot(const rocksdb::Snapshot* snapshot,
                             std::unique_ptr<Snapshot>* out) {
  if (out == nullptr) return Status::InvalidArgument("snapshot out is null");
  if (snapshot == nullptr) return Status::InvalidArgument("snapshot is null");
  GateGuard guard(*gate_);
  if (!guard.entered()) return internal::ClosedStatus();
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
  if (value == nullptr) return Status::InvalidArgument("value is null");
  GateGuard guard(*gate_);
  if (!guard.entered()) return internal::ClosedStatus();
  Status st = CheckFamily(*engine_, column_family);
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
