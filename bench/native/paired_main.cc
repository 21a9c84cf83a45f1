// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// pinget_paired: paired comparisons of C++ reads in one process (paired.h),
// over the native suite's data sets (data_set.h, block cache, 1,000 keys by
// default): the rows of rows.h, pinget's strategies and native_pinned
// (RocksDB's own DB::Get into a PinnableSlice, no pinget), by the native
// suite's row names, each with a batch ("/16") or without. pinned_view_twin is
// pinned_view's code compiled again, for the control pairs. SIZE "synthetic"
// selects the self-test sides of known ratio: once (a chain of dependent
// multiply-xor steps per operation), twice (the same loop, two chains per
// operation), five_fourths (five chains per four operations), once_twin.
//
//   pinget_paired --compare=pinned_view:native_pinned@4096,... --out=FILE
//       [--pairs=100 --round_ms=10 --warmup_ms=500 --keys=1000 --seed=42
//        --pinget_dir=/tmp/pinget-paired --lock=true]
//
// --lock=true (the default) holds JMH's lock while measuring (machine_lock.h).
// Writes the paired JSON that bench/tools reads (harness "native").

#include <benchmark/benchmark.h>
#include <rocksdb/db.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "data_set.h"
#include "machine_lock.h"
#include "paired.h"
#include "pinget/pinget.h"
#include "rows.h"

