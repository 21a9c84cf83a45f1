// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Every read strategy returns the same bytes as an in-memory model, wherever
// the value lives (block cache, memtable, compressed SST), at every size.

#include <atomic>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace pinget_test {
namespace {

using pinget::Buffer;
using pinget::Compression;
using pinget::Options;
using pinget::PinnedBatch;
using pinget::PinnedValue;
using pinget::ReadOptions;
using pinget::Status;
using pinget::WriteOptions;

constexpr size_t kSizes[] = {0, 1, 127, 4 * kKiB, 64 * kKiB, kMiB, 16 * kMiB};
constexpr unsigned char kGuard = 0xA5;
constexpr size_t kGuardBytes = 64;

// Where the values are read from.
enum class Placement {
  kBlockCache,
  kMemtable,
  kSnappySst,
  kLz4Sst,
  kZstdSst,
  kZlibSst,
  kBzip2Sst
};

using Model = std::map<std::string, std::string>;

bool AllGuard(const char* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (static_cast<unsigned char>(p[i]) != kGuard) return false;
  }
  return true;
}

class StrategiesTest : public StoreTest {
 protected:
  void OpenFor(Placement placement) {
    Options o = LargeOptions();
    o.column_families = {"cf"};
    switch (placement) {
      case Placement::kSnappySst:
        o.compression = Compression::kSnappy;
        break;
      case Placement::kLz4Sst:
        o.compression = Compression::kLz4;
        break;
      case Placement::kZstdSst:
        o.compression = Compression::kZstd;
        break;
      case Placement::kZlibSst:
        o.compression = Compression::kZlib;
        break;
      case Placement::kBzip2Sst:
        o.compression = Compression::kBzip2;
        break;
      default:
        o.compression = Compression::kNone;
        break;
    }
    ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  }

  // Writes pairs into column family cf so that they are read from placement,
  // and records them in the model.
  void Write(Placement placement, uint32_t cf,
             const std::vector<std::pair<std::string, std::string>>& pairs) {
    for (const auto& [k, v] : pairs) model_[cf][k] = v;
    if (placement == Placement::kBlockCache) {
      ASSERT_OK(WriteResident(store_.get(), Residency::kBlockCache, cf, pairs));
    } else if (placement == Placement::kMemtable) {
      ASSERT_OK(WriteResident(store_.get(), Residency::kMemtable, cf, pairs));
    } else {
      for (const auto& [k, v] : pairs) {
        ASSERT_OK(store_->Put(WriteOptions(), cf, k, v));
      }
      ASSERT_OK(store_->Flush(cf));
      ASSERT_OK(store_->Compact(cf));
    }
  }

  // Every strategy, one key at a time, agrees with the model.
  void CheckKeys(uint32_t cf, const std::vector<std::string>& keys,
                 const ReadOptions& base = ReadOptions()) {
    ReadOptions ro = base;
    ro.column_family = cf;
    for (const std::string& key : keys) {
      auto it = model_[cf].find(key);
      for (Strategy s : kAllStrategies) {
        SCOPED_TRACE(testing::Message()
                     << StrategyName(s) << " key size " << key.size());
        const ReadResult r = ReadWith(store_.get(), s, ro, key);
        if (it == model_[cf].end()) {
          EXPECT_TRUE(r.status.IsNotFound()) << r.status;
          EXPECT_TRUE(r.bytes.empty());
        } else {
          ASSERT_TRUE(r.status.ok()) << r.status;
          ASSERT_EQ(r.bytes.size(), it->second.size());
          EXPECT_TRUE(r.bytes == it->second) << "bytes differ";
        }
      }
      // GetVisit: one visit with the model's bytes, or none.
      SCOPED_TRACE(testing::Message() << "GetVisit key size " << key.size());
      Visits visits;
      const Status st = store_->GetVisit(ro, key, &RecordVisit, &visits);
      if (it == model_[cf].end()) {
        EXPECT_TRUE(st.IsNotFound()) << st;
        EXPECT_TRUE(visits.values.empty());
      } else {
        ASSERT_TRUE(st.ok()) << st;
        ASSERT_EQ(visits.values.size(), 1u);
        ASSERT_EQ(visits.values[0].size(), it->second.size());
        EXPECT_TRUE(visits.values[0] == it->second) << "bytes differ";
      }
    }
  }

