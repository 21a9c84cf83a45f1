// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The native suite: every C++ get strategy, native_pinned (RocksDB's own Get
// into a PinnableSlice, the floor) and memcpy (one copy of the value's size),
// over a matrix of value size, key count, residency and batch size.
//
// Benchmark names: <strategy>/size:<bytes>/keys:<n>/residency:<r>/batch:<b>.
// One operation = one key read, so batch rows compare with single gets.
// Counters copies_per_op, bytes_copied_per_op, allocs_per_op, file_reads_per_op
// and file_bytes_per_op come from pinget's per-thread copy counters
// (native_pinned and memcpy are not counted by pinget: their counters are
// absent); copies_per_op and bytes_copied_per_op include the file reads (F).
//
// Residencies: block_cache (a cache three times the data, warmed), memtable
// (never flushed) and file (a cache of 1/16 of the data: most gets read their
// block from the SST file, which the OS page cache holds after loading).
//
// Extra flags (before Google Benchmark's own):
//   --pinget_sizes=128,4096,65536  --pinget_keys=1000
//   --pinget_residency=block_cache,memtable,file  --pinget_batch=1,16
//   --pinget_key_bytes=15  (15: "key" + 12 digits; else that many digits)
//   --pinget_dir=/tmp/pinget-bench  (data sets are rebuilt on every run)

#include <benchmark/benchmark.h>
#include <rocksdb/db.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
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

namespace {

// 15: "key" and 12 digits; other lengths (--pinget_key_bytes) are digits alone.
constexpr size_t kDefaultKeyBytes = 15;
size_t g_key_bytes = kDefaultKeyBytes;

enum class Residency { kBlockCache, kMemtable, kFile };

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

struct Config {
  size_t value_size;
  size_t keys;
  Residency residency;
  size_t batch;

