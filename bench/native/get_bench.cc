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
//   --pinget_lock=true  (hold JMH's lock while measuring: machine_lock.h)
//   --pinget_scans=true  (the scan rows: cursor@stream, cursor@range and
//                         native_iterator@ of each)
//
// empty_loop measures what the loop of Google Benchmark costs per iteration,
// as this build links it (Debian's libbenchmark, built without NDEBUG: it
// prints "Library was built as DEBUG"). The iteration loop is inline in
// benchmark.h, so it is compiled here, with NDEBUG; the library's own code runs
// once per batch of iterations, not per iteration. The row bounds both.

#include <benchmark/benchmark.h>
#include <rocksdb/db.h>
#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "data_set.h"
#include "machine_lock.h"
#include "pinget/pinget.h"
#include "rows.h"

using pinget_bench::Config;
using pinget_bench::DataSet;
using pinget_bench::GetDataSet;
using pinget_bench::Residency;

namespace {

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

// Runs body, the benchmark's loop over a row of rows.h, and reports it; a row
// that throws skips the benchmark. counted: the row is pinget's, and reports
// its copy counters.
template <typename Body>
void Measure(benchmark::State& state, const Config& c, bool counted,
             Body body) {
  if (counted) pinget::ResetCopyStats();
  try {
    body();
  } catch (const std::exception& e) {
    return state.SkipWithError(e.what());
  }
  if (counted) ReportCounters(state, c);
  Finish(state, c);
}

// A get row, one call per iteration (c.batch keys), from consecutive positions
// of the visiting order.
template <typename Row>
void RunRow(benchmark::State& state, const Config& c, const DataSet& ds,
            Row& row, bool counted) {
  const std::vector<std::string_view> keys = pinget_bench::Ordered(ds, 0);
  Measure(state, c, counted, [&] {
    Loop(state, ds, c.batch, [&](size_t i) { row(keys.data() + i); });
  });
}

// The data set of c for state (raw: without pinget), or nullptr and the
// benchmark skipped.
DataSet* DataFor(benchmark::State& state, const Config& c, bool raw) {
  std::string error;
  DataSet* ds = GetDataSet(c, raw, &error);
  if (ds == nullptr) state.SkipWithError(error.c_str());
  return ds;
}

void BM_StringCopy(benchmark::State& state, Config c) {
  if (DataSet* ds = DataFor(state, c, false)) {
    pinget_bench::StringCopyRow row(ds->store.get(), c.batch);
    RunRow(state, c, *ds, row, true);
  }
}

void BM_BufferCopy(benchmark::State& state, Config c) {
  if (DataSet* ds = DataFor(state, c, false)) {
    pinget_bench::BufferCopyRow row(ds->store.get(), c.batch, c.value_size);
    RunRow(state, c, *ds, row, true);
  }
}

void BM_PinnedView(benchmark::State& state, Config c) {
  if (DataSet* ds = DataFor(state, c, false)) {
    pinget_bench::PinnedViewRow row(ds->store.get(), c.batch);
    RunRow(state, c, *ds, row, true);
  }
}

#if PINGET_ENGINE_PERF_CONTEXT
// pinned_view_perf_count: pinned_view with RocksDB's PerfContext counting on
// this thread (kEnableCount), as counting file reads through PerfContext would
// need: what that alternative to pinget's file-system counter costs per get.
// Only where the engine keeps a PerfContext (not the bundled one).
void BM_PinnedViewPerfCount(benchmark::State& state, Config c) {
  if (DataSet* ds = DataFor(state, c, false)) {
    pinget_bench::PinnedViewRow row(ds->store.get(), 1);
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
    rocksdb::get_perf_context()->Reset();
    RunRow(state, c, *ds, row, false);
    const uint64_t block_reads = rocksdb::get_perf_context()->block_read_count;
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
    rocksdb::get_perf_context()->Reset();
    state.counters["perf_block_reads_per_op"] =
        block_reads / static_cast<double>(state.iterations());
  }
}
#endif

void BM_NativePinned(benchmark::State& state, Config c) {
  if (DataSet* ds = DataFor(state, c, true)) {
    pinget_bench::NativePinnedRow row(ds->engine->db.get(), c.batch);
    RunRow(state, c, *ds, row, false);
  }
}

// Scans (rows.h's CursorRow and NativeIteratorRow): one iteration is one call
// of the row, c.batch entries, so that a row's time per op is per entry.
// cursor@<shape> reads through pinget's Cursor; native_iterator@<shape> is
// RocksDB's iterator with pin_data over the same data without pinget.
Config ScanConfig(Config c, bool stream) {
  c.batch = stream ? pinget_bench::kScanBatch : pinget_bench::kRangeEntries;
  return c;
}

// A scan row, one call (c.batch entries) per iteration.
template <typename Row>
void RunScan(benchmark::State& state, const Config& c, Row& row, bool counted) {
  Measure(state, c, counted, [&] {
    for (auto _ : state) row();
  });
}

void BM_CursorScan(benchmark::State& state, Config c, bool stream) {
  Config data = c;
  data.batch = 1;  // the get rows' data set
  if (DataSet* ds = DataFor(state, data, false)) {
    std::unique_ptr<pinget_bench::CursorRow> row;
    try {
      row = std::make_unique<pinget_bench::CursorRow>(ds->store.get(), *ds,
                                                      stream);
    } catch (const std::exception& e) {
      return state.SkipWithError(e.what());
    }
    RunScan(state, c, *row, true);
  }
}

void BM_NativeIterator(benchmark::State& state, Config c, bool stream) {
  Config data = c;
  data.batch = 1;
  if (DataSet* ds = DataFor(state, data, true)) {
    pinget_bench::NativeIteratorRow row(ds->engine->db.get(), *ds, stream);
    RunScan(state, c, row, false);
  }
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

// The benchmark loop alone: what Google Benchmark costs per iteration.
void BM_EmptyLoop(benchmark::State& state) {
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(++i);
  }
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
  bool lock = true;
  bool scans = true;
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
      pinget_bench::g_key_bytes = std::stoull(v);
      if (pinget_bench::g_key_bytes < 8 || pinget_bench::g_key_bytes > 64) {
        std::fprintf(stderr, "--pinget_key_bytes: 8 to 64\n");
        return 2;
      }
    } else if (const char* v = value("--pinget_scans=")) {
      scans = std::strcmp(v, "false") != 0;
    } else if (const char* v = value("--pinget_lock=")) {
      lock = std::strcmp(v, "false") != 0;
    } else if (const char* v = value("--pinget_dir=")) {
      pinget_bench::g_dir = v;
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
  benchmark::RegisterBenchmark(
      "empty_loop/size:0/keys:0/residency:block_cache/batch:1", BM_EmptyLoop);
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
            keys, (r == Residency::kFile ? pinget_bench::kMaxFileDataBytes
                                         : pinget_bench::kMaxDataBytes) /
                      size);
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
#if PINGET_ENGINE_PERF_CONTEXT
          if (batch == 1) {
            benchmark::RegisterBenchmark(
                c.Name("pinned_view_perf_count").c_str(),
                BM_PinnedViewPerfCount, c);
          }
#endif
          benchmark::RegisterBenchmark(c.Name("native_pinned").c_str(),
                                       BM_NativePinned, c);
        }
        if (scans && r != Residency::kFile) {  // scans of cached data
          for (bool stream : {true, false}) {
            const Config sc = ScanConfig({size, capped, r, 1}, stream);
            const std::string shape = stream ? "@stream" : "@range";
            benchmark::RegisterBenchmark(
                sc.Name(("cursor" + shape).c_str()).c_str(), BM_CursorScan, sc,
                stream);
            benchmark::RegisterBenchmark(
                sc.Name(("native_iterator" + shape).c_str()).c_str(),
                BM_NativeIterator, sc, stream);
          }
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
  {
    std::unique_ptr<pinget_bench::MachineLock> machine;
    if (lock) machine = std::make_unique<pinget_bench::MachineLock>();
    benchmark::RunSpecifiedBenchmarks();
  }
  benchmark::Shutdown();
  pinget_bench::CloseDataSets();
  return 0;
}