  // Both batched strategies, over all keys in one call, agree with the model.
  // Buffers are exactly the model's size (8 bytes for missing keys), each
  // followed by guard bytes that must stay untouched.
  void CheckBatch(uint32_t cf, const std::vector<std::string>& keys,
                  PinnedBatch* batch) {
    ReadOptions ro;
    ro.column_family = cf;
    const size_t n = keys.size();
    std::vector<std::string_view> views(keys.begin(), keys.end());
    std::vector<size_t> offsets(n);
    std::vector<size_t> capacities(n);
    size_t total = 0;
    for (size_t i = 0; i < n; ++i) {
      auto it = model_[cf].find(keys[i]);
      capacities[i] = it == model_[cf].end() ? 8 : it->second.size();
      offsets[i] = total;
      total += capacities[i] + kGuardBytes;
    }
    std::vector<char> arena(total, static_cast<char>(kGuard));
    std::vector<Buffer> buffers(n);
    for (size_t i = 0; i < n; ++i) {
      buffers[i] = {arena.data() + offsets[i], capacities[i]};
    }
    std::vector<size_t> sizes(n, 12345);
    std::vector<Status> statuses(n, Status::Busy("unset"));
    ASSERT_OK(store_->MultiGetInto(ro, n, views.data(), buffers.data(),
                                   sizes.data(), statuses.data()));
    ASSERT_OK(store_->MultiGetPinned(ro, n, views.data(), batch));
    ASSERT_EQ(batch->size(), n);
    Visits visits;
    ASSERT_OK(
        store_->MultiGetVisit(ro, n, views.data(), &RecordBatchVisit, &visits));
    ASSERT_EQ(visits.indexes.size(), n);
    for (size_t i = 0; i < n; ++i) {
      SCOPED_TRACE(testing::Message() << "batch of " << n << ", key " << i);
      auto it = model_[cf].find(keys[i]);
      const char* out = buffers[i].data;
      if (it == model_[cf].end()) {
        EXPECT_TRUE(statuses[i].IsNotFound()) << statuses[i];
        EXPECT_EQ(sizes[i], 0u);
        EXPECT_TRUE(AllGuard(out, capacities[i] + kGuardBytes));
        EXPECT_TRUE(batch->status(i).IsNotFound()) << batch->status(i);
        EXPECT_TRUE(batch->view(i).empty());
        EXPECT_EQ(visits.indexes[i], i);
        EXPECT_TRUE(visits.statuses[i].IsNotFound()) << visits.statuses[i];
        EXPECT_TRUE(visits.values[i].empty());
      } else {
        const std::string& v = it->second;
        ASSERT_TRUE(statuses[i].ok()) << statuses[i];
        ASSERT_EQ(sizes[i], v.size());
        EXPECT_TRUE(std::string_view(out, v.size()) == v) << "bytes differ";
        EXPECT_TRUE(AllGuard(out + v.size(), kGuardBytes));
        ASSERT_TRUE(batch->status(i).ok()) << batch->status(i);
        EXPECT_TRUE(batch->view(i) == v) << "pinned bytes differ";
        EXPECT_EQ(visits.indexes[i], i);
        ASSERT_TRUE(visits.statuses[i].ok()) << visits.statuses[i];
        EXPECT_TRUE(visits.values[i] == v) << "visited bytes differ";
      }
    }
  }

