// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "engine.h"

#include <rocksdb/cache.h>
#include <rocksdb/convenience.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/table.h>

#include <algorithm>
#include <utility>

#include "checks.h"
#include "convert.h"
#include "file_reads.h"
#include "rocksdb_compat.h"

namespace pinget {
namespace internal {
namespace {

// REQUIRES: c passed CheckOptions.
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
  }
  const std::vector<rocksdb::CompressionType> supported =
      rocksdb::GetSupportedCompressions();
  if (std::find(supported.begin(), supported.end(), *out) == supported.end()) {
    return Status::NotSupported("this RocksDB build lacks the codec");
  }
  return Status::OK();
}

}  // namespace

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

Status Engine::NoFamily(uint32_t id) {
  return Status::InvalidArgument("no column family with id " +
                                 std::to_string(id));
}

Status OpenEngine(const std::string& path, const Options& options,
                  std::shared_ptr<Engine>* engine, bool count_file_reads) {
  Status st = CheckOptions(path, options);
  if (!st.ok()) return st;

  rocksdb::Options ro;
  ro.create_if_missing = options.create_if_missing;
  ro.error_if_exists = options.error_if_exists;
  ro.create_missing_column_families = true;
  ro.write_buffer_size = options.write_buffer_bytes;
  ro.allow_mmap_reads = options.allow_mmap_reads;
  ro.use_direct_reads = options.use_direct_reads;
  ro.max_open_files = options.max_open_files;
  st = ToRocksDBCompression(options.compression, &ro.compression);
  if (!st.ok()) return st;
  rocksdb::BlockBasedTableOptions table;
  table.block_size = options.block_size;
  if (options.block_cache_bytes == 0) {
    table.no_block_cache = true;
  } else if (options.block_cache_kind == BlockCacheKind::kHyperClock) {
    st = NewHyperClockCache(options.block_cache_bytes, options.block_size,
                            &table.block_cache);
    if (!st.ok()) return st;
  } else {
    table.block_cache = rocksdb::NewLRUCache(options.block_cache_bytes);
  }
  table.cache_index_and_filter_blocks = options.cache_index_and_filter_blocks;
  table.pin_l0_filter_and_index_blocks_in_cache =
      options.pin_l0_filter_and_index_blocks_in_cache;
  if (options.data_block_hash_index) {
    table.data_block_index_type =
        rocksdb::BlockBasedTableOptions::kDataBlockBinaryAndHash;
  }
  if (options.bloom_bits_per_key != 0) {
    table.filter_policy.reset(
        rocksdb::NewBloomFilterPolicy(options.bloom_bits_per_key));
  }
  table.whole_key_filtering = options.whole_key_filtering;
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
  if (count_file_reads) {
    opened->env = NewFileReadCountingEnv(rocksdb::Env::Default());
    ro.env = opened->env.get();
  }
  rocksdb::Status s = OpenDB(rocksdb::DBOptions(ro), path, descriptors,
                             &opened->families, &opened->db);
  if (!s.ok()) {
    opened->families.clear();
    opened->db.reset();
    return FromRocksDB(s);
  }
  opened->family_names = std::move(names);
  opened->values_computed.assign(opened->families.size(), false);
  *engine = std::move(opened);
  return Status::OK();
}

Status BorrowEngine(rocksdb::DB* db,
                    const std::vector<rocksdb::ColumnFamilyHandle*>& families,
                    std::shared_ptr<Engine>* engine) {
  if (db == nullptr) return Status::InvalidArgument("db is null");
  for (size_t i = 0; i < families.size(); ++i) {
    if (families[i] == nullptr) {
      return Status::InvalidArgument("families[" + std::to_string(i) +
                                     "] is null");
    }
  }
  auto borrowed = std::make_shared<Engine>();
  borrowed->owned = false;
  borrowed->db.reset(db);
  borrowed->families.push_back(db->DefaultColumnFamily());
  borrowed->family_names.push_back(rocksdb::kDefaultColumnFamilyName);
  for (rocksdb::ColumnFamilyHandle* h : families) {
    borrowed->families.push_back(h);
    borrowed->family_names.push_back(h->GetName());
  }
  for (rocksdb::ColumnFamilyHandle* h : borrowed->families) {
    rocksdb::ColumnFamilyDescriptor d;
    // Unknown options: assume values may be computed (ask per value).
    borrowed->values_computed.push_back(!h->GetDescriptor(&d).ok() ||
                                        d.options.merge_operator != nullptr ||
                                        d.options.enable_blob_files);
  }
  *engine = std::move(borrowed);
  return Status::OK();
}

}  // namespace internal
}  // namespace pinget
