// Copyright pinget authors. Licensed under the Apache License 2.0.

#include "test_util.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace pinget_test {
namespace {

uint64_t HashKey(std::string_view s) {  // FNV-1a
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

uint64_t SplitMix(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void PutFixed64(char* dst, uint64_t v) {
  for (int i = 0; i < 8; ++i) dst[i] = static_cast<char>(v >> (8 * i));
}

uint64_t GetFixed64(const char* src) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) {
    v |= uint64_t{static_cast<unsigned char>(src[i])} << (8 * i);
  }
  return v;
}

constexpr size_t kHeader = 16;
// A short period keeps values compressible by every codec.
constexpr size_t kPeriod = 61;

}  // namespace

TempDir::TempDir() {
  char tmpl[] = "/tmp/pinget_test.XXXXXX";
  const char* made = mkdtemp(tmpl);
  if (made == nullptr) {
    ADD_FAILURE() << "mkdtemp failed: " << std::strerror(errno);
    return;
  }
  path_ = made;
}

TempDir::~TempDir() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
  if (ec) ADD_FAILURE() << "cannot remove " << path_ << ": " << ec.message();
}

std::string TempDir::Sub(std::string_view name) const {
  return path_ + "/" + std::string(name);
}

std::string NewestOptionsFile(const std::string& path) {
  uint64_t newest = 0;
  std::filesystem::path file;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("OPTIONS-", 0) != 0 || name.find('.') != std::string::npos) {
      continue;
    }
    const uint64_t number = std::stoull(name.substr(8));
    if (file.empty() || number > newest) {
      newest = number;
      file = entry.path();
    }
  }
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string OptionsFileValue(const std::string& options_file,
                             const std::string& section,
                             const std::string& name) {
  std::istringstream lines(options_file);
  std::string line;
  bool in_section = false;
  while (std::getline(lines, line)) {
    if (!line.empty() && line[0] == '[') {
      in_section = line == section;
      continue;
    }
    if (!in_section) continue;
    const size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    const size_t eq = line.find('=', start);
    if (eq != std::string::npos && line.substr(start, eq - start) == name) {
      return line.substr(eq + 1);
    }
  }
  return "<absent>";
}

std::string MakeValue(std::string_view key, size_t size, uint64_t version) {
  uint64_t state = HashKey(key) ^ (size * 0x2545f4914f6cdd1dull) ^
                   (version * 0x9e3779b97f4a7c15ull);
  char pattern[kPeriod];
  for (char& c : pattern) c = static_cast<char>(SplitMix(&state));
  std::string v(size, '\0');
  for (size_t i = 0; i < size; ++i) {
    v[i] = static_cast<char>(pattern[i % kPeriod] ^ ((i / 4096) * 131));
  }
  if (size >= kHeader) {
    PutFixed64(&v[0], version);
    PutFixed64(&v[8], HashKey(key));
  }
  return v;
}

bool ParseValue(std::string_view key, std::string_view value,
                uint64_t* version) {
  if (value.size() < kHeader) return false;
  if (GetFixed64(value.data() + 8) != HashKey(key)) return false;
  const uint64_t v = GetFixed64(value.data());
  if (value != MakeValue(key, value.size(), v)) return false;
  *version = v;
  return true;
}

std::string BinaryKey(uint32_t i) {
  std::string k("\0key\0", 5);
  for (int shift = 24; shift >= 0; shift -= 8) {
    k.push_back(static_cast<char>(i >> shift));
  }
  k.push_back('\0');
  return k;
}

const char* ResidencyName(Residency r) {
  return r == Residency::kBlockCache ? "BlockCache" : "Memtable";
}

pinget::Status WriteResident(
    pinget::Store* store, Residency residency, uint32_t column_family,
    const std::vector<std::pair<std::string, std::string>>& pairs) {
  for (const auto& [key, value] : pairs) {
    pinget::Status s =
        store->Put(pinget::WriteOptions(), column_family, key, value);
    if (!s.ok()) return s;
  }
  if (residency == Residency::kMemtable) return pinget::Status::OK();
  pinget::Status s = store->Flush(column_family);
  if (!s.ok()) return s;
  pinget::ReadOptions ro;
  ro.column_family = column_family;
  std::string read;
  for (const auto& [key, value] : pairs) {
    s = store->GetString(ro, key, &read);
    if (!s.ok()) return s;
    if (read != value) return pinget::Status::Corruption("read back differs");
  }
  return pinget::Status::OK();
}

