// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "pinget/binding/controls.h"

#include <algorithm>

namespace pinget {
namespace {

// Keeps the first error other than NotFound.
void Keep(const Status& st, Status* first) {
  if (first->ok() && !st.ok() && !st.IsNotFound()) *first = st;
}

}  // namespace

Status PinnedGetLoop(Store& store, const ReadOptions& options, size_t count,
                     const std::string_view* keys, PinnedValue* value,
                     uint64_t* bytes) {
  Status first;
  for (size_t i = 0; i < count; ++i) {
    const Status st = store.GetPinned(options, keys[i], value);
    if (st.ok()) *bytes += value->size();
    Keep(st, &first);
  }
  return first;
}

Status PinnedBatchLoop(Store& store, const ReadOptions& options, size_t count,
                       const std::string_view* keys, size_t batch,
                       PinnedBatch* values, uint64_t* bytes) {
  if (batch == 0) return Status::InvalidArgument("batch is 0");
  Status first;
  for (size_t i = 0; i < count; i += batch) {
    const size_t n = std::min(batch, count - i);
    Keep(store.MultiGetPinned(options, n, keys + i, values), &first);
    for (size_t j = 0; j < n; ++j) *bytes += values->view(j).size();
  }
  return first;
}

}  // namespace pinget
