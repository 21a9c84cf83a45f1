// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Corrupted SST files. Values are written, flushed into one SST file and the
// store closed; then bytes inside the file's data blocks are flipped (never
// the footer or index: every flipped offset lies below the table's "data
// block size", where only data blocks and their trailers live). Reads with
// verify_checksums must then give Corruption for every key in a damaged
// block, with every strategy, batched or not, with and without a block cache,
// and the right bytes for every other key: never OK with wrong bytes, never a
// crash. Without verify_checksums RocksDB trusts what it reads: see
// UnverifiedReadsReturnFlippedBytesAndNeverCacheThem for what that gives.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "test_util.h"

namespace pinget_test {
namespace {

using pinget::Buffer;
using pinget::Compression;
using pinget::Options;
using pinget::PinnedBatch;
using pinget::ReadOptions;
using pinget::Status;
using pinget::Store;

constexpr uint32_t kKeys = 200;
constexpr size_t kValueSize = 1000;
constexpr uint32_t kEvery = 10;  // kNone: the value of every 10th key is hit

std::string CorruptKey(uint32_t i) { return "corrupt/" + std::to_string(i); }
std::string CorruptValue(uint32_t i) {
  return MakeValue(CorruptKey(i), kValueSize, 1);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void FlipByte(const std::string& path, uint64_t offset) {
  std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
  ASSERT_TRUE(f) << path;
  f.seekg(static_cast<std::streamoff>(offset));
  char c = 0;
  ASSERT_TRUE(f.get(c)) << "offset " << offset;
  f.seekp(static_cast<std::streamoff>(offset));
  f.put(static_cast<char>(c ^ 0x5a));
  ASSERT_TRUE(f.flush());
}

// "data block size=N" of rocksdb.aggregated-table-properties.
uint64_t DataBlockBytes(const std::string& properties) {
  const std::string tag = "data block size=";
  const size_t at = properties.find(tag);
  if (at == std::string::npos) return 0;
  return std::stoull(properties.substr(at + tag.size()));
}

struct Case {
  Compression compression;
  size_t block_cache_bytes;
};

std::string CaseName(const Case& c) {
  return std::string(c.compression == Compression::kNone ? "none" : "snappy") +
         (c.block_cache_bytes == 0 ? "-no-cache" : "-cache");
}

class CorruptionTest : public StoreTest {
 protected:
  static Options CaseOptions(const Case& c) {
    Options o;
    o.compression = c.compression;
    o.block_cache_bytes = c.block_cache_bytes;
    return o;
  }

  // Writes every key into one SST file under `name`, closes the store and
  // flips bytes inside its data blocks. *hit: keys whose own value bytes were
  // flipped (kNone only: values are stored verbatim there).
  void WriteAndCorrupt(const Case& c, const std::string& name,
                       std::set<uint32_t>* hit) {
    std::unique_ptr<Store> store;
    ASSERT_NO_FATAL_FAILURE(OpenStore(CaseOptions(c), name, &store));
    for (uint32_t i = 0; i < kKeys; ++i) {
      ASSERT_OK(store->Put(CorruptKey(i), CorruptValue(i)));
    }
    ASSERT_OK(store->Flush());
    std::string properties;
    ASSERT_OK(store->GetProperty(0, "rocksdb.aggregated-table-properties",
                                 &properties));
    const uint64_t data_bytes = DataBlockBytes(properties);
    ASSERT_GT(data_bytes, 4 * kKiB) << properties;
    ASSERT_OK(store->Close());
    store.reset();

    std::vector<std::string> ssts;
    for (const auto& e : std::filesystem::directory_iterator(DbPath(name))) {
      if (e.path().extension() == ".sst") ssts.push_back(e.path().string());
    }
    ASSERT_EQ(ssts.size(), 1u);
    const std::string& sst = ssts[0];
    const std::string bytes = ReadFile(sst);
    ASSERT_GT(bytes.size(), data_bytes);

    std::vector<uint64_t> offsets;
    if (c.compression == Compression::kNone) {
      for (uint32_t i = kEvery / 2; i < kKeys; i += kEvery) {
        const std::string value = CorruptValue(i);
        const size_t at = bytes.find(value);
        ASSERT_NE(at, std::string::npos) << CorruptKey(i) << " not verbatim";
        offsets.push_back(at + kValueSize / 2);
        hit->insert(i);
      }
    } else {
      for (uint64_t eighth : {1, 3, 5, 7}) {
        offsets.push_back(data_bytes * eighth / 8);
      }
    }
    for (uint64_t offset : offsets) {
      ASSERT_LT(offset, data_bytes) << "not in the data blocks";
      ASSERT_NO_FATAL_FAILURE(FlipByte(sst, offset));
    }
  }
};

constexpr Case kCases[] = {
    {Compression::kNone, 64 * kMiB},
    {Compression::kNone, 0},
    {Compression::kSnappy, 64 * kMiB},
    {Compression::kSnappy, 0},
};

// Reads every key with every single-key strategy, then all keys at once with
// both batched strategies; checks what each returns and that all agree.
// *codes: the status code per key.
void CheckVerifiedReads(Store* store, const std::set<uint32_t>& hit,
                        std::vector<Status::Code>* codes) {
  codes->assign(kKeys, Status::Code::kOk);
  ReadOptions verified;
  verified.verify_checksums = true;
  for (uint32_t i = 0; i < kKeys; ++i) {
    const std::string key = CorruptKey(i);
    SCOPED_TRACE(key);
    for (size_t s = 0; s < std::size(kAllStrategies); ++s) {
      SCOPED_TRACE(StrategyName(kAllStrategies[s]));
      const ReadResult r = ReadWith(store, kAllStrategies[s], verified, key);
      ASSERT_TRUE(r.status.ok() || r.status.IsCorruption()) << r.status;
      if (r.status.ok()) {
        EXPECT_TRUE(r.bytes == CorruptValue(i)) << "OK with wrong bytes";
      }
      if (hit.count(i) != 0) {
        EXPECT_TRUE(r.status.IsCorruption()) << "its value bytes were flipped";
      }
      if (s == 0) (*codes)[i] = r.status.code();
      EXPECT_EQ(r.status.code(), (*codes)[i]) << "strategies disagree";
    }
  }

  // One MultiGet over every key: a damaged block fails its own keys only.
  std::vector<std::string> keys;
  std::vector<std::string_view> views;
  for (uint32_t i = 0; i < kKeys; ++i) keys.push_back(CorruptKey(i));
  for (const std::string& k : keys) views.push_back(k);
  std::vector<std::string> space(kKeys, std::string(kValueSize, '\0'));
  std::vector<Buffer> buffers;
  for (std::string& b : space) buffers.push_back({b.data(), b.size()});
  // The batch rule (store.h): every key is read and reported, then the call
  // returns the first per-key error in key order.
  Status::Code first_error = Status::Code::kOk;
  for (Status::Code c : *codes) {
    if (c != Status::Code::kOk && c != Status::Code::kNotFound) {
      first_error = c;
      break;
    }
  }
  std::vector<size_t> sizes(kKeys);
  std::vector<Status> statuses(kKeys);
  Status st = store->MultiGetInto(verified, kKeys, views.data(), buffers.data(),
                                  sizes.data(), statuses.data());
  EXPECT_EQ(st.code(), first_error) << st;
  EXPECT_EQ(st.ToString().find("Corruption: Corruption"), std::string::npos)
      << "the code is named once: " << st;
  PinnedBatch batch;
  st = store->MultiGetPinned(verified, kKeys, views.data(), &batch);
  EXPECT_EQ(st.code(), first_error) << st;
  ASSERT_EQ(batch.size(), kKeys);
  Visits visits;
  st = store->MultiGetVisit(verified, kKeys, views.data(), &RecordBatchVisit,
                            &visits);
  EXPECT_EQ(st.code(), first_error) << st;
  ASSERT_EQ(visits.indexes.size(), kKeys) << "every key is visited";
  for (uint32_t i = 0; i < kKeys; ++i) {
    SCOPED_TRACE(keys[i]);
    EXPECT_EQ(statuses[i].code(), (*codes)[i]) << "MultiGetInto of all keys";
    EXPECT_EQ(batch.status(i).code(), (*codes)[i])
        << "MultiGetPinned of all keys";
    EXPECT_EQ(visits.indexes[i], i);
    EXPECT_EQ(visits.statuses[i].code(), (*codes)[i]) << "MultiGetVisit";
    if (statuses[i].ok()) {
      EXPECT_EQ(sizes[i], kValueSize);
      EXPECT_TRUE(space[i] == CorruptValue(i)) << "OK with wrong bytes";
    }
    if (batch.status(i).ok()) {
      EXPECT_TRUE(batch.view(i) == CorruptValue(i)) << "OK with wrong bytes";
    }
  }
}

TEST_F(CorruptionTest, DamagedDataBlocksAreCorruptionForEveryStrategy) {
  for (const Case& c : kCases) {
    const std::string name = CaseName(c);
    SCOPED_TRACE(name);
    std::set<uint32_t> hit;
    ASSERT_NO_FATAL_FAILURE(WriteAndCorrupt(c, name, &hit));
    // The store opens: nothing but data blocks is damaged.
    std::unique_ptr<Store> store;
    ASSERT_NO_FATAL_FAILURE(OpenStore(CaseOptions(c), name, &store));
    // Twice: the second pass reads the good blocks from the cache (if any);
    // a block that failed its checksum was not cached.
    std::vector<Status::Code> first, second;
    ASSERT_NO_FATAL_FAILURE(CheckVerifiedReads(store.get(), hit, &first));
    ASSERT_NO_FATAL_FAILURE(CheckVerifiedReads(store.get(), hit, &second));
    EXPECT_EQ(first, second);
    const auto corrupt =
        std::count(first.begin(), first.end(), Status::Code::kCorruption);
    EXPECT_GT(corrupt, 0);
    EXPECT_LT(corrupt, static_cast<long>(kKeys)) << "undamaged blocks read";
    ASSERT_OK(store->Close());
  }
}

// Without verify_checksums RocksDB trusts the block. Only damage that leaves
// the block's structure intact can be read that way: a flipped byte of an
// uncompressed value, tested here. Damage to a block's keys and lengths can
// make RocksDB read past the block (11.8.1), or abort on an assertion (Debian's
// 7.8.3); docs/security.md gives the figures.
TEST_F(CorruptionTest, UnverifiedReadsReturnFlippedBytesAndNeverCacheThem) {
  for (const Case& c : kCases) {
    if (c.compression != Compression::kNone) continue;
    const std::string name = CaseName(c);
    SCOPED_TRACE(name);
    std::set<uint32_t> hit;
    ASSERT_NO_FATAL_FAILURE(WriteAndCorrupt(c, name, &hit));
    std::unique_ptr<Store> store;
    ASSERT_NO_FATAL_FAILURE(OpenStore(CaseOptions(c), name, &store));

    ReadOptions unverified;
    unverified.verify_checksums = false;
    unverified.fill_cache = false;
    auto read_unverified = [&]() {
      for (uint32_t i = 0; i < kKeys; ++i) {
        SCOPED_TRACE(CorruptKey(i));
        for (Strategy s : kAllStrategies) {
          SCOPED_TRACE(StrategyName(s));
          const ReadResult r =
              ReadWith(store.get(), s, unverified, CorruptKey(i));
          ASSERT_OK(r.status);
          EXPECT_EQ(r.bytes == CorruptValue(i), hit.count(i) == 0)
              << "only the flipped values differ";
        }
      }
    };
    ASSERT_NO_FATAL_FAILURE(read_unverified());
    // Nothing was cached: verified reads still see the damage.
    std::vector<Status::Code> codes;
    ASSERT_NO_FATAL_FAILURE(CheckVerifiedReads(store.get(), hit, &codes));

    // An unverified read never puts a block into the cache, even when it asks
    // to fill it (a block is verified when read from the file, not on a cache
    // hit, so a cached damaged block would be served as OK): verified reads
    // after it still see the damage.
    unverified.fill_cache = true;
    ASSERT_NO_FATAL_FAILURE(read_unverified());
    ReadOptions verified;
    for (uint32_t i : hit) {
      SCOPED_TRACE(CorruptKey(i));
      for (Strategy s : kAllStrategies) {
        SCOPED_TRACE(StrategyName(s));
        const ReadResult r = ReadWith(store.get(), s, verified, CorruptKey(i));
        EXPECT_TRUE(r.status.IsCorruption()) << r.status;
      }
    }
    ASSERT_OK(store->Close());
  }
}

}  // namespace
}  // namespace pinget_test