  // Writes a value of every size (text and binary keys; 16 MiB only once),
  // then checks every strategy, singly and batched, plus missing keys.
  void CheckEverySize(Placement placement) {
    ASSERT_NO_FATAL_FAILURE(OpenFor(placement));
    std::vector<std::pair<std::string, std::string>> pairs;
    size_t raw_bytes = 0;
    for (size_t size : kSizes) {
      const std::string text_key = "size-" + std::to_string(size);
      pairs.emplace_back(text_key, MakeValue(text_key, size, 1));
      raw_bytes += size;
      if (size < 16 * kMiB) {
        const std::string bin_key = BinaryKey(static_cast<uint32_t>(size));
        pairs.emplace_back(bin_key, MakeValue(bin_key, size, 2));
        raw_bytes += size;
      }
    }
    Write(placement, 0, pairs);
    if (HasFailure()) return;

    if (placement >= Placement::kSnappySst) {
      std::string sst_bytes;
      ASSERT_OK(
          store_->GetProperty(0, "rocksdb.total-sst-files-size", &sst_bytes));
      EXPECT_LT(std::stoull(sst_bytes), raw_bytes / 4)
          << "the SST files are not compressed";
    }

    std::vector<std::string> keys;
    for (const auto& kv : pairs) keys.push_back(kv.first);
    keys.push_back("missing");
    keys.push_back(BinaryKey(999999));
    keys.push_back(std::string("size-0\0", 7));
    CheckKeys(0, keys);
    PinnedBatch batch;
    CheckBatch(0, keys, &batch);

    const bool from_cache = placement != Placement::kMemtable;
    PinnedValue pinned;
    for (const auto& [key, value] : pairs) {
      ASSERT_OK(store_->GetPinned(ReadOptions(), key, &pinned));
      EXPECT_TRUE(pinned.holds_value());
      EXPECT_EQ(pinned.pinned_in_cache(), from_cache) << value.size();
      EXPECT_EQ(pinned.size(), value.size());
      EXPECT_TRUE(pinned.view() == value);
    }
    for (size_t i = 0; i < batch.size(); ++i) {
      if (batch.status(i).ok()) {
        EXPECT_EQ(batch.pinned_in_cache(i), from_cache) << i;
      }
    }
  }

  std::map<uint32_t, Model> model_;
};

TEST_F(StrategiesTest, EverySizeFromBlockCache) {
  CheckEverySize(Placement::kBlockCache);
}

TEST_F(StrategiesTest, EverySizeFromMemtable) {
  CheckEverySize(Placement::kMemtable);
}

TEST_F(StrategiesTest, EverySizeFromSnappySst) {
  CheckEverySize(Placement::kSnappySst);
}

TEST_F(StrategiesTest, EverySizeFromLz4Sst) {
  CheckEverySize(Placement::kLz4Sst);
}

TEST_F(StrategiesTest, EverySizeFromZstdSst) {
  CheckEverySize(Placement::kZstdSst);
}

TEST_F(StrategiesTest, EverySizeFromZlibSst) {
  CheckEverySize(Placement::kZlibSst);
}

TEST_F(StrategiesTest, EverySizeFromBzip2Sst) {
  CheckEverySize(Placement::kBzip2Sst);
}

TEST_F(StrategiesTest, BinaryKeysWithZeroBytesAreDistinct) {
  ASSERT_NO_FATAL_FAILURE(OpenFor(Placement::kMemtable));
  const std::vector<std::string> keys = {std::string("a", 1),
                                         std::string("a\0", 2),
                                         std::string("a\0b", 3),
                                         std::string("a\0c", 3),
                                         std::string("\0", 1),
                                         std::string("\0\0", 2),
                                         std::string("\0a\0\0", 4),
                                         BinaryKey(0),
                                         BinaryKey(1),
                                         BinaryKey(256)};
  std::vector<std::pair<std::string, std::string>> pairs;
  for (size_t i = 0; i < keys.size(); ++i) {
    pairs.emplace_back(keys[i], MakeValue(keys[i], 40 + i, i));
  }
  for (Placement p : {Placement::kMemtable, Placement::kBlockCache}) {
    SCOPED_TRACE(p == Placement::kMemtable ? "memtable" : "block cache");
    Write(p, 0, pairs);
    std::vector<std::string> probe = keys;
    probe.push_back(std::string("a\0d", 3));
    probe.push_back(std::string("\0\0\0", 3));
    CheckKeys(0, probe);
    PinnedBatch batch;
    CheckBatch(0, probe, &batch);
    for (auto& [k, v] : pairs) v = MakeValue(k, v.size() + 1, 100);
  }
}

