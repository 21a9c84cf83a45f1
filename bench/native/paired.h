// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Paired, interleaved measurement of two sides in one process, as the Java
// harness does it (bench/common, io.pinget.bench.paired): after a warm-up of
// both sides, pairs of rounds, each pair one round of each side back to back,
// in an order drawn per pair, both starting at the same key drawn per pair. A
// round is a fixed number of operations per side, calibrated in the warm-up
// to last about the configured round time. Each round's time per operation is
// recorded (wall clock, and this thread's CPU time); bench/tools computes the
// median of the per-pair ratios and its interval.

#ifndef PINGET_BENCH_NATIVE_PAIRED_H_
#define PINGET_BENCH_NATIVE_PAIRED_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pinget_bench {

// One side of a comparison. Give each side a loop of its own (its own lambda),
// never a call into a loop both sides share.
struct Side {
  std::string row;   // the row it measures (summary.json's strategy name)
  size_t batch = 1;  // keys per batch; its operations are keys
  size_t unit = 1;   // operations per call of its unit of work
  // Runs ops operations (a multiple of unit), the first on the key at
  // position start of the visiting order, then the next ones, wrapping.
  std::function<void(size_t start, size_t ops)> run;
};

struct PairedConfig {
  size_t pairs = 100;
  std::chrono::nanoseconds round = std::chrono::milliseconds(10);
  std::chrono::nanoseconds warmup = std::chrono::milliseconds(500);
  uint64_t seed = 42;
};

struct PairedResult {
  size_t ops_a = 0;  // operations per round, fixed after the warm-up
  size_t ops_b = 0;
  std::vector<double> ns_a, ns_b;    // wall-clock ns per operation, per pair
  std::vector<double> cpu_a, cpu_b;  // this thread's CPU ns per operation
  std::vector<bool> a_first;         // whether a ran first in each pair
  double warmup_ms = 0;
};

// Warms a and b up for config.warmup, interleaved, then measures
// config.pairs pairs. positions: start keys are drawn from [0, positions).
PairedResult MeasurePaired(const Side& a, const Side& b, size_t positions,
                           const PairedConfig& config);

// One comparison as a JSON object, in the Java harness's format.
std::string PairedJson(const Side& a, const Side& b, const std::string& size,
                       size_t value_size, size_t keys,
                       const PairedConfig& config, const PairedResult& r);

}  // namespace pinget_bench

#endif  // PINGET_BENCH_NATIVE_PAIRED_H_
