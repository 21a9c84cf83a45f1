// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "checks.h"

#include <rocksdb/db.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace pinget {
namespace internal {
namespace {

Status OutOfRange(const char* option, size_t value, size_t min, size_t max) {
  return Status::InvalidArgument(
      std::string(option) + " is " + std::to_string(value) +
      "; allowed: " + std::to_string(min) + " to " + std::to_string(max));
}

// A double as a reader would write it: 0.5, 10, -1, nan, inf.
std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

}  // namespace

Status CheckKey(std::string_view key) {
  if (KeyOk(key)) return Status::OK();
  return Status::InvalidArgument(key.empty() ? "key is empty" : "key is null");
}

Status CheckKeys(size_t count, const std::string_view* keys) {
  if (count > 0 && keys == nullptr) {
    return Status::InvalidArgument("keys is null");
  }
  for (size_t i = 0; i < count; ++i) {
    if (keys[i].empty()) {
      return Status::InvalidArgument("keys[" + std::to_string(i) +
                                     "] is empty");
    }
    if (keys[i].data() == nullptr) {
      return Status::InvalidArgument("keys[" + std::to_string(i) + "] is null");
    }
  }
  return Status::OK();
}

Status CheckBuffer(const char* data, size_t capacity, const char* what) {
  if (!BufferOk(data, capacity)) {
    return Status::InvalidArgument(std::string(what) +
                                   " is null but its capacity is not 0");
  }
  return Status::OK();
}

Status CheckOptions(const std::string& path, const Options& options) {
  if (path.empty()) return Status::InvalidArgument("path is empty");
  if (path.find('\0') != std::string::npos) {
    return Status::InvalidArgument("path holds a zero byte");
  }
  if (options.block_cache_bytes > kMaxBlockCacheBytes) {
    return OutOfRange("block_cache_bytes", options.block_cache_bytes, 0,
                      kMaxBlockCacheBytes);
  }
  switch (options.block_cache_kind) {
    case BlockCacheKind::kLru:
      break;
    case BlockCacheKind::kHyperClock:
      if (options.block_cache_bytes == 0) {
        return Status::InvalidArgument(
            "block_cache_kind kHyperClock needs a block cache, but "
            "block_cache_bytes is 0");
      }
      break;
    default:
      return Status::InvalidArgument(
          "block_cache_kind " +
          std::to_string(static_cast<int>(options.block_cache_kind)) +
          " is not a pinget::BlockCacheKind");
  }
  if (options.cache_index_and_filter_blocks && options.block_cache_bytes == 0) {
    return Status::InvalidArgument(
        "cache_index_and_filter_blocks needs a block cache, but "
        "block_cache_bytes is 0");
  }
  if (options.pin_l0_filter_and_index_blocks_in_cache &&
      !options.cache_index_and_filter_blocks) {
    return Status::InvalidArgument(
        "pin_l0_filter_and_index_blocks_in_cache requires "
        "cache_index_and_filter_blocks");
  }
  if (options.allow_mmap_reads && options.use_direct_reads) {
    return Status::InvalidArgument(
        "allow_mmap_reads and use_direct_reads exclude each other");
  }
  if (options.block_size == 0 || options.block_size > kMaxBlockSize) {
    return OutOfRange("block_size", options.block_size, 1, kMaxBlockSize);
  }
  const double bits = options.bloom_bits_per_key;
  if (bits != 0 &&
      !(bits >= kMinBloomBitsPerKey && bits <= kMaxBloomBitsPerKey)) {
    return Status::InvalidArgument("bloom_bits_per_key is " + Number(bits) +
                                   "; allowed: 0 (no filter) or " +
                                   Number(kMinBloomBitsPerKey) + " to " +
                                   Number(kMaxBloomBitsPerKey));
  }
  if (bits != 0 && !options.whole_key_filtering) {
    return Status::InvalidArgument(
        "whole_key_filtering false would leave the Bloom filter of "
        "bloom_bits_per_key empty: pinget sets no prefix extractor");
  }
  if (options.write_buffer_bytes < kMinWriteBufferBytes ||
      options.write_buffer_bytes > kMaxWriteBufferBytes) {
    return OutOfRange("write_buffer_bytes", options.write_buffer_bytes,
                      kMinWriteBufferBytes, kMaxWriteBufferBytes);
  }
  if (options.max_open_files != -1 &&
      options.max_open_files < kMinMaxOpenFiles) {
    return Status::InvalidArgument(
        "max_open_files is " + std::to_string(options.max_open_files) +
        "; allowed: -1 (every file open) or " +
        std::to_string(kMinMaxOpenFiles) + " and more");
  }
  switch (options.compression) {
    case Compression::kNone:
    case Compression::kSnappy:
    case Compression::kLz4:
    case Compression::kZstd:
    case Compression::kZlib:
    case Compression::kBzip2:
      break;
    default:
      return Status::InvalidArgument(
          "compression " +
          std::to_string(static_cast<int>(options.compression)) +
          " is not a pinget::Compression");
  }
  std::vector<std::string> names = options.column_families;
  std::sort(names.begin(), names.end());
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) {
      return Status::InvalidArgument("column family name is empty");
    }
    if (names[i] == rocksdb::kDefaultColumnFamilyName) {
      return Status::InvalidArgument("\"default\" is always open; omit it");
    }
    if (i > 0 && names[i] == names[i - 1]) {
      return Status::InvalidArgument("column family named twice: " + names[i]);
    }
  }
  return Status::OK();
}

Status CheckWriteOptions(const WriteOptions& options) {
  if (options.sync && options.disable_wal) {
    return Status::InvalidArgument(
        "sync and disable_wal together: a sync write needs the WAL");
  }
  return Status::OK();
}

}  // namespace internal
}  // namespace pinget
