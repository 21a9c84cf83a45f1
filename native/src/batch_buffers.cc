// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "pinget/binding/batch_buffers.h"

#include "scratch.h"

namespace pinget {

BatchBuffers::Lease::Lease() : buffers_(internal::ThisThreads<BatchBuffers>()) {
  if (buffers_ == nullptr) {
    owned_ = std::make_unique<BatchBuffers>();
    buffers_ = owned_.get();
  }
}

BatchBuffers::Lease::~Lease() = default;

void BatchBuffers::Reset() {
  in_place_ = false;
  bytes_.clear();
  ends_.clear();
  views_.clear();
  buffers_.clear();
  internal::Trim(&bytes_);
  internal::Trim(&ends_);
  internal::Trim(&views_);
  internal::Trim(&buffers_);
  internal::Trim(&value_sizes_);
  internal::Trim(&statuses_);
}

char* BatchBuffers::AddKey(size_t size) {
  bytes_.resize(bytes_.size() + size);
  ends_.push_back(bytes_.size());
  return bytes_.data() + bytes_.size() - size;
}

std::string_view* BatchBuffers::KeysInPlace(size_t count) {
  in_place_ = true;
  views_.resize(count);
  return views_.data();
}

void BatchBuffers::AddBuffer(char* data, size_t capacity) {
  buffers_.push_back(Buffer{data, capacity});
}

const std::string_view* BatchBuffers::keys() {
  if (in_place_) return views_.data();
  views_.resize(ends_.size());
  size_t begin = 0;
  for (size_t i = 0; i < ends_.size(); ++i) {
    views_[i] = std::string_view(bytes_.data() + begin, ends_[i] - begin);
    begin = ends_[i];
  }
  return views_.data();
}

void BatchBuffers::ResetResults() {
  value_sizes_.assign(size(), 0);
  statuses_.assign(size(), Status::NotFound());
}

}  // namespace pinget
