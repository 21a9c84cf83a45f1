// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "controls.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace pinget_bench {
namespace {

// Keeps the first code other than OK and NotFound; frees *message either way.
// message is read here, after the call that set it (an argument evaluated
// beside that call could be read before it).
void Keep(pinget_code code, char** message, LoopStatus* first) {
  if (first->code == PINGET_OK && code != PINGET_OK &&
      code != PINGET_NOT_FOUND) {
    first->code = code;
    first->message = *message != nullptr ? *message : "";
  }
  pinget_free(*message);
  *message = nullptr;
}

}  // namespace

KeyLoop::KeyLoop(std::vector<std::string> keys) : keys_(std::move(keys)) {
  for (const std::string& k : keys_) {
    data_.push_back(k.data());
    sizes_.push_back(k.size());
  }
  value_sizes_.resize(keys_.size());
}

KeyLoop::~KeyLoop() {
  pinget_pinned_destroy(pinned_);
  pinget_pinned_batch_destroy(batch_);
}

LoopStatus KeyLoop::PinnedGets(pinget_store* store, size_t from, size_t count,
                               uint64_t* bytes) {
  return PinnedGets(store, from, count, bytes, nullptr, nullptr);
}

LoopStatus KeyLoop::PinnedGets(pinget_store* store, size_t from, size_t count,
                               uint64_t* bytes, ValueVisitor visit,
                               void* context) {
  LoopStatus first;
  char* message = nullptr;
  if (pinned_ == nullptr) {
    Keep(pinget_pinned_create(&pinned_, &message), &message, &first);
    if (first.code != PINGET_OK) return first;
  }
  for (size_t i = from; i < from + count; ++i) {
    const char* value = nullptr;
    size_t size = 0;
    const pinget_code code = pinget_pinned_view(
        store, nullptr, data_[i], sizes_[i], pinned_, &value, &size, &message);
    *bytes += size;  // 0 unless found
    if (code == PINGET_OK && visit != nullptr) {
      visit(context, i - from, value, size);
    }
    Keep(code, &message, &first);
  }
  return first;
}

LoopStatus KeyLoop::PinnedBatches(pinget_store* store, size_t from,
                                  size_t count, size_t batch, uint64_t* bytes) {
  LoopStatus first;
  char* message = nullptr;
  if (batch_ == nullptr) {
    Keep(pinget_pinned_batch_create(&batch_, &message), &message, &first);
    if (first.code != PINGET_OK) return first;
  }
  for (size_t i = from; i < from + count; i += batch) {
    const size_t n = std::min(batch, from + count - i);
    const pinget_code code = pinget_multi_pinned_view(
        store, nullptr, n, data_.data() + i, sizes_.data() + i, batch_, nullptr,
        value_sizes_.data(), nullptr, &message);
    for (size_t j = 0; j < n; ++j) *bytes += value_sizes_[j];
    Keep(code, &message, &first);
  }
  return first;
}

CursorLoop::CursorLoop(pinget_store* store, size_t max_batch)
    : keys_(max_batch),
      key_sizes_(max_batch),
      values_(max_batch),
      value_sizes_(max_batch) {
  char* message = nullptr;
  pinget_code code = pinget_cursor_create(store, nullptr, nullptr, 0, nullptr,
                                          0, nullptr, 0, &cursor_, &message);
  if (code == PINGET_OK) {
    code = pinget_cursor_seek_to_first(cursor_, &message);
  }
  Keep(code, &message, &made_);
}

CursorLoop::~CursorLoop() { pinget_cursor_destroy(cursor_); }

LoopStatus CursorLoop::Next(size_t max, size_t* count, uint64_t* bytes) {
  LoopStatus st;
  char* message = nullptr;
  Keep(pinget_cursor_next(cursor_, max, keys_.data(), key_sizes_.data(),
                          values_.data(), value_sizes_.data(), count, &message),
       &message, &st);
  uint8_t last = 0;
  for (size_t i = 0; i < *count; ++i) {
    const size_t k = key_sizes_[i], v = value_sizes_[i];
    *bytes += k + v;
    if (k > 0) last ^= static_cast<uint8_t>(keys_[i][k - 1]);
    if (v > 0) last ^= static_cast<uint8_t>(values_[i][v - 1]);
  }
  last_bytes_ ^= last;
  return st;
}

LoopStatus CursorLoop::Scan(size_t batch, size_t total, uint64_t* bytes,
                            uint64_t* entries) {
  if (made_.code != PINGET_OK) return made_;
  size_t lent = 0;
  bool restarted = false;
  while (lent < total) {
    size_t n = 0;
    LoopStatus st = Next(std::min(batch, total - lent), &n, bytes);
    if (st.code != PINGET_OK) return st;
    if (n == 0) {
      if (restarted) return st;  // an empty range
      char* message = nullptr;
      Keep(pinget_cursor_seek_to_first(cursor_, &message), &message, &st);
      if (st.code != PINGET_OK) return st;
      restarted = true;
      continue;
    }
    restarted = false;
    lent += n;
    *entries += n;
  }
  return LoopStatus();
}

LoopStatus CursorLoop::Seek(const char* key, size_t key_size, size_t count,
                            uint64_t* bytes, uint64_t* entries) {
  if (made_.code != PINGET_OK) return made_;
  LoopStatus st;
  char* message = nullptr;
  Keep(pinget_cursor_seek(cursor_, key, key_size, &message), &message, &st);
  if (st.code != PINGET_OK) return st;
  size_t n = 0;
  st = Next(count, &n, bytes);
  *entries += n;
  return st;
}

}  // namespace pinget_bench
