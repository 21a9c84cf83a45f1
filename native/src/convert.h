// Copyright pinget authors. Licensed under the Apache License 2.0.
// Internal: conversions between pinget's types and RocksDB's.

#ifndef PINGET_SRC_CONVERT_H_
#define PINGET_SRC_CONVERT_H_

#include <rocksdb/slice.h>
#include <rocksdb/status.h>

#include <string_view>

#include "pinget/status.h"

namespace pinget {
namespace internal {

// RocksDB's status as pinget's: the code mapped, and RocksDB's message
// without the code name RocksDB puts in front of it ("IO error: ..."), so
// that Status::ToString names the code once.
Status FromRocksDB(const rocksdb::Status& s);

inline rocksdb::Slice ToSlice(std::string_view s) {
  return rocksdb::Slice(s.data(), s.size());
}

inline std::string_view View(const rocksdb::Slice& s) {
  return {s.data(), s.size()};
}

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_SRC_CONVERT_H_
