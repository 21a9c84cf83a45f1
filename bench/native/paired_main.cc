// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// pinget_paired: paired comparisons of C++ reads in one process (paired.h),
// over the native suite's data sets (data_set.h, block cache, 1,000 keys by
// default): pinget's strategies and native_pinned (RocksDB's own DB::Get into
// a PinnableSlice, no pinget), by the native suite's row names. _twin rows are
// their row's code written again, for the control pairs. SIZE "synthetic"
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

// The keys in the visiting order, shared by the sides of one data set.
struct Keys {
  std::vector<std::string_view> ordered;
};

void Check(const pinget::Status& s) {
  if (!s.ok()) throw std::runtime_error(s.ToString());
}

// One case per row, each with its own loop: the repetition is on purpose.
Side DataSide(const std::string& row, size_t batch, pinget_bench::DataSet* ds,
              pinget_bench::DataSet* raw) {
  auto keys = std::make_shared<Keys>();
  for (size_t i : ds->order) keys->ordered.push_back(ds->keys[i]);
  const size_t n = keys->ordered.size();
  pinget::Store* store = ds->store.get();
  rocksdb::DB* db = raw->engine->db.get();
  Side s{row, batch, batch, nullptr};
  if (batch == 1 && row == "pinned_view") {
    auto value = std::make_shared<pinget::PinnedValue>();
    s.run = [=](size_t start, size_t ops) {
      size_t p = start;
      for (size_t i = 0; i < ops; ++i) {
        Check(store->GetPinned({}, keys->ordered[p], value.get()));
        benchmark::DoNotOptimize(value->data());
        if (++p == n) p = 0;
      }
    };
  } else if (batch == 1 && row == "pinned_view_twin") {
    auto value = std::make_shared<pinget::PinnedValue>();
    s.run = [=](size_t start, size_t ops) {
      size_t p = start;
      for (size_t i = 0; i < ops; ++i) {
        Check(store->GetPinned({}, keys->ordered[p], value.get()));
        benchmark::DoNotOptimize(value->data());
        if (++p == n) p = 0;
      }
    };
  } else if (batch == 1 && row == "buffer_copy") {
    auto buffer = std::make_shared<std::vector<char>>(ds->config.value_size);
    s.run = [=](size_t start, size_t ops) {
      size_t p = start;
      size_t size = 0;
      for (size_t i = 0; i < ops; ++i) {
        Check(store->GetInto({}, keys->ordered[p], buffer->data(),
                             buffer->size(), &size));
        benchmark::DoNotOptimize(buffer->data());
        benchmark::ClobberMemory();
        if (++p == n) p = 0;
      }
    };
  } else if (batch == 1 && row == "string_copy") {
    auto value = std::make_shared<std::string>();
    s.run = [=](size_t start, size_t ops) {
      size_t p = start;
      for (size_t i = 0; i < ops; ++i) {
        Check(store->GetString({}, keys->ordered[p], value.get()));
        benchmark::DoNotOptimize(value->data());
        if (++p == n) p = 0;
      }
    };
  } else if (batch == 1 && row == "pinned_view_borrowed") {
    // pinned_view over native_pinned's own database (Store::Borrow): the
    // pair with native_pinned then differs by pinget's wrapper alone, not by
    // two databases' memory layout.
    std::unique_ptr<pinget::Store> b;
    Check(pinget::Store::Borrow(db, raw->engine->families, &b));
    std::shared_ptr<pinget::Store> borrowed = std::move(b);
    auto value = std::make_shared<pinget::PinnedValue>();
    s.run = [=](size_t start, size_t ops) {
      size_t p = start;
      for (size_t i = 0; i < ops; ++i) {
        Check(borrowed->GetPinned({}, keys->ordered[p], value.get()));
        benchmark::DoNotOptimize(value->data());
        if (++p == n) p = 0;
      }
    };
  } else if (batch == 1 && row == "native_pinned") {
    auto value = std::make_shared<rocksdb::PinnableSlice>();
    s.run = [=](size_t start, size_t ops) {
      rocksdb::ColumnFamilyHandle* cf = db->DefaultColumnFamily();
      const rocksdb::ReadOptions ro;
      size_t p = start;
      for (size_t i = 0; i < ops; ++i) {
        value->Reset();
        if (!db->Get(ro, cf, keys->ordered[p], value.get()).ok()) {
          throw std::runtime_error("Get failed");
        }
        benchmark::DoNotOptimize(value->data());
        if (++p == n) p = 0;
      }
    };
  } else if (batch > 1 && row == "pinned_view") {
    auto pinned = std::make_shared<pinget::PinnedBatch>();
    auto slice = std::make_shared<std::vector<std::string_view>>(batch);
    s.run = [=](size_t start, size_t ops) {
      size_t p = start;
      for (size_t i = 0; i < ops; i += batch) {
        for (size_t k = 0; k < batch; ++k) {
          (*slice)[k] = keys->ordered[p];
          if (++p == n) p = 0;
        }
        Check(store->MultiGetPinned({}, batch, slice->data(), pinned.get()));
        for (size_t k = 0; k < batch; ++k) {
          benchmark::DoNotOptimize(pinned->view(k).data());
        }
      }
    };
  } else if (batch > 1 && row == "native_pinned") {
    auto values = std::make_shared<std::vector<rocksdb::PinnableSlice>>(batch);
    auto slice = std::make_shared<std::vector<rocksdb::Slice>>(batch);
    auto statuses = std::make_shared<std::vector<rocksdb::Status>>(batch);
    s.run = [=](size_t start, size_t ops) {
      rocksdb::ColumnFamilyHandle* cf = db->DefaultColumnFamily();
      const rocksdb::ReadOptions ro;
      size_t p = start;
      for (size_t i = 0; i < ops; i += batch) {
        for (size_t k = 0; k < batch; ++k) {
          (*values)[k].Reset();
          (*slice)[k] =
              rocksdb::Slice(keys->ordered[p].data(), keys->ordered[p].size());
          if (++p == n) p = 0;
        }
        db->MultiGet(ro, cf, batch, slice->data(), values->data(),
                     statuses->data());
        for (size_t k = 0; k < batch; ++k) {
          benchmark::DoNotOptimize((*values)[k].data());
        }
      }
    };
  } else {
    throw std::invalid_argument("unknown row " + row + " (batch " +
                                std::to_string(batch) + ")");
  }
  return s;
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
