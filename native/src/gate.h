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

struct ThreadSlots;  // gate.cc

// Lets calls into a Store run concurrently with no shared write on the hot
// path, and lets Close() wait until none is in flight.
//
// Where the kernel offers a process-wide memory barrier (Linux membarrier),
// a call is counted in a slot of its own thread's (plain stores, no locked
// instruction) and Close pays for the ordering: it marks the gate closed,
// makes every running thread of the process execute a full barrier, then
// waits until no thread's slot holds the gate. So either a call sees closed_
// and backs out, or Close sees the call's slot and waits for it. Elsewhere,
// past four nested calls on one thread, or in a thread's exit once its slots
// are gone, a call is counted in one of kStripes cache-line-sized counters
// with sequentially consistent operations, which give the same either-or.
class Gate {
 public:
  // Where Enter counted a call, for Exit.
  struct Ticket {
    ThreadSlots* slots = nullptr;  // the thread's slots, or null: a stripe
    size_t index = 0;              // the slot's or the stripe's
  };

  // Whether calls count in their thread's slots in this process (else in the
  // stripes, always): the same for the process's life.
  static bool UsesThreadSlots();

  // Returns false (and counts nothing) once closed.
  bool Enter(Ticket* ticket);
  void Exit(const Ticket& ticket);
  // Marks the gate closed and waits for every entered call to exit. Returns
  // false if it was already closed.
  bool CloseAndDrain();
  bool closed() const { return closed_.load(std::memory_order_acquire); }

  // Held by Store::Close for the whole close, so that a second Close returns
  // only once the first has let go of the database.
  std::mutex closing;

 private:
  int64_t InFlight() const;

  static constexpr size_t kStripes = 16;
  struct alignas(64) Stripe {
    std::atomic<int64_t> calls{0};
  };
  Stripe stripes_[kStripes];
  std::atomic<bool> closed_{false};
};

// RAII entry into a Gate. Guards on one thread nest: the last entered exits
// first.
class GateGuard {
 public:
  explicit GateGuard(Gate& gate)
      : gate_(gate), entered_(gate.Enter(&ticket_)) {}
  ~GateGuard() {
    if (entered_) gate_.Exit(ticket_);
  }
  GateGuard(const GateGuard&) = delete;
  GateGuard& operator=(const GateGuard&) = delete;
  bool entered() const { return entered_; }

 private:
  Gate& gate_;
  Gate::Ticket ticket_;
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