TEST_F(StrategiesTest, MissingAndDeletedKeysAreNotFound) {
  ASSERT_NO_FATAL_FAILURE(OpenFor(Placement::kBlockCache));
  std::vector<std::pair<std::string, std::string>> pairs;
  for (int i = 0; i < 6; ++i) {
    const std::string key = "key" + std::to_string(i);
    pairs.emplace_back(key, MakeValue(key, 1000, 1));
  }
  Write(Placement::kBlockCache, 0, pairs);
  // key0: deleted in the memtable over a value in an SST file.
  // key1: deleted and flushed. key2: deleted, flushed and compacted.
  // key3: put and deleted in the memtable only.
  ASSERT_OK(store_->Delete("key0"));
  model_[0].erase("key0");
  CheckKeys(0, {"key0", "key1", "key2"});
  ASSERT_OK(store_->Delete("key1"));
  ASSERT_OK(store_->Delete("key2"));
  model_[0].erase("key1");
  model_[0].erase("key2");
  ASSERT_OK(store_->Flush());
  CheckKeys(0, {"key0", "key1", "key2"});
  ASSERT_OK(store_->Compact());
  ASSERT_OK(store_->Put("key6", "short-lived"));
  ASSERT_OK(store_->Delete("key6"));
  // Deleting a key that never existed is fine.
  ASSERT_OK(store_->Delete("never"));
  const std::vector<std::string> all = {"key0", "key1", "key2",  "key3", "key4",
                                        "key5", "key6", "never", "zzz"};
  CheckKeys(0, all);
  PinnedBatch batch;
  CheckBatch(0, all, &batch);

  // A NotFound leaves every kind of output empty or untouched.
  std::string s = "previous contents";
  EXPECT_TRUE(store_->GetString(ReadOptions(), "key0", &s).IsNotFound());
  EXPECT_TRUE(s.empty());
  char buf[16];
  std::memset(buf, kGuard, sizeof(buf));
  size_t size = 77;
  EXPECT_TRUE(store_->GetInto(ReadOptions(), "key0", buf, sizeof(buf), &size)
                  .IsNotFound());
  EXPECT_EQ(size, 0u);
  EXPECT_TRUE(AllGuard(buf, sizeof(buf)));
  PinnedValue pinned;
  ASSERT_OK(store_->GetPinned(ReadOptions(), "key4", &pinned));
  EXPECT_TRUE(pinned.holds_value());
  EXPECT_TRUE(store_->GetPinned(ReadOptions(), "key0", &pinned).IsNotFound());
  EXPECT_FALSE(pinned.holds_value());
  EXPECT_TRUE(pinned.view().empty());
}

TEST_F(StrategiesTest, SnapshotsReadTheirVersion) {
  ASSERT_NO_FATAL_FAILURE(OpenFor(Placement::kMemtable));
  for (Placement p : {Placement::kMemtable, Placement::kBlockCache}) {
    SCOPED_TRACE(p == Placement::kMemtable ? "memtable" : "block cache");
    ASSERT_OK(store_->Delete("new"));
    model_[0].erase("new");
    Write(p, 0,
          {{"over", MakeValue("over", 3000, 1)},
           {"del", MakeValue("del", 200, 1)},
           {"same", MakeValue("same", 70000, 1)}});
    std::unique_ptr<pinget::Snapshot> snap;
    ASSERT_OK(store_->GetSnapshot(&snap));
    const Model old_model = model_[0];

    ASSERT_OK(store_->Put("over", MakeValue("over", 5000, 2)));
    ASSERT_OK(store_->Delete("del"));
    ASSERT_OK(store_->Put("new", "new value"));
    model_[0]["over"] = MakeValue("over", 5000, 2);
    model_[0].erase("del");
    model_[0]["new"] = "new value";
    const Model new_model = model_[0];
    const std::vector<std::string> keys = {"over", "del", "same", "new"};

    for (int round = 0; round < 3; ++round) {
      SCOPED_TRACE(round == 0   ? "memtable"
                   : round == 1 ? "flushed"
                                : "compacted");
      if (round == 1) ASSERT_OK(store_->Flush());
      if (round == 2) ASSERT_OK(store_->Compact());
      model_[0] = old_model;
      ReadOptions at_snap;
      at_snap.snapshot = snap.get();
      CheckKeys(0, keys, at_snap);
      model_[0] = new_model;
      CheckKeys(0, keys);
    }
  }
}

