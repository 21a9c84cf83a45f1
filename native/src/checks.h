// Copyright pinget authors. Licensed under the Apache License 2.0.
// Internal: the argument checks every Store method makes, each in one place.
// Each returns OK or an InvalidArgument that names the argument and, for a
// number, the range allowed.

#ifndef PINGET_SRC_CHECKS_H_
#define PINGET_SRC_CHECKS_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "pinget/options.h"
#include "pinget/status.h"

namespace pinget {
namespace internal {

// The bounds RocksDB can honour (below or above them it clips silently, or
// fails late).
constexpr size_t kMinWriteBufferBytes = size_t{64} << 10;  // RocksDB's clip
constexpr size_t kMaxWriteBufferBytes = size_t{64} << 30;  // RocksDB's clip
constexpr size_t kMaxBlockSize = (size_t{1} << 32) - 1;    // a block's offset
constexpr size_t kMaxBlockCacheBytes = size_t{1} << 50;    // 1 PiB
constexpr double kMinBloomBitsPerKey = 1;                  // RocksDB's clips
constexpr double kMaxBloomBitsPerKey = 100;                // RocksDB's clips
constexpr int kMinMaxOpenFiles = 20;                       // RocksDB's clip

// A key: non-empty, backed by memory. KeyOk is the rule, for a call's hot
// path; CheckKey names what failed.
inline bool KeyOk(std::string_view key) {
  return !key.empty() && key.data() != nullptr;
}
Status CheckKey(std::string_view key);
// keys[0, count): the first bad one, by index. REQUIRES: keys non-null or
// count 0.
Status CheckKeys(size_t count, const std::string_view* keys);
// A caller's buffer: null only with capacity 0 (a size query).
inline bool BufferOk(const char* data, size_t capacity) {
  return data != nullptr || capacity == 0;
}
Status CheckBuffer(const char* data, size_t capacity, const char* what);
// An array of count elements: null only when count is 0.
template <typename T>
Status CheckArray(size_t count, const T* array, const char* what) {
  return count == 0 || array != nullptr
             ? Status::OK()
             : Status::InvalidArgument(std::string(what) + " is null");
}

// An out-parameter or callback (a pointer of any kind).
template <typename Pointer>
Status CheckNotNull(Pointer p, const char* what) {
  return p != nullptr ? Status::OK()
                      : Status::InvalidArgument(std::string(what) + " is null");
}

Status CheckOptions(const std::string& path, const Options& options);
Status CheckWriteOptions(const WriteOptions& options);

}  // namespace internal
}  // namespace pinget

#endif  // PINGET_SRC_CHECKS_H_
