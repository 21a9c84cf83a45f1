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

// Frees a buffer grown past kKeepBytes.
inline void Trim(std::string* s) {
  if (s->capacity() > kKeepBytes) std::string().swap(*s);
}
template <typename T>
void Trim(std::vector<T>* v) {
  if (v->capacity() * sizeof(T) > kKeepBytes) std::vector<T>().swap(*v);
}

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_SRC_SCRATCH_H_