TEST_F(StrategiesTest, ColumnFamiliesHoldTheirOwnValues) {
  ASSERT_NO_FATAL_FAILURE(OpenFor(Placement::kMemtable));
  for (Placement p : {Placement::kMemtable, Placement::kBlockCache}) {
    SCOPED_TRACE(p == Placement::kMemtable ? "memtable" : "block cache");
    const int version = p == Placement::kMemtable ? 1 : 2;
    std::vector<std::pair<std::string, std::string>> in_default, in_cf;
    for (size_t size : {size_t{10}, 4 * kKiB, 64 * kKiB}) {
      const std::string key = "k" + std::to_string(size);
      in_default.emplace_back(key, MakeValue(key, size, version));
      in_cf.emplace_back(key, MakeValue(key, size + 1, version + 10));
    }
    in_cf.emplace_back("cf-only", "x");
    Write(p, 0, in_default);
    Write(p, 1, in_cf);
    const std::vector<std::string> keys = {"k10", "k4096", "k65536", "cf-only"};
    CheckKeys(0, keys);
    CheckKeys(1, keys);
    PinnedBatch batch;
    CheckBatch(0, keys, &batch);
    CheckBatch(1, keys, &batch);
  }
}

TEST_F(StrategiesTest, ReadOptionsDoNotChangeTheBytes) {
  ASSERT_NO_FATAL_FAILURE(OpenFor(Placement::kSnappySst));
  std::vector<std::pair<std::string, std::string>> pairs;
  for (int i = 0; i < 4; ++i) {
    const std::string key = "k" + std::to_string(i);
    pairs.emplace_back(key, MakeValue(key, 9000, i));
  }
  Write(Placement::kSnappySst, 0, pairs);  // in SST files, not yet read
  ReadOptions no_fill;
  no_fill.fill_cache = false;
  no_fill.verify_checksums = false;
  CheckKeys(0, {"k0", "k1", "k2", "k3", "k4"}, no_fill);
  CheckKeys(0, {"k0", "k1", "k2", "k3", "k4"});
}

