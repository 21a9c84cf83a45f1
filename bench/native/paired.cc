// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "paired.h"

#include <time.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace pinget_bench {
namespace {

using Clock = std::chrono::steady_clock;

int64_t ThreadCpuNanos() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
}

struct Round {
  double ns;   // wall clock, whole round
  double cpu;  // thread CPU, whole round
};

Round Time(const Side& s, size_t start, size_t ops) {
  const int64_t c0 = ThreadCpuNanos();
  const Clock::time_point t0 = Clock::now();
  s.run(start, ops);
  const Clock::time_point t1 = Clock::now();
  const int64_t c1 = ThreadCpuNanos();
  return {static_cast<double>(
              std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0)
                  .count()),
          static_cast<double>(c1 - c0)};
}

size_t ToUnit(double ops, size_t unit) {
  const double units = std::max(1.0, ops / static_cast<double>(unit));
  return static_cast<size_t>(units) * unit;
}

// The next warm-up round's size: towards the target, at most 4 times the last.
size_t Resize(size_t ops, double ns, size_t unit, double target) {
  const double per_op = std::max(1.0, ns / static_cast<double>(ops));
  return ToUnit(std::min(4.0 * static_cast<double>(ops), target / per_op),
                unit);
}

void Append(std::ostringstream& os, const std::vector<double>& xs) {
  os << "[";
  char buf[32];
  for (size_t i = 0; i < xs.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%.3f", i ? ", " : "", xs[i]);
    os << buf;
  }
  os << "]";
}

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

PairedResult MeasurePaired(const Side& a, const Side& b, size_t positions,
                           const PairedConfig& config) {
  std::mt19937_64 random(config.seed);
  auto draw_start = [&] { return static_cast<size_t>(random() % positions); };
  const double target = static_cast<double>(config.round.count());

  // Warm-up: caches and the branch predictors; no JIT here, so a fixed time.
  // Calibration uses the median of the last rounds of each side.
  constexpr size_t kLast = 5;
  std::array<double, kLast> last_a{}, last_b{};
  size_t ops_a = a.unit, ops_b = b.unit, rounds = 0;
  const Clock::time_point begin = Clock::now();
  while (rounds < kLast || Clock::now() - begin < config.warmup) {
    const size_t start = draw_start();
    Round ra, rb;
    if (random() & 1) {
      ra = Time(a, start, ops_a);
      rb = Time(b, start, ops_b);
    } else {
      rb = Time(b, start, ops_b);
      ra = Time(a, start, ops_a);
    }
    last_a[rounds % kLast] = ra.ns / static_cast<double>(ops_a);
    last_b[rounds % kLast] = rb.ns / static_cast<double>(ops_b);
    ++rounds;
    ops_a = Resize(ops_a, ra.ns, a.unit, target);
    ops_b = Resize(ops_b, rb.ns, b.unit, target);
  }
  PairedResult r;
  r.warmup_ms =
      std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
  std::sort(last_a.begin(), last_a.end());
  std::sort(last_b.begin(), last_b.end());
  r.ops_a = ToUnit(target / std::max(1.0, last_a[kLast / 2]), a.unit);
  r.ops_b = ToUnit(target / std::max(1.0, last_b[kLast / 2]), b.unit);

  const double na = static_cast<double>(r.ops_a);
  const double nb = static_cast<double>(r.ops_b);
  for (size_t i = 0; i < config.pairs; ++i) {
    const size_t start = draw_start();
    const bool a_first = random() & 1;
    Round ra, rb;
    if (a_first) {
      ra = Time(a, start, r.ops_a);
      rb = Time(b, start, r.ops_b);
    } else {
      rb = Time(b, start, r.ops_b);
      ra = Time(a, start, r.ops_a);
    }
    r.ns_a.push_back(ra.ns / na);
    r.ns_b.push_back(rb.ns / nb);
    r.cpu_a.push_back(ra.cpu / na);
    r.cpu_b.push_back(rb.cpu / nb);
    r.a_first.push_back(a_first);
  }
  return r;
}

std::string PairedJson(const Side& a, const Side& b, const std::string& size,
                       size_t value_size, size_t keys,
                       const PairedConfig& config, const PairedResult& r) {
  std::ostringstream os;
  os << "{\"a\": " << Quote(a.row) << ", \"a_batch\": " << a.batch
     << ", \"b\": " << Quote(b.row) << ", \"b_batch\": " << b.batch
     << ", \"size\": " << Quote(size) << ", \"value_size\": " << value_size
     << ", \"keys\": " << keys << ", \"fork\": 0, \"seed\": " << config.seed
     << ", \"round_ms\": "
     << std::chrono::duration<double, std::milli>(config.round).count()
     << ", \"ops_a\": " << r.ops_a << ", \"ops_b\": " << r.ops_b
     << ", \"warmup_ms\": " << static_cast<int64_t>(r.warmup_ms)
     << ",\n  \"ns_a\": ";
  Append(os, r.ns_a);
  os << ",\n  \"ns_b\": ";
  Append(os, r.ns_b);
  os << ",\n  \"cpu_a\": ";
  Append(os, r.cpu_a);
  os << ",\n  \"cpu_b\": ";
  Append(os, r.cpu_b);
  os << ",\n  \"a_first\": [";
  for (size_t i = 0; i < r.a_first.size(); ++i) {
    os << (i ? ", " : "") << (r.a_first[i] ? "true" : "false");
  }
  os << "]}";
  return os.str();
}

}  // namespace pinget_bench
