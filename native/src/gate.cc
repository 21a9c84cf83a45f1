// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "gate.h"

#include <chrono>
#include <thread>

namespace pinget {
namespace internal {
namespace {
// Threads take stripes round-robin on their first call into any store.
size_t ThisThreadStripe(size_t stripes) {
  static std::atomic<size_t> next{0};
  thread_local size_t stripe =
      next.fetch_add(1, std::memory_order_relaxed) % stripes;
  return stripe;
}
}  // namespace

bool Gate::Enter(size_t* stripe) {
  const size_t s = ThisThreadStripe(kStripes);
  stripes_[s].calls.fetch_add(1, std::memory_order_seq_cst);
  if (closed_.load(std::memory_order_seq_cst)) {
    stripes_[s].calls.fetch_sub(1, std::memory_order_release);
    return false;
  }
  *stripe = s;
  return true;
}

void Gate::Exit(size_t stripe) {
  stripes_[stripe].calls.fetch_sub(1, std::memory_order_release);
}

bool Gate::CloseAndDrain() {
  const bool was_closed = closed_.exchange(true, std::memory_order_seq_cst);
  for (;;) {
    int64_t in_flight = 0;
    for (const Stripe& s : stripes_) {
      in_flight += s.calls.load(std::memory_order_seq_cst);
    }
    if (in_flight == 0) break;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return !was_closed;
}

}  // namespace internal
}  // namespace pinget
