// Copyright pinget authors. Licensed under the Apache License 2.0.

#ifndef PINGET_WRITE_BATCH_H_
#define PINGET_WRITE_BATCH_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pinget/export.h"

namespace pinget {

// Puts and deletes applied atomically by Store::Write. Copies the keys and
// values it is given. Arguments are checked by Store::Write, which applies
// nothing if any operation is invalid. Not thread-safe.
class PINGET_EXPORT WriteBatch {
 public:
  void Put(uint32_t column_family, std::string_view key,
           std::string_view value);
  void Put(std::string_view key, std::string_view value) { Put(0, key, value); }
  void Delete(uint32_t column_family, std::string_view key);
  void Delete(std::string_view key) { Delete(0, key); }
  void Clear();
  size_t Count() const { return ops_.size(); }

 private:
  friend class Store;
  struct Op {
    bool is_put;
    bool null_data;  // a null pointer with a non-zero size was given
    uint32_t column_family;
    size_t key_offset, key_size, value_offset, value_size;
  };
  std::vector<Op> ops_;
  std::string bytes_;
};

}  // namespace pinget

#endif  // PINGET_WRITE_BATCH_H_