pinget::Status WriteResident(pinget::Store* store, Residency residency,
                             uint32_t column_family, std::string_view key,
                             std::string_view value) {
  return WriteResident(store, residency, column_family,
                       {{std::string(key), std::string(value)}});
}

const char* StrategyName(Strategy s) {
  switch (s) {
    case Strategy::kGetString:
      return "GetString";
    case Strategy::kGetInto:
      return "GetInto";
    case Strategy::kGetPinned:
      return "GetPinned";
    case Strategy::kMultiGetInto:
      return "MultiGetInto";
    case Strategy::kMultiGetPinned:
      return "MultiGetPinned";
  }
  return "?";
}

ReadResult ReadWith(pinget::Store* store, Strategy strategy,
                    const pinget::ReadOptions& options, std::string_view key) {
  ReadResult r;
  switch (strategy) {
    case Strategy::kGetString:
      r.status = store->GetString(options, key, &r.bytes);
      break;
    case Strategy::kGetInto: {
      size_t size = 0;
      r.status = store->GetInto(options, key, nullptr, 0, &size);
      if (!r.status.ok()) break;
      std::string buffer(size, '\0');
      size_t again = 0;
      r.status = store->GetInto(options, key, buffer.data(), size, &again);
      if (r.status.ok() && again != size) {
        r.status = pinget::Status::Corruption("size changed between reads");
      }
      if (r.status.ok()) r.bytes = std::move(buffer);
      break;
    }
    case Strategy::kGetPinned: {
      pinget::PinnedValue pinned;
      r.status = store->GetPinned(options, key, &pinned);
      if (r.status.ok()) r.bytes = std::string(pinned.view());
      break;
    }
    case Strategy::kMultiGetInto: {
      size_t size = 0;
      pinget::Status key_status;
      pinget::Buffer none;
      r.status =
          store->MultiGetInto(options, 1, &key, &none, &size, &key_status);
      if (!r.status.ok()) break;
      r.status = key_status;
      if (!r.status.ok()) break;
      std::string buffer(size, '\0');
      pinget::Buffer exact{buffer.data(), size};
      size_t again = 0;
      r.status =
          store->MultiGetInto(options, 1, &key, &exact, &again, &key_status);
      if (r.status.ok()) r.status = key_status;
      if (r.status.ok() && again != size) {
        r.status = pinget::Status::Corruption("size changed between reads");
      }
      if (r.status.ok()) r.bytes = std::move(buffer);
      break;
    }
    case Strategy::kMultiGetPinned: {
      pinget::PinnedBatch batch;
      r.status = store->MultiGetPinned(options, 1, &key, &batch);
      if (!r.status.ok()) break;
      if (batch.size() != 1) {
        r.status = pinget::Status::Corruption("batch size is not 1");
        break;
      }
      r.status = batch.status(0);
      if (r.status.ok()) r.bytes = std::string(batch.view(0));
      break;
    }
  }
  return r;
}

pinget::Options StoreTest::LargeOptions() {
  pinget::Options o;
  o.block_cache_bytes = 256 * kMiB;
  o.write_buffer_bytes = 256 * kMiB;
  return o;
}

void StoreTest::OpenStore(const pinget::Options& options,
                          std::string_view name) {
  OpenStore(options, name, &store_);
}

void StoreTest::OpenStore(const pinget::Options& options, std::string_view name,
                          std::unique_ptr<pinget::Store>* store) {
  const pinget::Status s = pinget::Store::Open(DbPath(name), options, store);
  ASSERT_TRUE(s.ok()) << "Open(" << DbPath(name) << "): " << s.ToString();
  ASSERT_NE(*store, nullptr);
}

}  // namespace pinget_test

namespace pinget {
std::ostream& operator<<(std::ostream& os, const Status& s) {
  return os << s.ToString();
}
}  // namespace pinget
