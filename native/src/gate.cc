// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "gate.h"

#include <chrono>
#include <thread>

#include "scratch.h"

#if defined(__linux__)
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
#if !defined(__NR_membarrier) && defined(__x86_64__)
#define __NR_membarrier 324  // older sysroots' headers (glibc 2.17) lack it
#elif !defined(__NR_membarrier) && defined(__aarch64__)
#define __NR_membarrier 283
#endif
#endif

namespace pinget {
namespace internal {

// One thread's gate slots: held[i] is the gate of its i-th nested call in
// flight, or null. Only the thread writes them; Close reads them under the
// registry's mutex. Registered on the thread's first call, unregistered when
// it exits (no call can be in flight then).
struct ThreadSlots {
  static constexpr size_t kSlots = 4;

  ThreadSlots();
  ~ThreadSlots();

  std::atomic<const Gate*> held[kSlots] = {};
  size_t depth = 0;  // slots in use, [0, depth)
  ThreadSlots* prev = nullptr;
  ThreadSlots* next = nullptr;
};

namespace {

// This thread's registered slots: null before its first call and once they
// are destroyed.
thread_local ThreadSlots* live_slots = nullptr;

// Every thread's slots. Never destroyed: threads may exit after static
// destructors have run.
struct Registry {
  std::mutex mu;
  ThreadSlots* head = nullptr;
};
Registry& Threads() {
  static Registry* registry = new Registry;
  return *registry;
}

#if defined(__linux__) && defined(__NR_membarrier)
constexpr long kPrivateExpedited = 1 << 3;
constexpr long kRegisterPrivateExpedited = 1 << 4;

bool HeavyBarrier() {
  return syscall(__NR_membarrier, kPrivateExpedited, 0L) == 0;
}

// A child of fork() has one thread: the registry drops the others' slots
// (whatever they held, those calls will never exit). Holding the mutex across
// the fork keeps it consistent.
void LockRegistry() { Threads().mu.lock(); }
void UnlockRegistry() { Threads().mu.unlock(); }
void KeepOnlyThisThread() {
  Registry& r = Threads();
  r.head = live_slots;
  if (live_slots != nullptr) live_slots->prev = live_slots->next = nullptr;
  r.mu.unlock();
}
#else
bool HeavyBarrier() { return false; }
#endif

// Whether calls count themselves in their thread's slots: decided once, on
// the first call, by registering for (and trying) the process-wide barrier.
// A kernel without it, or a sandbox that refuses it, keeps the stripes.
bool UseThreadSlots() {
  static const bool use = [] {
#if defined(__linux__) && defined(__NR_membarrier)
    if (syscall(__NR_membarrier, kRegisterPrivateExpedited, 0L) != 0 ||
        !HeavyBarrier()) {
      return false;
    }
    return pthread_atfork(&LockRegistry, &UnlockRegistry,
                          &KeepOnlyThisThread) == 0;
#else
    return false;
#endif
  }();
  return use;
}

// This thread's slots, made on its first call; null once destroyed (a call
// made later in the thread's exit counts in a stripe).
ThreadSlots* ThisThreadSlots() {
  return live_slots != nullptr ? live_slots : ThisThreads<ThreadSlots>();
}

// Threads take stripes round-robin on their first striped call.
size_t ThisThreadStripe(size_t stripes) {
  static std::atomic<size_t> next{0};
  thread_local size_t stripe =
      next.fetch_add(1, std::memory_order_relaxed) % stripes;
  return stripe;
}

}  // namespace

ThreadSlots::ThreadSlots() {
  Registry& r = Threads();
  std::lock_guard<std::mutex> lock(r.mu);
  next = r.head;
  if (next != nullptr) next->prev = this;
  r.head = this;
  live_slots = this;
}

ThreadSlots::~ThreadSlots() {
  Registry& r = Threads();
  std::lock_guard<std::mutex> lock(r.mu);
  if (prev != nullptr) prev->next = next;
  if (next != nullptr) next->prev = prev;
  if (r.head == this) r.head = next;
  live_slots = nullptr;
}

bool Gate::UsesThreadSlots() { return UseThreadSlots(); }

bool Gate::Enter(Ticket* ticket) {
  ThreadSlots* me = UseThreadSlots() ? ThisThreadSlots() : nullptr;
  if (me != nullptr && me->depth < ThreadSlots::kSlots) {
    const size_t i = me->depth;
    me->held[i].store(this, std::memory_order_relaxed);
    // The light half of the fence: orders the store before the load for the
    // compiler; Close's HeavyBarrier orders it for the CPU.
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (closed_.load(std::memory_order_relaxed)) {
      me->held[i].store(nullptr, std::memory_order_relaxed);
      return false;
    }
    me->depth = i + 1;
    *ticket = Ticket{me, i};
    return true;
  }
  const size_t s = ThisThreadStripe(kStripes);
  stripes_[s].calls.fetch_add(1, std::memory_order_seq_cst);
  if (closed_.load(std::memory_order_seq_cst)) {
    stripes_[s].calls.fetch_sub(1, std::memory_order_release);
    return false;
  }
  *ticket = Ticket{nullptr, s};
  return true;
}

void Gate::Exit(const Ticket& ticket) {
  if (ticket.slots != nullptr) {
    // Release: the call's reads of the database happen before Close, which
    // acquires this store, lets the database go.
    ticket.slots->held[ticket.index].store(nullptr, std::memory_order_release);
    ticket.slots->depth = ticket.index;
    return;
  }
  stripes_[ticket.index].calls.fetch_sub(1, std::memory_order_release);
}

int64_t Gate::InFlight() const {
  int64_t calls = 0;
  for (const Stripe& s : stripes_) {
    calls += s.calls.load(std::memory_order_seq_cst);
  }
  if (UseThreadSlots()) {
    Registry& r = Threads();
    std::lock_guard<std::mutex> lock(r.mu);
    for (const ThreadSlots* t = r.head; t != nullptr; t = t->next) {
      for (const std::atomic<const Gate*>& held : t->held) {
        if (held.load(std::memory_order_acquire) == this) ++calls;
      }
    }
  }
  return calls;
}

bool Gate::CloseAndDrain() {
  const bool was_closed = closed_.exchange(true, std::memory_order_seq_cst);
  // After the barrier, every slot store a call made before it read closed_
  // as false is visible here, and every later call reads closed_ as true.
  // Should the kernel refuse the barrier after granting it (a seccomp filter
  // installed since, or a transient ENOMEM), wait instead for such stores to
  // leave the CPUs' store buffers, which takes nanoseconds to microseconds
  // (a thread switched out has drained its own).
  if (UseThreadSlots() && !HeavyBarrier()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  while (InFlight() != 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return !was_closed;
}

}  // namespace internal
}  // namespace pinget