// GetInto and MultiGetInto with capacities below, at and above the value's
// size: the full size is reported, min(size, capacity) bytes are written, and
// nothing after them.
TEST_F(StrategiesTest, BufferTooSmallWritesExactlyCapacity) {
  ASSERT_NO_FATAL_FAILURE(OpenFor(Placement::kMemtable));
  for (Placement p : {Placement::kMemtable, Placement::kBlockCache}) {
    SCOPED_TRACE(p == Placement::kMemtable ? "memtable" : "block cache");
    const int version = p == Placement::kMemtable ? 1 : 2;
    const std::string small_key = "small", big_key = "big";
    const std::string small = MakeValue(small_key, 4 * kKiB, version);
    const std::string big = MakeValue(big_key, 64 * kKiB, version);
    Write(p, 0, {{small_key, small}, {big_key, big}});

    for (const std::string& key : {small_key, big_key}) {
      const std::string& value = model_[0].at(key);
      for (size_t capacity :
           {size_t{0}, size_t{1}, size_t{100}, value.size() - 1, value.size(),
            value.size() + 1, value.size() + 1000}) {
        SCOPED_TRACE(testing::Message()
                     << "value " << value.size() << ", capacity " << capacity);
        const size_t written = std::min(capacity, value.size());
        std::vector<char> array(capacity + kGuardBytes,
                                static_cast<char>(kGuard));
        size_t size = 0;
        ASSERT_OK(
            store_->GetInto(ReadOptions(), key, array.data(), capacity, &size));
        EXPECT_EQ(size, value.size());
        EXPECT_TRUE(std::string_view(array.data(), written) ==
                    std::string_view(value).substr(0, written));
        EXPECT_TRUE(AllGuard(array.data() + written, array.size() - written));

        std::fill(array.begin(), array.end(), static_cast<char>(kGuard));
        const std::string_view keys[] = {key, "missing", key};
        char other[kGuardBytes];
        std::memset(other, kGuard, sizeof(other));
        const Buffer buffers[] = {
            {array.data(), capacity}, {other, 16}, {nullptr, 0}};
        size_t sizes[3] = {1, 2, 3};
        Status statuses[3];
        ASSERT_OK(store_->MultiGetInto(ReadOptions(), 3, keys, buffers, sizes,
                                       statuses));
        EXPECT_TRUE(statuses[0].ok()) << statuses[0];
        EXPECT_TRUE(statuses[1].IsNotFound()) << statuses[1];
        EXPECT_TRUE(statuses[2].ok()) << statuses[2];
        EXPECT_EQ(sizes[0], value.size());
        EXPECT_EQ(sizes[1], 0u);
        EXPECT_EQ(sizes[2], value.size());  // a size query
        EXPECT_TRUE(std::string_view(array.data(), written) ==
                    std::string_view(value).substr(0, written));
        EXPECT_TRUE(AllGuard(array.data() + written, array.size() - written));
        EXPECT_TRUE(AllGuard(other, sizeof(other)));
      }
    }
  }
}

TEST_F(StrategiesTest, SizeQueryWithNullBuffer) {
  ASSERT_NO_FATAL_FAILURE(OpenFor(Placement::kMemtable));
  Write(Placement::kBlockCache, 0,
        {{"empty", ""}, {"one", "1"}, {"big", MakeValue("big", kMiB, 1)}});
  for (const auto& [key, value] : model_[0]) {
    size_t size = 12345;
    ASSERT_OK(store_->GetInto(ReadOptions(), key, nullptr, 0, &size));
    EXPECT_EQ(size, value.size()) << key;
  }
  size_t size = 12345;
  EXPECT_TRUE(store_->GetInto(ReadOptions(), "missing", nullptr, 0, &size)
                  .IsNotFound());
  EXPECT_EQ(size, 0u);

  const std::string_view keys[] = {"big", "missing", "one", "empty"};
  const Buffer none[4];
  size_t sizes[4] = {9, 9, 9, 9};
  Status statuses[4];
  ASSERT_OK(
      store_->MultiGetInto(ReadOptions(), 4, keys, none, sizes, statuses));
  EXPECT_EQ(sizes[0], kMiB);
  EXPECT_EQ(sizes[1], 0u);
  EXPECT_EQ(sizes[2], 1u);
  EXPECT_EQ(sizes[3], 0u);
  EXPECT_TRUE(statuses[0].ok());
  EXPECT_TRUE(statuses[1].IsNotFound());
  EXPECT_TRUE(statuses[2].ok());
  EXPECT_TRUE(statuses[3].ok());
}

