// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "pinget/pinned_value.h"

#include <utility>

#include "engine.h"
#include "memtable_probe.h"

namespace pinget {

PinnedValue::PinnedValue() = default;

// The pin before the probe's iterator (which may hold the memtable the pin
// shows), both before the engine.
PinnedValue::~PinnedValue() {
  slice_.Reset();
  probe_.reset();
}

// PinnableSlice's move constructor leaves its buffer pointer unset when the
// source is pinned; move-assigning into a constructed slice does not.
PinnedValue::PinnedValue(PinnedValue&& other) noexcept
    : engine_(std::move(other.engine_)),
      probe_(std::move(other.probe_)),
      held_(other.held_) {
  slice_ = std::move(other.slice_);
  other.held_ = false;
}

PinnedValue& PinnedValue::operator=(PinnedValue&& other) noexcept {
  if (this != &other) {
    Release();  // before engine_ may go
    engine_ = std::move(other.engine_);
    probe_ = std::move(other.probe_);
    slice_ = std::move(other.slice_);
    held_ = other.held_;
    other.held_ = false;
  }
  return *this;
}

void PinnedValue::Unpin() {
  slice_.Reset();
  held_ = false;
  // The owner of a borrowed database may close it once no pin is held, with
  // this handle idle: the probe's iterator lives no longer than the pin.
  if (probe_ != nullptr && engine_ != nullptr && !engine_->owned)
    probe_.reset();
}

void PinnedValue::Release() {
  Unpin();
  probe_.reset();  // lets go of the memtables it held
  if (engine_ && engine_->store_closed.load(std::memory_order_acquire)) {
    engine_.reset();  // may close the database
  }
}

const Status& PinnedBatch::status(size_t i) const {
  static const Status kNotRead = Status::NotFound();
  return i < size_ ? statuses_[i] : kNotRead;
}

std::string_view PinnedBatch::view(size_t i) const {
  if (!status(i).ok()) return {};
  return {slices_[i].data(), slices_[i].size()};
}

bool PinnedBatch::pinned_in_cache(size_t i) const {
  return status(i).ok() && slices_[i].IsPinned();
}

void PinnedBatch::Release() {
  for (size_t i = 0; i < size_; ++i) slices_[i].Reset();
  size_ = 0;
  if (engine_ && engine_->store_closed.load(std::memory_order_acquire)) {
    engine_.reset();  // may close the database
  }
}

}  // namespace pinget
