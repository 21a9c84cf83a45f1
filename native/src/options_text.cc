// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The options as text: one table of fields, read by ParseOptions and written
// by FormatOptions. A new option is one row here (and its field, check and
// use in engine.cc); every binding passes options through this format.

#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <system_error>

#include "pinget/options.h"
#include "pinget/status.h"

namespace pinget {
namespace {

// Reads value into *out; false if value is not wholly of the kind.
bool Read(std::string_view value, bool* out) {
  if (value == "true") {
    *out = true;
  } else if (value == "false") {
    *out = false;
  } else {
    return false;
  }
  return true;
}

template <typename Integer>
bool ReadInteger(std::string_view value, Integer* out) {
  Integer n{};
  const char* end = value.data() + value.size();
  auto [at, error] = std::from_chars(value.data(), end, n);
  if (error != std::errc() || at != end || value.empty()) return false;
  *out = n;
  return true;
}
bool Read(std::string_view value, size_t* out) {
  return ReadInteger(value, out);
}
bool Read(std::string_view value, int* out) { return ReadInteger(value, out); }

// Not locale-dependent (from_chars), so that a JVM's locale cannot change
// what "0.5" means. Accepts nan and inf (CheckOptions refuses them by name).
bool Read(std::string_view value, double* out) {
  double d = 0;
  const char* end = value.data() + value.size();
  auto [at, error] = std::from_chars(value.data(), end, d);
  if (error != std::errc() || at != end || value.empty()) return false;
  *out = d;
  return true;
}

constexpr std::string_view kCacheKinds[] = {"lru", "hyper_clock"};
constexpr std::string_view kCompressions[] = {"none", "snappy", "lz4",
                                              "zstd", "zlib",   "bzip2"};

template <typename Enum, size_t N>
bool ReadEnum(std::string_view value, const std::string_view (&names)[N],
              Enum* out) {
  for (size_t i = 0; i < N; ++i) {
    if (value == names[i]) {
      *out = static_cast<Enum>(i);
      return true;
    }
  }
  return false;
}
bool Read(std::string_view value, BlockCacheKind* out) {
  return ReadEnum(value, kCacheKinds, out);
}
bool Read(std::string_view value, Compression* out) {
  return ReadEnum(value, kCompressions, out);
}

std::string Write(bool b) { return b ? "true" : "false"; }
std::string Write(size_t n) { return std::to_string(n); }
std::string Write(int n) { return std::to_string(n); }
std::string Write(double d) {
  char text[32];
  auto [end, error] = std::to_chars(text, text + sizeof(text), d);
  return error == std::errc() ? std::string(text, end) : "nan";
}
template <typename Enum, size_t N>
std::string WriteEnum(Enum e, const std::string_view (&names)[N]) {
  const size_t i = static_cast<size_t>(e);
  // An out-of-range value is kept as its number, for CheckOptions to refuse.
  return i < N ? std::string(names[i]) : std::to_string(static_cast<int>(e));
}
std::string Write(BlockCacheKind k) { return WriteEnum(k, kCacheKinds); }
std::string Write(Compression c) { return WriteEnum(c, kCompressions); }

struct Field {
  std::string_view name;
  bool (*read)(std::string_view value, Options* options);
  std::string (*write)(const Options& options);
};

#define PINGET_OPTION(field)                              \
  Field {                                                 \
#field,                                                 \
        [](std::string_view value, Options* o) {            \
          return Read(value, &o->field);                    \
        },                                                  \
        [](const Options& o) { return Write(o.field); } \
  }

const Field kFields[] = {
    PINGET_OPTION(create_if_missing),
    PINGET_OPTION(error_if_exists),
    PINGET_OPTION(block_cache_bytes),
    PINGET_OPTION(block_cache_kind),
    PINGET_OPTION(cache_index_and_filter_blocks),
    PINGET_OPTION(pin_l0_filter_and_index_blocks_in_cache),
    PINGET_OPTION(block_size),
    PINGET_OPTION(allow_mmap_reads),
    PINGET_OPTION(use_direct_reads),
    PINGET_OPTION(data_block_hash_index),
    PINGET_OPTION(bloom_bits_per_key),
    PINGET_OPTION(whole_key_filtering),
    PINGET_OPTION(write_buffer_bytes),
    PINGET_OPTION(max_open_files),
    PINGET_OPTION(compression),
};

#undef PINGET_OPTION

}  // namespace

Status ParseOptions(std::string_view text, Options* options) {
  if (options == nullptr) return Status::InvalidArgument("options is null");
  Options parsed = *options;
  while (!text.empty()) {
    const size_t end = text.find(';');
    std::string_view pair = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view()
                                         : text.substr(end + 1);
    if (pair.empty()) continue;
    const size_t eq = pair.find('=');
    std::string_view name = pair.substr(0, eq);
    const Field* field = nullptr;
    for (const Field& f : kFields) {
      if (f.name == name) field = &f;
    }
    if (field == nullptr) {
      return Status::InvalidArgument("unknown option " + std::string(name));
    }
    if (eq == std::string_view::npos) {
      return Status::InvalidArgument("option " + std::string(name) +
                                     " has no value");
    }
    std::string_view value = pair.substr(eq + 1);
    if (!field->read(value, &parsed)) {
      return Status::InvalidArgument("option " + std::string(name) +
                                     ": cannot read " + std::string(value));
    }
  }
  // column_families are not in the text: they keep *options' names.
  *options = std::move(parsed);
  return Status::OK();
}

std::string FormatOptions(const Options& options) {
  std::string text;
  for (const Field& f : kFields) {
    if (!text.empty()) text += ';';
    text += f.name;
    text += '=';
    text += f.write(options);
  }
  return text;
}

}  // namespace pinget