// Batches of 1, 16, 33 and 100 keys (33 and 100 cross the 32-key chunk),
// mixing found and missing keys, with one PinnedBatch reused throughout.
TEST_F(StrategiesTest, BatchesAcrossChunkBoundaries) {
  ASSERT_NO_FATAL_FAILURE(OpenFor(Placement::kMemtable));
  for (Placement p : {Placement::kMemtable, Placement::kBlockCache}) {
    SCOPED_TRACE(p == Placement::kMemtable ? "memtable" : "block cache");
    const int version = p == Placement::kMemtable ? 1 : 2;
    std::vector<std::pair<std::string, std::string>> pairs;
    for (uint32_t i = 0; i < 100; ++i) {
      if (i % 3 == 0) continue;  // missing
      const std::string key = BinaryKey(i);
      pairs.emplace_back(key, MakeValue(key, (i * 997) % 9000, version));
    }
    Write(p, 0, pairs);
    PinnedBatch batch;
    for (size_t n : {1, 16, 33, 100, 16, 33}) {
      std::vector<std::string> keys;
      // Start at 1 so the batch of 1 finds its key; walk backwards so the
      // keys are not in sorted order.
      for (size_t i = 0; i < n; ++i) {
        keys.push_back(BinaryKey(static_cast<uint32_t>((n - i) % 100)));
      }
      CheckBatch(0, keys, &batch);
    }
    // Duplicate keys in one batch.
    CheckBatch(0, {BinaryKey(1), BinaryKey(1), BinaryKey(3), BinaryKey(1)},
               &batch);
  }
}

// GetVisit and MultiGetVisit on a closed store: Closed, and no visit.
// Argument errors: InvalidArgument, and no visit.
TEST_F(StrategiesTest, VisitRejectsClosedStoreAndBadArguments) {
  ASSERT_NO_FATAL_FAILURE(OpenFor(Placement::kMemtable));
  Write(Placement::kMemtable, 0, {{"k", "v"}});
  Visits visits;
  EXPECT_TRUE(store_->GetVisit(ReadOptions(), "", &RecordVisit, &visits)
                  .IsInvalidArgument());
  EXPECT_TRUE(store_->GetVisit(ReadOptions(), "k", nullptr, &visits)
                  .IsInvalidArgument());
  const std::string_view keys[] = {"k", ""};
  EXPECT_TRUE(
      store_->MultiGetVisit(ReadOptions(), 2, keys, &RecordBatchVisit, &visits)
          .IsInvalidArgument());
  EXPECT_TRUE(
      store_
          ->MultiGetVisit(ReadOptions(), 1, nullptr, &RecordBatchVisit, &visits)
          .IsInvalidArgument());
  EXPECT_TRUE(store_->MultiGetVisit(ReadOptions(), 1, keys, nullptr, &visits)
                  .IsInvalidArgument());
  ReadOptions no_such_family;
  no_such_family.column_family = 7;
  EXPECT_TRUE(store_->GetVisit(no_such_family, "k", &RecordVisit, &visits)
                  .IsInvalidArgument());
  EXPECT_TRUE(
      store_->MultiGetVisit(no_such_family, 1, keys, &RecordBatchVisit, &visits)
          .IsInvalidArgument());
  EXPECT_TRUE(visits.values.empty());
  EXPECT_TRUE(visits.indexes.empty());

  ASSERT_OK(store_->Close());
  EXPECT_TRUE(
      store_->GetVisit(ReadOptions(), "k", &RecordVisit, &visits).IsClosed());
  EXPECT_TRUE(
      store_->MultiGetVisit(ReadOptions(), 1, keys, &RecordBatchVisit, &visits)
          .IsClosed());
  EXPECT_TRUE(visits.values.empty());
  EXPECT_TRUE(visits.indexes.empty());
  // An empty batch is checked as a batch of 1 is: closed first.
  EXPECT_TRUE(
      store_->MultiGetVisit(ReadOptions(), 0, keys, &RecordBatchVisit, &visits)
          .IsClosed());
}