namespace {

using pinget_bench::Side;

// A comparison: A:B@SIZE, A and B row names with an optional "/batch".
struct Spec {
  std::string a, b, size;
  size_t batch_a = 1, batch_b = 1;
};

void SplitBatch(const std::string& s, std::string* row, size_t* batch) {
  const size_t slash = s.find('/');
  *row = s.substr(0, slash);
  *batch = slash == std::string::npos ? 1 : std::stoull(s.substr(slash + 1));
}

Spec ParseSpec(const std::string& s) {
  const size_t at = s.rfind('@');
  const size_t colon = s.find(':');
  if (at == std::string::npos || colon == std::string::npos || colon > at) {
    throw std::invalid_argument("comparison " + s + ": A:B@SIZE");
  }
  Spec spec;
  SplitBatch(s.substr(0, colon), &spec.a, &spec.batch_a);
  SplitBatch(s.substr(colon + 1, at - colon - 1), &spec.b, &spec.batch_b);
  spec.size = s.substr(at + 1);
  return spec;
}

// --- the self-test sides -----------------------------------------------------

constexpr size_t kSteps = 4096;          // dependent steps per chain
constexpr size_t kSyntheticSize = 8192;  // 32 KiB of uint32: in L1
constexpr size_t kSyntheticUnit = 4;     // five_fourths: exactly 1.25 times

// Not inlined: every side runs this one copy of the loop, so that the layout
// of separately compiled copies cannot tell the sides apart.
__attribute__((noinline)) uint32_t Chain(const std::vector<uint32_t>& d,
                                         size_t from, uint32_t h) {
  for (size_t i = 0; i < kSteps; ++i) {
    h = (h ^ d[(from + i) & (kSyntheticSize - 1)]) * 0x9E3779B1u;
  }
  return h;
}

Side SyntheticSide(const std::string& row) {
  auto d = std::make_shared<std::vector<uint32_t>>(kSyntheticSize);
  uint32_t x = 7;
  for (uint32_t& v : *d) v = x = x * 1664525u + 1013904223u;
  Side s{row, 1, kSyntheticUnit, nullptr};
  if (row == "once") {
    s.run = [d](size_t start, size_t ops) {
      for (size_t i = 0; i < ops; ++i) {
        benchmark::DoNotOptimize(
            Chain(*d, start + i, static_cast<uint32_t>(i)));
      }
    };
  } else if (row == "once_twin") {
    s.run = [d](size_t start, size_t ops) {
      for (size_t i = 0; i < ops; ++i) {
        benchmark::DoNotOptimize(
            Chain(*d, start + i, static_cast<uint32_t>(i)));
      }
    };
  } else if (row == "twice") {
    s.run = [d](size_t start, size_t ops) {
      for (size_t i = 0; i < 2 * ops; ++i) {
        benchmark::DoNotOptimize(
            Chain(*d, start + i, static_cast<uint32_t>(i)));
      }
    };
  } else if (row == "five_fourths") {
    s.run = [d](size_t start, size_t ops) {
      for (size_t i = 0; i < ops + ops / kSyntheticUnit; ++i) {
        benchmark::DoNotOptimize(
            Chain(*d, start + i, static_cast<uint32_t>(i)));
      }
    };
  } else {
    throw std::invalid_argument("unknown synthetic side " + row);
  }
  return s;
}

// --- the sides over a data set -----------------------------------------------

// A side of a row of rows.h: one call of the row per batch of keys, from
// position start of the visiting order. kCopy makes another instantiation, a
// separately compiled copy of the same code, for a _twin row (the controls:
// two copies of one loop can differ by their code's layout alone).
template <typename Row, int kCopy = 0>
Side RowSide(const std::string& row, size_t batch, std::shared_ptr<Row> read,
             const pinget_bench::DataSet& ds) {
  auto keys = std::make_shared<std::vector<std::string_view>>(
      pinget_bench::Ordered(ds, batch));
  const size_t n = ds.order.size();
  Side s{row, batch, batch, nullptr};
  s.run = [=](size_t start, size_t ops) {
    size_t p = start;
    for (size_t i = 0; i < ops; i += batch) {
      (*read)(keys->data() + p);
      p += batch;
      if (p >= n) p -= n;
    }
  };
  return s;
}

// A side of a scan row of rows.h: one call per row.entries() operations, each
// an entry (the start position is the row's own: a stream goes on, a range
// takes the next seek key).
template <typename Row>
Side EntrySide(const std::string& row, std::shared_ptr<Row> read) {
  const size_t unit = read->entries();
  Side s{row, 1, unit, nullptr};
  s.run = [=](size_t, size_t ops) {
    for (size_t i = 0; i < ops; i += unit) (*read)();
  };
  return s;
}

Side DataSide(const std::string& row, size_t batch, pinget_bench::DataSet* ds,
              pinget_bench::DataSet* raw) {
  using pinget_bench::BufferCopyRow;
  using pinget_bench::NativePinnedRow;
  using pinget_bench::PinnedViewRow;
  pinget::Store* store = ds->store.get();
  if (row == "pinned_view") {
    return RowSide(row, batch, std::make_shared<PinnedViewRow>(store, batch),
                   *ds);
  }
  if (row == "pinned_view_twin") {
    return RowSide<PinnedViewRow, 1>(
        row, batch, std::make_shared<PinnedViewRow>(store, batch), *ds);
  }
  if (row == "buffer_copy") {
    return RowSide(
        row, batch,
        std::make_shared<BufferCopyRow>(store, batch, ds->config.value_size),
        *ds);
  }
  if (row == "string_copy") {
    return RowSide(row, batch,
                   std::make_shared<pinget_bench::StringCopyRow>(store, batch),
                   *ds);
  }
  if (row == "pinned_view_borrowed") {
    // pinned_view over native_pinned's own database (Store::Borrow): the
    // pair with native_pinned then differs by pinget's wrapper alone, not by
    // two databases' memory layout. The row is kept with the borrowed store.
    std::unique_ptr<pinget::Store> b;
    pinget_bench::Check(pinget::Store::Borrow(raw->engine->db.get(),
                                              raw->engine->families, &b));
    struct Borrowed {
      Borrowed(std::unique_ptr<pinget::Store> s, size_t batch)
          : store(std::move(s)), row(store.get(), batch) {}
      void operator()(const std::string_view* keys) { row(keys); }
      std::unique_ptr<pinget::Store> store;
      PinnedViewRow row;
    };
    return RowSide(row, batch, std::make_shared<Borrowed>(std::move(b), batch),
                   *ds);
  }
  // The scans: one call per stream batch or range (rows.h), never a batch of
  // keys.
  const bool cursor = row == "cursor_stream" || row == "cursor_range";
  const bool bounded = row == "native_iterator_bounded_stream" ||
                       row == "native_iterator_bounded_range";
  if (cursor || bounded || row == "native_iterator_stream" ||
      row == "native_iterator_range") {
    if (batch != 1)
      throw std::invalid_argument(row + " reads no batch of keys");
    const bool stream = row.compare(row.size() - 7, 7, "_stream") == 0;
    if (cursor) {
      return EntrySide(
          row, std::make_shared<pinget_bench::CursorRow>(store, *ds, stream));
    }
    return EntrySide(row, std::make_shared<pinget_bench::NativeIteratorRow>(
                              raw->engine->db.get(), *raw, stream,
                              bounded ? pinget::Cursor::kRecycleBytes : 0));
  }
  if (row == "native_pinned") {
    return RowSide(
        row, batch,
        std::make_shared<NativePinnedRow>(raw->engine->db.get(), batch), *ds);
  }
  throw std::invalid_argument("unknown row " + row + " (batch " +
                              std::to_string(batch) + ")");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Spec> specs;
  pinget_bench::PairedConfig config;
  size_t keys = 1000;
  bool lock = true;
  std::string out;
  pinget_bench::g_dir = "/tmp/pinget-paired";
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      const size_t eq = arg.find('=');
      const std::string flag = arg.substr(0, eq);
      const std::string v = eq == std::string::npos ? "" : arg.substr(eq + 1);
      if (flag == "--compare") {
        std::stringstream in(v);
        for (std::string item; std::getline(in, item, ',');) {
          specs.push_back(ParseSpec(item));
        }
      } else if (flag == "--pairs") {
        config.pairs = std::stoull(v);
      } else if (flag == "--round_ms") {
        config.round = std::chrono::milliseconds(std::stoll(v));
      } else if (flag == "--warmup_ms") {
        config.warmup = std::chrono::milliseconds(std::stoll(v));
      } else if (flag == "--seed") {
        config.seed = std::stoull(v);
      } else if (flag == "--keys") {
        keys = std::stoull(v);
      } else if (flag == "--out") {
        out = v;
      } else if (flag == "--lock") {
        lock = v != "false";
      } else if (flag == "--pinget_dir") {
        pinget_bench::g_dir = v;
      } else {
        throw std::invalid_argument("unknown flag " + arg);
      }
    }
    if (specs.empty() || out.empty() || config.pairs < 1) {
      throw std::invalid_argument("--compare=A:B@SIZE,... --out=FILE needed");
    }
    std::unique_ptr<pinget_bench::MachineLock> machine;
    if (lock) machine = std::make_unique<pinget_bench::MachineLock>();
    std::vector<std::string> results;
    const uint64_t seed = config.seed;
    for (size_t i = 0; i < specs.size(); ++i) {
      const Spec& spec = specs[i];
      config.seed = seed + 1000 * i;  // each comparison its own draws
      const auto t0 = std::chrono::steady_clock::now();
      Side a, b;
      size_t positions, value_size;
      if (spec.size == "synthetic") {
        a = SyntheticSide(spec.a);
        b = SyntheticSide(spec.b);
        positions = kSyntheticSize;
        value_size = 0;
      } else {
        value_size = std::stoull(spec.size);
        const pinget_bench::Config c{value_size, keys,
                                     pinget_bench::Residency::kBlockCache, 1};
        std::string error;
        pinget_bench::DataSet* ds = pinget_bench::GetDataSet(c, false, &error);
        pinget_bench::DataSet* raw =
            ds ? pinget_bench::GetDataSet(c, true, &error) : nullptr;
        if (raw == nullptr) throw std::runtime_error(error);
        a = DataSide(spec.a, spec.batch_a, ds, raw);
        b = DataSide(spec.b, spec.batch_b, ds, raw);
        positions = ds->order.size();
      }
      const pinget_bench::PairedResult r =
          pinget_bench::MeasurePaired(a, b, positions, config);
      results.push_back(pinget_bench::PairedJson(a, b, spec.size, value_size,
                                                 positions, config, r));
      std::printf(
          "paired %s:%s@%s: %.1f s\n", spec.a.c_str(), spec.b.c_str(),
          spec.size.c_str(),
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
              .count());
      std::fflush(stdout);
    }
    std::ofstream f(out);
    f << "{\"harness\": \"native\", \"compiler\": \"" << __VERSION__
      << "\", \"comparisons\": [\n";
    for (size_t i = 0; i < results.size(); ++i) {
      f << (i ? ",\n" : "") << results[i];
    }
    f << "\n]}\n";
    if (!f) throw std::runtime_error("cannot write " + out);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pinget_paired: %s\n", e.what());
    pinget_bench::CloseDataSets();
    return 1;
  }
  pinget_bench::CloseDataSets();
  return 0;
}
