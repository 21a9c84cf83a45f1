// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "data_set.h"

#include <rocksdb/db.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "convert.h"
#include "engine.h"
#include "pinget/pinget.h"

namespace pinget_bench {

size_t g_key_bytes = kDefaultKeyBytes;
std::string g_dir = "/tmp/pinget-bench";

const char* ResidencyName(Residency r) {
  switch (r) {
    case Residency::kMemtable:
      return "memtable";
    case Residency::kFile:
      return "file";
    case Residency::kBlockCache:
      break;
  }
  return "block_cache";
}

std::string Config::Name(const char* strategy) const {
  std::ostringstream os;
  os << strategy << "/size:" << value_size << "/keys:" << keys
     << "/residency:" << ResidencyName(residency) << "/batch:" << batch;
  if (g_key_bytes != kDefaultKeyBytes) os << "/key_bytes:" << g_key_bytes;
  return os.str();
}

std::string Key(size_t i) {
  char buf[80];
  if (g_key_bytes == kDefaultKeyBytes) {
    std::snprintf(buf, sizeof buf, "key%012zu", i);
  } else {
    std::snprintf(buf, sizeof buf, "%0*zu", static_cast<int>(g_key_bytes), i);
  }
  return buf;
}

std::string Value(size_t i, size_t size) {
  std::string v(size, '\0');
  std::mt19937_64 rng(i);
  for (char& c : v) c = static_cast<char>(rng());
  return v;
}

namespace {

// Values are random bytes so compression cannot shrink them; caches and
// memtables are sized to hold the whole data set, but for the file residency.
// An LRU cache is split into up to 64 equal shards and a block goes to the
// shard its hash picks, so it fills unevenly: at 1.5 times the data, 1,000
// values of 1 MiB overflowed a shard. At 3 times every shard can take about
// three times its expected share.
pinget::Options StoreOptions(const Config& c) {
  pinget::Options o;
  const size_t data = c.keys * (c.value_size + 32);
  o.block_cache_bytes = c.residency == Residency::kFile
                            ? data / 16
                            : 3 * data + (size_t{64} << 20);
  o.write_buffer_bytes =
      c.memtable() ? 2 * data + (size_t{64} << 20) : size_t{64} << 20;
  o.compression = pinget::Compression::kNone;
  return o;
}

std::string Load(const Config& c, const std::string& path, bool raw,
                 DataSet* ds) {
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
  pinget::Status st;
  if (raw) {
    st = pinget::internal::OpenEngine(path, StoreOptions(c), &ds->engine,
                                      /*count_file_reads=*/false);
  } else {
    st = pinget::Store::Open(path, StoreOptions(c), &ds->store);
  }
  if (!st.ok()) return st.ToString();
  pinget::WriteOptions wo;
  wo.disable_wal = true;
  for (size_t i = 0; i < c.keys; ++i) {
    const std::string v = Value(i, c.value_size);
    if (raw) {
      rocksdb::WriteOptions rwo;
      rwo.disableWAL = true;
      st = pinget::internal::FromRocksDB(
          ds->engine->db->Put(rwo, ds->keys[i], v));
    } else {
      st = ds->store->Put(wo, 0, ds->keys[i], v);
    }
    if (!st.ok()) return st.ToString();
  }
  if (!c.memtable()) {
    if (raw) {
      rocksdb::FlushOptions fo;
      ds->engine->db->Flush(fo);
      ds->engine->db->CompactRange({}, nullptr, nullptr);
    } else {
      ds->store->Flush();
      ds->store->Compact();
    }
  }
  // Warm: one read of every key fills the block cache (file residency: the
  // OS page cache, with the files just written).
  std::string scratch;
  for (const std::string& k : ds->keys) {
    if (raw) {
      rocksdb::PinnableSlice v;
      st = pinget::internal::FromRocksDB(ds->engine->db->Get(
          {}, ds->engine->db->DefaultColumnFamily(), k, &v));
    } else {
      st = ds->store->GetString({}, k, &scratch);
    }
    if (!st.ok()) return st.ToString();
  }
  // If every block is cached, the cache holds at least every value's bytes;
  // evicting a block larger than the whole set's key and block overheads
  // (about 100 bytes per key) brings it below that.
  if (c.residency == Residency::kBlockCache) {
    uint64_t usage = 0;
    const char* kUsage = "rocksdb.block-cache-usage";
    if (raw) {
      ds->engine->db->GetIntProperty(kUsage, &usage);
    } else {
      std::string text;
      st = ds->store->GetProperty(0, kUsage, &text);
      if (!st.ok()) return st.ToString();
      usage = std::stoull(text);
    }
    if (usage < c.keys * c.value_size) {
      return "the block cache holds " + std::to_string(usage) +
             " bytes after warming, less than the values' " +
             std::to_string(c.keys * c.value_size) + ": blocks were evicted";
    }
  }
  return {};
}

// Closed explicitly by CloseDataSets: RocksDB must not be closed during static
// destruction.
std::map<std::string, std::unique_ptr<DataSet>> g_sets;

}  // namespace

DataSet* GetDataSet(const Config& c, bool raw, std::string* error) {
  auto& sets = g_sets;
  const std::string id = c.Name(raw ? "raw" : "pinget");
  auto it = sets.find(id);
  if (it != sets.end()) return it->second.get();
  for (auto i = sets.begin(); i != sets.end();) {
    const Config& o = i->second->config;
    const bool same_data = o.value_size == c.value_size && o.keys == c.keys &&
                           o.residency == c.residency;
    i = same_data ? std::next(i) : sets.erase(i);
  }
  auto ds = std::make_unique<DataSet>();
  ds->config = c;
  for (size_t i = 0; i < c.keys; ++i) ds->keys.push_back(Key(i));
  ds->order.resize(c.keys);
  std::iota(ds->order.begin(), ds->order.end(), 0);
  std::shuffle(ds->order.begin(), ds->order.end(), std::mt19937_64(42));
  *error =
      Load(c, g_dir + "/" + std::to_string(sets.size()) + (raw ? "r" : "p"),
           raw, ds.get());
  if (!error->empty()) return nullptr;
  return sets.emplace(id, std::move(ds)).first->second.get();
}

void CloseDataSets() {
  g_sets.clear();
  std::filesystem::remove_all(g_dir);
}

}  // namespace pinget_bench
