// Copyright pinget authors. Licensed under the Apache License 2.0.
// Internal: the gate every Store call passes, and what a call gets once the
// store is closed.

#ifndef PINGET_SRC_GATE_H_
#define PINGET_SRC_GATE_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <mutex>

#include "pinget/status.h"

namespace pinget {
namespace internal {

// Lets calls into a Store run concurrently with no shared write on the hot
// path, and lets Close() wait until none is in flight. Each thread counts its
// calls in one of kStripes cache-line-sized counters. Enter and Close use
// sequentially consistent operations, so either a call sees closed_ and backs
// out, or Close sees the call's count and waits for it.
class Gate {
 public:
  // Returns false (and counts nothing) once closed.
  bool Enter(size_t* stripe);
  void Exit(size_t stripe);
  // Marks the gate closed and waits for every entered call to exit. Returns
  // false if it was already closed.
  bool CloseAndDrain();
  bool closed() const { return closed_.load(std::memory_order_acquire); }

  // Held by Store::Close for the whole close, so that a second Close returns
  // only once the first has let go of the database.
  std::mutex closing;

 private:
  static constexpr size_t kStripes = 16;
  struct alignas(64) Stripe {
    std::atomic<int64_t> calls{0};
  };
  Stripe stripes_[kStripes];
  std::atomic<bool> closed_{false};
};

// RAII entry into a Gate.
class GateGuard {
 public:
  explicit GateGuard(Gate& gate)
      : gate_(gate), entered_(gate.Enter(&stripe_)) {}
  ~GateGuard() {
    if (entered_) gate_.Exit(stripe_);
  }
  GateGuard(const GateGuard&) = delete;
  GateGuard& operator=(const GateGuard&) = delete;
  bool entered() const { return entered_; }

 private:
  Gate& gate_;
  size_t stripe_ = 0;
  bool entered_;
};

// What every Store method returns once the store is closed.
inline Status ClosedStatus() { return Status::Closed("store is closed"); }

// The contract's order for every Store call (store.h): a closed store first,
// then the first failed argument check, in the order given.
inline Status Admit(const GateGuard& guard,
                    std::initializer_list<Status> checks) {
  if (!guard.entered()) return ClosedStatus();
  for (const Status& s : checks) {
    if (!s.ok()) return s;
  }
  return Status::OK();
}

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_SRC_GATE_H_