  bool memtable() const { return residency == Residency::kMemtable; }
  std::string Name(const char* strategy) const {
    std::ostringstream os;
    os << strategy << "/size:" << value_size << "/keys:" << keys
       << "/residency:" << ResidencyName(residency) << "/batch:" << batch;
    if (g_key_bytes != kDefaultKeyBytes) os << "/key_bytes:" << g_key_bytes;
    return os.str();
  }
};

std::string g_dir = "/tmp/pinget-bench";
constexpr size_t kMaxDataBytes = size_t{4} << 30;  // one data set < 4 GiB
// The file residency's cache is 1/16 of the data: 100,000 values of 64 KiB.
constexpr size_t kMaxFileDataBytes = size_t{8} << 30;

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

// A data set for one config, opened either through pinget (Store) or as the
// same RocksDB setup without pinget (Engine, for native_pinned). Each opens
// its own copy: the two cannot share a directory.
struct DataSet {
  Config config;
  std::unique_ptr<pinget::Store> store;
  std::shared_ptr<pinget::internal::Engine> engine;
  std::vector<std::string> keys;
  std::vector<size_t> order;  // a fixed random visiting order
};

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

// Closed explicitly at the end of main: RocksDB must not be closed during
// static destruction.
std::map<std::string, std::unique_ptr<DataSet>> g_sets;

// Keeps at most one config's data sets in memory at a time.
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

void ReportCounters(benchmark::State& state, const Config& c) {
  const pinget::CopyStats s = pinget::GetCopyStats();
  const double ops = static_cast<double>(state.iterations() * c.batch);
  state.counters["copies_per_op"] = s.value_copies / ops;
  state.counters["bytes_copied_per_op"] = s.value_bytes_copied / ops;
  state.counters["allocs_per_op"] = s.allocations / ops;
  state.counters["file_reads_per_op"] = s.file_reads / ops;
  state.counters["file_bytes_per_op"] = s.file_bytes_read / ops;
  // A read from the file is a copy (F) before RocksDB's and the strategy's.
  state.counters["copies_per_op"] = (s.value_copies + s.file_reads) / ops;
  state.counters["bytes_copied_per_op"] =
      (s.value_bytes_copied + s.file_bytes_read) / ops;
}

void Finish(benchmark::State& state, const Config& c) {
  state.SetItemsProcessed(state.iterations() * c.batch);
  state.SetBytesProcessed(state.iterations() * c.batch * c.value_size);
}

// Runs body(key_index_array) with batch consecutive keys of the visiting order.
template <typename Body>
void Loop(benchmark::State& state, const DataSet& ds, size_t batch, Body body) {
  size_t next = 0;
  const size_t n = ds.order.size();
  for (auto _ : state) {
    body(next);
    next += batch;
    if (next + batch > n) next = 0;
  }
}

// string_copy: 1 copy into a reused std::string.
void BM_StringCopy(benchmark::State& state, Config c) {
  std::string error;
  DataSet* ds = GetDataSet(c, false, &error);
  if (ds == nullptr) return state.SkipWithError(error.c_str());
  std::string value;
  pinget::ResetCopyStats();
  Loop(state, *ds, 1, [&](size_t i) {
    if (!ds->store->GetString({}, ds->keys[ds->order[i]], &value).ok()) {
      state.SkipWithError("GetString failed");
    }
    benchmark::DoNotOptimize(value.data());
  });
  ReportCounters(state, c);
  Finish(state, c);
}

// buffer_copy: P + 1 copies into a caller's buffer.
void BM_BufferCopy(benchmark::State& state, Config c) {
  std::string error;
  DataSet* ds = GetDataSet(c, false, &error);
  if (ds == nullptr) return state.SkipWithError(error.c_str());
  std::vector<char> buffers(c.batch * c.value_size);
  std::vector<pinget::Buffer> bufs(c.batch);
  for (size_t b = 0; b < c.batch; ++b) {
    bufs[b] = {buffers.data() + b * c.value_size, c.value_size};
  }
  std::vector<std::string_view> keys(c.batch);
  std::vector<size_t> sizes(c.batch);
  std::vector<pinget::Status> statuses(c.batch);
  pinget::ResetCopyStats();
  Loop(state, *ds, c.batch, [&](size_t i) {
    pinget::Status st;
    if (c.batch == 1) {
      st = ds->store->GetInto({}, ds->keys[ds->order[i]], bufs[0].data,
                              bufs[0].capacity, &sizes[0]);
    } else {
      for (size_t b = 0; b < c.batch; ++b) keys[b] = ds->keys[ds->order[i + b]];
      st = ds->store->MultiGetInto({}, c.batch, keys.data(), bufs.data(),
                                   sizes.data(), statuses.data());
    }
    if (!st.ok()) state.SkipWithError("GetInto failed");
    benchmark::DoNotOptimize(buffers.data());
    benchmark::ClobberMemory();
  });
  ReportCounters(state, c);
  Finish(state, c);
}

// pinned_view: P copies; the handle is reused, each get releasing the last.
void BM_PinnedView(benchmark::State& state, Config c) {
  std::string error;
  DataSet* ds = GetDataSet(c, false, &error);
  if (ds == nullptr) return state.SkipWithError(error.c_str());
  pinget::PinnedValue value;
  pinget::PinnedBatch batch;
  std::vector<std::string_view> keys(c.batch);
  pinget::ResetCopyStats();
  Loop(state, *ds, c.batch, [&](size_t i) {
    pinget::Status st;
    if (c.batch == 1) {
      st = ds->store->GetPinned({}, ds->keys[ds->order[i]], &value);
      benchmark::DoNotOptimize(value.data());
      benchmark::DoNotOptimize(value.size());
    } else {
      for (size_t b = 0; b < c.batch; ++b) keys[b] = ds->keys[ds->order[i + b]];
      st = ds->store->MultiGetPinned({}, c.batch, keys.data(), &batch);
      for (size_t b = 0; b < c.batch; ++b) {
        benchmark::DoNotOptimize(batch.view(b).data());
      }
    }
    if (!st.ok()) state.SkipWithError("GetPinned failed");
  });
  ReportCounters(state, c);
  Finish(state, c);
}

// pinned_view_perf_count: pinned_view with RocksDB's PerfContext counting on
// this thread (kEnableCount), as counting file reads through PerfContext would
// need: what that alternative to pinget's file-system counter costs per get.
void BM_PinnedViewPerfCount(benchmark::State& state, Config c) {
  std::string error;
  DataSet* ds = GetDataSet(c, false, &error);
  if (ds == nullptr) return state.SkipWithError(error.c_str());
  pinget::PinnedValue value;
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
  rocksdb::get_perf_context()->Reset();
  Loop(state, *ds, 1, [&](size_t i) {
    if (!ds->store->GetPinned({}, ds->keys[ds->order[i]], &value).ok()) {
      state.SkipWithError("GetPinned failed");
    }
    benchmark::DoNotOptimize(value.data());
  });
  const uint64_t block_reads = rocksdb::get_perf_context()->block_read_count;
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
  rocksdb::get_perf_context()->Reset();
  state.counters["perf_block_reads_per_op"] =
      block_reads / static_cast<double>(state.iterations());
  Finish(state, c);
}

// native_pinned: RocksDB's DB::Get / MultiGet into PinnableSlices, no pinget.
void BM_NativePinned(benchmark::State& state, Config c) {
  std::string error;
  DataSet* ds = GetDataSet(c, true, &error);
  if (ds == nullptr) return state.SkipWithError(error.c_str());
  rocksdb::DB* db = ds->engine->db.get();
  rocksdb::ColumnFamilyHandle* cf = db->DefaultColumnFamily();
  const rocksdb::ReadOptions ro;
  std::vector<rocksdb::PinnableSlice> values(c.batch);
  std::vector<rocksdb::Slice> keys(c.batch);
  std::vector<rocksdb::Status> statuses(c.batch);
  Loop(state, *ds, c.batch, [&](size_t i) {
    if (c.batch == 1) {
      values[0].Reset();
      rocksdb::Status s = db->Get(ro, cf, ds->keys[ds->order[i]], &values[0]);
      if (!s.ok()) state.SkipWithError("Get failed");
      benchmark::DoNotOptimize(values[0].data());
    } else {
      for (size_t b = 0; b < c.batch; ++b) {
        values[b].Reset();
        keys[b] = ds->keys[ds->order[i + b]];
      }
      db->MultiGet(ro, cf, c.batch, keys.data(), values.data(),
                   statuses.data());
      for (size_t b = 0; b < c.batch; ++b) {
        benchmark::DoNotOptimize(values[b].data());
      }
    }
  });
  Finish(state, c);
}

// memcpy: the cost of one copy of value_size bytes, source and destination
// warm in cache, as a copy out of a pinned block would be, both starting a
// page. memcpy_dst16 starts the destination 16 bytes into its page: with the
// destination just ahead of the source modulo 4 KiB, glibc's `rep movsb` path
// runs many times slower on some CPUs (AMD EPYC here), and a copy strategy's
// buffer can land either way relative to the block it copies from.
void BM_Memcpy(benchmark::State& state, Config c, size_t dst_offset) {
  constexpr uintptr_t kPage = 4096;
  std::vector<char> src(c.value_size + kPage, 'x');
  std::vector<char> dst(c.value_size + 2 * kPage);
  auto page = [](char* p) {
    return reinterpret_cast<char*>(
        (reinterpret_cast<uintptr_t>(p) + kPage - 1) & ~(kPage - 1));
  };
  char* s = page(src.data());
  char* d = page(dst.data()) + dst_offset;
  for (auto _ : state) {
    std::memcpy(d, s, c.value_size);
    benchmark::DoNotOptimize(d);
    benchmark::ClobberMemory();
  }
  Finish(state, Config{c.value_size, 0, Residency::kBlockCache, 1});
}

// The cost of the copy counters themselves: one recorded copy per iteration.
void BM_CounterOverhead(benchmark::State& state) {
  for (auto _ : state) {
    pinget::RecordValueCopy(128);
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(pinget::GetCopyStats().value_copies);
}

std::vector<size_t> ParseSizes(const std::string& s) {
  std::vector<size_t> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) {
    out.push_back(std::stoull(item));
  }
  return out;
}

std::vector<std::string> ParseWords(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes{128, 4096, 65536}, key_counts{1000}, batches{1};
  std::vector<std::string> residencies{"block_cache"};
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* flag) -> const char* {
      const size_t n = std::strlen(flag);
      return arg.compare(0, n, flag) == 0 ? argv[i] + n : nullptr;
    };
    if (const char* v = value("--pinget_sizes=")) {
      sizes = ParseSizes(v);
    } else if (const char* v = value("--pinget_keys=")) {
      key_counts = ParseSizes(v);
    } else if (const char* v = value("--pinget_batch=")) {
      batches = ParseSizes(v);
    } else if (const char* v = value("--pinget_residency=")) {
      residencies = ParseWords(v);
    } else if (const char* v = value("--pinget_key_bytes=")) {
      g_key_bytes = std::stoull(v);
      if (g_key_bytes < 8 || g_key_bytes > 64) {
        std::fprintf(stderr, "--pinget_key_bytes: 8 to 64\n");
        return 2;
      }
    } else if (const char* v = value("--pinget_dir=")) {
      g_dir = v;
    } else {
      rest.push_back(argv[i]);
    }
  }
  std::vector<Residency> places;
  for (const std::string& r : residencies) {
    if (r == "block_cache") {
      places.push_back(Residency::kBlockCache);
    } else if (r == "memtable") {
      places.push_back(Residency::kMemtable);
    } else if (r == "file") {
      places.push_back(Residency::kFile);
    } else {
      std::fprintf(stderr, "unknown residency %s\n", r.c_str());
      return 2;
    }
  }

  benchmark::RegisterBenchmark(
      "counter_overhead/size:0/keys:0/residency:block_cache/batch:1",
      BM_CounterOverhead);
  for (size_t size : sizes) {
    benchmark::RegisterBenchmark(
        Config{size, 0, Residency::kBlockCache, 1}.Name("memcpy").c_str(),
        BM_Memcpy, Config{size, 0, Residency::kBlockCache, 1}, 0);
    benchmark::RegisterBenchmark(
        Config{size, 0, Residency::kBlockCache, 1}.Name("memcpy_dst16").c_str(),
        BM_Memcpy, Config{size, 0, Residency::kBlockCache, 1}, 16);
    for (size_t keys : key_counts) {
      for (Residency r : places) {
        // Cap the key count so that one data set stays under 4 GiB (8 GiB
        // for the file residency).
        const size_t capped = std::min(
            keys,
            (r == Residency::kFile ? kMaxFileDataBytes : kMaxDataBytes) / size);
        for (size_t batch : batches) {
          const Config c{size, capped, r, batch};
          if (batch == 1) {
            benchmark::RegisterBenchmark(c.Name("string_copy").c_str(),
                                         BM_StringCopy, c);
          }
          benchmark::RegisterBenchmark(c.Name("buffer_copy").c_str(),
                                       BM_BufferCopy, c);
          benchmark::RegisterBenchmark(c.Name("pinned_view").c_str(),
                                       BM_PinnedView, c);
          if (batch == 1) {
            benchmark::RegisterBenchmark(
                c.Name("pinned_view_perf_count").c_str(),
                BM_PinnedViewPerfCount, c);
          }
          benchmark::RegisterBenchmark(c.Name("native_pinned").c_str(),
                                       BM_NativePinned, c);
        }
      }
    }
  }
  int bench_argc = static_cast<int>(rest.size());
  // The engine this binary runs, read by bench/tools/summarize.py.
  benchmark::AddCustomContext("rocksdb", pinget::RocksDBVersion());
  benchmark::Initialize(&bench_argc, rest.data());
  if (benchmark::ReportUnrecognizedArguments(bench_argc, rest.data())) {
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_sets.clear();
  std::filesystem::remove_all(g_dir);
  return 0;
}