// The visitor reads RocksDB's own block-cache memory while it is held, and
// the pin is gone when the call returns: after Close, with no other pin or
// snapshot alive, the database is released and the path opens again.
TEST_F(StrategiesTest, VisitDropsItsPinBeforeReturning) {
  for (Placement p : {Placement::kBlockCache, Placement::kMemtable}) {
    SCOPED_TRACE(p == Placement::kMemtable ? "memtable" : "block cache");
    ASSERT_NO_FATAL_FAILURE(OpenFor(Placement::kMemtable));
    const std::string big = MakeValue("big", kMiB, 1);
    Write(p, 0, {{"big", big}, {"small", "s"}});
    auto pinned = std::make_unique<PinnedValue>();
    ASSERT_OK(store_->GetPinned(ReadOptions(), "big", pinned.get()));
    struct Seen {
      const char* data = nullptr;
      bool equal = false;
      const std::string* expected;
    } seen{nullptr, false, &big};
    ASSERT_OK(store_->GetVisit(
        ReadOptions(), "big",
        [](void* context, std::string_view value) {
          auto* seen = static_cast<Seen*>(context);
          seen->data = value.data();
          seen->equal = value == *seen->expected;
        },
        &seen));
    EXPECT_TRUE(seen.equal);
    // Block cache: the same memory the PinnedValue pins (P = 0); memtable:
    // RocksDB's copy into the scratch slice (P = 1).
    EXPECT_EQ(seen.data == pinned->data(), p == Placement::kBlockCache);
    pinned.reset();  // released while the store is open, it would keep it

    const std::string_view keys[] = {"big", "missing", "small"};
    Visits visits;
    ASSERT_OK(store_->MultiGetVisit(ReadOptions(), 3, keys, &RecordBatchVisit,
                                    &visits));
    ASSERT_EQ(visits.values.size(), 3u);
    EXPECT_TRUE(visits.values[0] == big);
    EXPECT_TRUE(visits.statuses[1].IsNotFound());
    EXPECT_TRUE(visits.values[2] == "s");

    ASSERT_OK(store_->Close());
    std::unique_ptr<pinget::Store> again;
    const Status reopened =
        pinget::Store::Open(DbPath(), LargeOptions(), &again);
    ASSERT_TRUE(reopened.ok())
        << "a visit must not keep the database open: " << reopened;
    ASSERT_OK(again->Close());
    store_.reset();
  }
}

// Close from another thread while a visitor runs waits for the visitor to
// return (the value stays readable meanwhile), then closes the database.
TEST_F(StrategiesTest, CloseWaitsForARunningVisitor) {
  for (bool batched : {false, true}) {
    SCOPED_TRACE(batched ? "MultiGetVisit" : "GetVisit");
    ASSERT_NO_FATAL_FAILURE(OpenFor(Placement::kMemtable));
    const std::string value = MakeValue("k", 64 * kKiB, 1);
    Write(Placement::kBlockCache, 0, {{"k", value}});
    struct Race {
      pinget::Store* store;
      const std::string* value;
      std::thread closer;
      std::atomic<bool> closed{false};
      bool closed_during_visit = false;
      bool intact = false;
      void Visit(std::string_view v) {
        closer = std::thread([this] {
          EXPECT_OK(store->Close());
          closed = true;
        });
        while (!store->closed()) std::this_thread::yield();
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        closed_during_visit = closed;
        intact = v == *value;
      }
    } race;
    race.store = store_.get();
    race.value = &value;
    const std::string_view key = "k";
    if (batched) {
      ASSERT_OK(store_->MultiGetVisit(
          ReadOptions(), 1, &key,
          [](void* c, size_t, const Status&, std::string_view v) {
            static_cast<Race*>(c)->Visit(v);
          },
          &race));
    } else {
      ASSERT_OK(store_->GetVisit(
          ReadOptions(), key,
          [](void* c, std::string_view v) { static_cast<Race*>(c)->Visit(v); },
          &race));
    }
    race.closer.join();
    EXPECT_FALSE(race.closed_during_visit);
    EXPECT_TRUE(race.intact);
    EXPECT_TRUE(race.closed);
    std::unique_ptr<pinget::Store> again;
    ASSERT_OK(pinget::Store::Open(DbPath(), LargeOptions(), &again));
    ASSERT_OK(again->Close());
    store_.reset();
  }
}

}  // namespace
}  // namespace pinget_test
