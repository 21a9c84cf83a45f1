// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "pinget/write_batch.h"

namespace pinget {
namespace {
bool IsNull(std::string_view s) { return s.data() == nullptr && !s.empty(); }
}  // namespace

void WriteBatch::Put(uint32_t column_family, std::string_view key,
                     std::string_view value) {
  Op op{true,          IsNull(key) || IsNull(value),
        column_family, bytes_.size(),
        key.size(),    0,
        value.size()};
  if (op.null_data) {
    ops_.push_back(op);
    return;
  }
  bytes_.append(key.data(), key.size());
  op.value_offset = bytes_.size();
  bytes_.append(value.data(), value.size());
  ops_.push_back(op);
}

void WriteBatch::Delete(uint32_t column_family, std::string_view key) {
  Op op{false, IsNull(key), column_family, bytes_.size(), key.size(), 0, 0};
  ops_.push_back(op);
  if (!op.null_data) bytes_.append(key.data(), key.size());
}

void WriteBatch::Clear() {
  ops_.clear();
  bytes_.clear();
}

}  // namespace pinget
