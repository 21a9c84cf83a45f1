// Copyright pinget authors. Licensed under the Apache License 2.0.
// Internal: the rule every reused buffer keeps (per-thread scratch, batch
// storage): storage is kept between calls, up to kKeepBytes.

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

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_SRC_SCRATCH_H_
