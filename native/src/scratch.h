// Copyright pinget authors. Licensed under the Apache License 2.0.
// Internal: the rules every reused buffer keeps (per-thread scratch, batch
// storage): storage is kept between calls, up to kKeepBytes, and a thread's
// storage is never used after its thread_local destructor has run.

#ifndef PINGET_SRC_SCRATCH_H_
#define PINGET_SRC_SCRATCH_H_

#include <cstddef>
#include <string>
#include <vector>

namespace pinget {
namespace internal {

constexpr size_t kKeepBytes = size_t{1} << 20;

// Frees a string grown past kKeepBytes. A string that grew to hold exactly
// kKeepBytes may have a few bytes more capacity (libc++, the musl libraries'
// standard library, rounds it up to 16 bytes; libstdc++ does not); it is kept.
constexpr size_t kCapacityRounding = 64;
inline void Trim(std::string* s) {
  if (s->capacity() > kKeepBytes + kCapacityRounding) std::string().swap(*s);
}
template <typename T>
void Trim(std::vector<T>* v) {
  if (v->capacity() * sizeof(T) > kKeepBytes) std::vector<T>().swap(*v);
}

// This thread's T, constructed on its first use. Null in the thread's exit
// once that T has been destroyed: a call made then (from another
// thread_local's destructor, whose order C++ leaves open) must bring storage
// of its own (BatchBuffers::Lease, ScratchLease). T names the storage: one
// type, one instance per thread.
template <typename T>
T* ThisThreads() {
  // Trivially destructible, so readable to the thread's very end.
  static thread_local bool gone = false;
  struct Kept {
    ~Kept() { gone = true; }
    T value;
  };
  if (gone) return nullptr;
  thread_local Kept kept;
  return &kept.value;
}

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_SRC_SCRATCH_H_
