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

namespace {

void Add(const Cursor& cursor, uint64_t* bytes, uint64_t* entries) {
  for (size_t i = 0; i < cursor.count(); ++i) {
    *bytes += cursor.key(i).size() + cursor.value(i).size();
  }
  *entries += cursor.count();
}

}  // namespace

Status CursorScanLoop(Cursor* cursor, size_t batch, size_t total,
                      uint64_t* bytes, uint64_t* entries) {
  if (batch == 0) return Status::InvalidArgument("batch is 0");
  size_t lent = 0;
  bool restarted = false;
  while (lent < total) {
    Status st = cursor->Next(std::min(batch, total - lent));
    if (!st.ok()) return st;
    if (cursor->count() == 0) {
      if (restarted) return Status::OK();  // an empty range
      st = cursor->SeekToFirst();
      if (!st.ok()) return st;
      restarted = true;
      continue;
    }
    restarted = false;
    lent += cursor->count();
    Add(*cursor, bytes, entries);
  }
  return Status::OK();
}

Status CursorSeekLoop(Cursor* cursor, std::string_view key, size_t count,
                      uint64_t* bytes, uint64_t* entries) {
  Status st = cursor->Seek(key);
  if (st.ok()) st = cursor->Next(count);
  if (st.ok()) Add(*cursor, bytes, entries);
  return st;
}

}  // namespace pinget
