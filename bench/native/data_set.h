// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The native benchmarks' data sets, shared by the Google Benchmark suite
// (get_bench.cc) and the paired harness (paired_main.cc): keys "key" + 12
// digits (or --pinget_key_bytes digits), random values, a fixed shuffled
// visiting order, loaded through pinget (a Store) or as the same RocksDB
// setup without pinget (an Engine, for native_pinned).

#ifndef PINGET_BENCH_NATIVE_DATA_SET_H_
#define PINGET_BENCH_NATIVE_DATA_SET_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "engine.h"
#include "pinget/pinget.h"

namespace pinget_bench {

// 15: "key" and 12 digits; other lengths (--pinget_key_bytes) are digits alone.
constexpr size_t kDefaultKeyBytes = 15;
extern size_t g_key_bytes;
// Where data sets are written (--pinget_dir); rebuilt on every run.
extern std::string g_dir;

constexpr size_t kMaxDataBytes = size_t{4} << 30;  // one data set < 4 GiB
// The file residency's cache is 1/16 of the data: 100,000 values of 64 KiB.
constexpr size_t kMaxFileDataBytes = size_t{8} << 30;

enum class Residency { kBlockCache, kMemtable, kFile };

const char* ResidencyName(Residency r);

struct Config {
  size_t value_size;
  size_t keys;
  Residency residency;
  size_t batch;

  bool memtable() const { return residency == Residency::kMemtable; }
  // <strategy>/size:<bytes>/keys:<n>/residency:<r>/batch:<b>[/key_bytes:<k>]
  std::string Name(const char* strategy) const;
};

std::string Key(size_t i);
std::string Value(size_t i, size_t size);

// A data set for one config, opened either through pinget (store) or as the
// same RocksDB setup without pinget (engine). Each opens its own copy: the two
// cannot share a directory.
struct DataSet {
  Config config;
  std::unique_ptr<pinget::Store> store;
  std::shared_ptr<pinget::internal::Engine> engine;
  std::vector<std::string> keys;
  std::vector<size_t> order;  // a fixed random visiting order
};

// The data set of config c (raw: the engine without pinget), loaded and warmed
// on first use. Keeps only c's data (both kinds) in memory: asking for another
// config closes the others. nullptr and *error on failure.
DataSet* GetDataSet(const Config& c, bool raw, std::string* error);

// Closes every data set and deletes g_dir. RocksDB must not be closed during
// static destruction: call this before main returns.
void CloseDataSets();

}  // namespace pinget_bench

#endif  // PINGET_BENCH_NATIVE_DATA_SET_H_
