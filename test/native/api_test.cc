// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The public API's contract for options, bad input and plain reads/writes:
// every misuse is a clear Status, never a crash.

#include <rocksdb/convenience.h>

#include <algorithm>
#include <cstring>
#include <string>
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
using pinget::Store;
using pinget::WriteBatch;
using pinget::WriteOptions;

class ApiTest : public StoreTest {
 protected:
  // Every strategy must return exactly `code` for key.
  void ExpectEveryStrategy(const ReadOptions& ro, std::string_view key,
                           Status::Code code) {
    for (Strategy s : kAllStrategies) {
      const ReadResult r = ReadWith(store_.get(), s, ro, key);
      EXPECT_EQ(r.status.code(), code)
          << StrategyName(s) << ": " << r.status.ToString();
      if (code != Status::Code::kOk) {
        EXPECT_TRUE(r.bytes.empty()) << StrategyName(s);
      }
    }
  }

  void ExpectEveryStrategyReads(const ReadOptions& ro, std::string_view key,
                                std::string_view expected) {
    for (Strategy s : kAllStrategies) {
      const ReadResult r = ReadWith(store_.get(), s, ro, key);
      EXPECT_TRUE(r.status.ok()) << StrategyName(s) << ": " << r.status;
      EXPECT_EQ(r.bytes, expected) << StrategyName(s);
    }
  }
};

TEST_F(ApiTest, OpenCreatesStoreAndReportsRocksDBVersion) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  EXPECT_FALSE(store_->closed());
  // The release the build chose (PINGET_ROCKSDB): the headers compiled in
  // agree with it.
  EXPECT_STREQ(pinget::RocksDBVersion(), PINGET_EXPECTED_ROCKSDB_VERSION);
  ASSERT_OK(store_->Put("k", "v"));
  ExpectEveryStrategyReads(ReadOptions(), "k", "v");
}

TEST_F(ApiTest, OpenRejectsInvalidOptions) {
  std::unique_ptr<Store> store;
  EXPECT_TRUE(Store::Open(DbPath(), Options(), nullptr).IsInvalidArgument());
  EXPECT_TRUE(Store::Open("", Options(), &store).IsInvalidArgument());
  Options o;
  o.block_size = 0;
  EXPECT_TRUE(Store::Open(DbPath(), o, &store).IsInvalidArgument());
  o = Options();
  o.write_buffer_bytes = 0;
  EXPECT_TRUE(Store::Open(DbPath(), o, &store).IsInvalidArgument());
  o = Options();
  o.compression = static_cast<Compression>(42);
  EXPECT_TRUE(Store::Open(DbPath(), o, &store).IsInvalidArgument());
  EXPECT_EQ(store, nullptr);
}

TEST_F(ApiTest, FailedOpenResetsTheOutParameter) {
  std::unique_ptr<Store> store;
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options(), "other", &store));
  Options o;
  o.create_if_missing = false;
  EXPECT_TRUE(Store::Open(DbPath("missing"), o, &store).IsInvalidArgument());
  EXPECT_EQ(store, nullptr);
  // The store that was there is gone and its database closed.
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options(), "other", &store));
}

TEST_F(ApiTest, CreateIfMissingAndErrorIfExists) {
  Options o;
  o.create_if_missing = false;
  std::unique_ptr<Store> store;
  EXPECT_TRUE(Store::Open(DbPath(), o, &store).IsInvalidArgument());
  EXPECT_EQ(store, nullptr);

  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  ASSERT_OK(store_->Close());
  o = Options();
  o.error_if_exists = true;
  EXPECT_TRUE(Store::Open(DbPath(), o, &store).IsInvalidArgument());
  o = Options();
  o.create_if_missing = false;
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
}

TEST_F(ApiTest, SecondOpenOfOpenPathFailsWithIOError) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  std::unique_ptr<Store> second;
  const Status s = Store::Open(DbPath(), Options(), &second);
  EXPECT_TRUE(s.IsIOError()) << s;
  EXPECT_NE(s.message().find("lock"), std::string::npos) << s;
  EXPECT_EQ(second, nullptr);
  ASSERT_OK(store_->Close());
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options(), "db", &second));
}

TEST_F(ApiTest, DestroyingStoreWithoutCloseClosesDatabase) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  ASSERT_OK(store_->Put("k", "v"));
  store_.reset();
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  ExpectEveryStrategyReads(ReadOptions(), "k", "v");
}

TEST_F(ApiTest, InvalidColumnFamilyNamesAreRejected) {
  const std::vector<std::vector<std::string>> bad = {
      {"a", "b", "a"}, {"default"}, {"a", ""}, {""}};
  for (const auto& names : bad) {
    Options o;
    o.column_families = names;
    std::unique_ptr<Store> store;
    const Status s = Store::Open(DbPath(), o, &store);
    EXPECT_TRUE(s.IsInvalidArgument()) << s;
    EXPECT_FALSE(s.message().empty());
    EXPECT_EQ(store, nullptr);
  }
}

TEST_F(ApiTest, CompressionOpensIffRocksDBHasTheCodec) {
  const std::vector<rocksdb::CompressionType> supported =
      rocksdb::GetSupportedCompressions();
  const std::pair<Compression, rocksdb::CompressionType> codecs[] = {
      {Compression::kSnappy, rocksdb::kSnappyCompression},
      {Compression::kLz4, rocksdb::kLZ4Compression},
      {Compression::kZstd, rocksdb::kZSTD},
      {Compression::kZlib, rocksdb::kZlibCompression},
      {Compression::kBzip2, rocksdb::kBZip2Compression}};
  int i = 0;
  for (const auto& [ours, theirs] : codecs) {
    Options o;
    o.compression = ours;
    std::unique_ptr<Store> store;
    const std::string path = DbPath("db" + std::to_string(i++));
    const Status s = Store::Open(path, o, &store);
    if (std::find(supported.begin(), supported.end(), theirs) !=
        supported.end()) {
      ASSERT_TRUE(s.ok()) << s;
      ASSERT_OK(store->Put("k", "v"));
      ASSERT_OK(store->Flush());
      std::string v;
      ASSERT_OK(store->GetString(ReadOptions(), "k", &v));
      EXPECT_EQ(v, "v");
    } else {
      EXPECT_TRUE(s.IsNotSupported()) << s;
      EXPECT_EQ(store, nullptr);
    }
  }
  Options o;
  o.compression = Compression::kNone;
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
}

TEST_F(ApiTest, EmptyOrNullKeyIsInvalidArgumentEverywhere) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  ASSERT_OK(store_->Put("k", "v"));
  const std::string_view empty;
  const std::string_view null_key(nullptr, 3);
  for (std::string_view key : {empty, std::string_view("")}) {
    EXPECT_TRUE(store_->Put(key, "v").IsInvalidArgument());
    EXPECT_TRUE(store_->Delete(key).IsInvalidArgument());
    ExpectEveryStrategy(ReadOptions(), key, Status::Code::kInvalidArgument);
  }
  EXPECT_TRUE(store_->Put(null_key, "v").IsInvalidArgument());
  EXPECT_TRUE(store_->Delete(null_key).IsInvalidArgument());
  ExpectEveryStrategy(ReadOptions(), null_key, Status::Code::kInvalidArgument);
  char buf[8];
  size_t size = 99;
  EXPECT_TRUE(store_->GetInto(ReadOptions(), null_key, buf, sizeof(buf), &size)
                  .IsInvalidArgument());
  EXPECT_EQ(size, 0u);

  // One bad key fails the whole batch call, before anything is read.
  const std::string_view keys[] = {"k", empty, "k"};
  char bufs[3][8];
  Buffer buffers[3] = {{bufs[0], 8}, {bufs[1], 8}, {bufs[2], 8}};
  size_t sizes[3] = {7, 7, 7};
  Status statuses[3];
  EXPECT_TRUE(
      store_->MultiGetInto(ReadOptions(), 3, keys, buffers, sizes, statuses)
          .IsInvalidArgument());
  PinnedBatch batch;
  EXPECT_TRUE(store_->MultiGetPinned(ReadOptions(), 3, keys, &batch)
                  .IsInvalidArgument());
  EXPECT_EQ(batch.size(), 0u);
  ExpectEveryStrategyReads(ReadOptions(), "k", "v");
}

TEST_F(ApiTest, NullBufferWithNonZeroCapacityIsInvalidArgument) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  ASSERT_OK(store_->Put("k", "value"));
  size_t size = 99;
  EXPECT_TRUE(store_->GetInto(ReadOptions(), "k", nullptr, 5, &size)
                  .IsInvalidArgument());
  EXPECT_EQ(size, 0u);
  // A size query is the one valid use of a null buffer.
  ASSERT_OK(store_->GetInto(ReadOptions(), "k", nullptr, 0, &size));
  EXPECT_EQ(size, 5u);

  const std::string_view keys[] = {"k", "k"};
  char buf[8];
  Buffer buffers[2] = {{buf, sizeof(buf)}, {nullptr, 5}};
  size_t sizes[2];
  Status statuses[2];
  EXPECT_TRUE(
      store_->MultiGetInto(ReadOptions(), 2, keys, buffers, sizes, statuses)
          .IsInvalidArgument());

  // A null value with a non-zero size is not written; an empty one is.
  EXPECT_TRUE(
      store_->Put("k", std::string_view(nullptr, 4)).IsInvalidArgument());
  ExpectEveryStrategyReads(ReadOptions(), "k", "value");
  ASSERT_OK(store_->Put("k", std::string_view()));
  ExpectEveryStrategyReads(ReadOptions(), "k", "");
}

TEST_F(ApiTest, NullOutParametersAreInvalidArgument) {
  Options o;
  o.column_families = {"cf"};
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  ASSERT_OK(store_->Put("k", "v"));
  const ReadOptions ro;
  EXPECT_TRUE(store_->GetString(ro, "k", nullptr).IsInvalidArgument());
  char buf[4];
  EXPECT_TRUE(store_->GetInto(ro, "k", buf, 4, nullptr).IsInvalidArgument());
  EXPECT_TRUE(store_->GetPinned(ro, "k", nullptr).IsInvalidArgument());
  const std::string_view key = "k";
  Buffer buffer{buf, 4};
  size_t size;
  Status status;
  EXPECT_TRUE(store_->MultiGetInto(ro, 1, nullptr, &buffer, &size, &status)
                  .IsInvalidArgument());
  EXPECT_TRUE(store_->MultiGetInto(ro, 1, &key, nullptr, &size, &status)
                  .IsInvalidArgument());
  EXPECT_TRUE(store_->MultiGetInto(ro, 1, &key, &buffer, nullptr, &status)
                  .IsInvalidArgument());
  EXPECT_TRUE(store_->MultiGetInto(ro, 1, &key, &buffer, &size, nullptr)
                  .IsInvalidArgument());
  PinnedBatch batch;
  EXPECT_TRUE(
      store_->MultiGetPinned(ro, 1, nullptr, &batch).IsInvalidArgument());
  EXPECT_TRUE(store_->MultiGetPinned(ro, 1, &key, nullptr).IsInvalidArgument());
  EXPECT_TRUE(store_->GetSnapshot(nullptr).IsInvalidArgument());
  EXPECT_TRUE(store_->ColumnFamilyId("cf", nullptr).IsInvalidArgument());
  EXPECT_TRUE(
      store_->GetProperty(0, "rocksdb.stats", nullptr).IsInvalidArgument());
  // Empty batches read nothing and succeed.
  EXPECT_OK(store_->MultiGetInto(ro, 0, nullptr, nullptr, nullptr, nullptr));
  EXPECT_OK(store_->MultiGetPinned(ro, 0, nullptr, &batch));
  EXPECT_EQ(batch.size(), 0u);
}

TEST_F(ApiTest, UnknownColumnFamilyIdIsInvalidArgument) {
  Options o;
  o.column_families = {"one", "two"};
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  uint32_t id = 99;
  ASSERT_OK(store_->ColumnFamilyId("default", &id));
  EXPECT_EQ(id, 0u);
  ASSERT_OK(store_->ColumnFamilyId("one", &id));
  EXPECT_EQ(id, 1u);
  ASSERT_OK(store_->ColumnFamilyId("two", &id));
  EXPECT_EQ(id, 2u);
  EXPECT_TRUE(store_->ColumnFamilyId("three", &id).IsNotFound());
  EXPECT_TRUE(store_->ColumnFamilyId("", &id).IsNotFound());

  const WriteOptions wo;
  for (uint32_t bad : {3u, 1000u, 0xffffffffu}) {
    SCOPED_TRACE(bad);
    EXPECT_TRUE(store_->Put(wo, bad, "k", "v").IsInvalidArgument());
    EXPECT_TRUE(store_->Delete(wo, bad, "k").IsInvalidArgument());
    EXPECT_TRUE(store_->Flush(bad).IsInvalidArgument());
    EXPECT_TRUE(store_->Compact(bad).IsInvalidArgument());
    std::string v;
    EXPECT_TRUE(
        store_->GetProperty(bad, "rocksdb.stats", &v).IsInvalidArgument());
    ReadOptions ro;
    ro.column_family = bad;
    ExpectEveryStrategy(ro, "k", Status::Code::kInvalidArgument);
  }
}

TEST_F(ApiTest, ClosedStoreReturnsClosedAndDoubleCloseIsOk) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  ASSERT_OK(store_->Put("k", "v"));
  ASSERT_OK(store_->Close());
  EXPECT_TRUE(store_->closed());
  EXPECT_OK(store_->Close());
  EXPECT_TRUE(store_->closed());
  EXPECT_TRUE(store_->Put("k", "v").IsClosed());
  ExpectEveryStrategy(ReadOptions(), "k", Status::Code::kClosed);
  // The database itself is closed: the path opens again.
  std::unique_ptr<Store> again;
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options(), "db", &again));
}

TEST_F(ApiTest, WriteBatchIsAllOrNothing) {
  Options o;
  o.column_families = {"cf"};
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  ASSERT_OK(store_->Put("a", "old-a"));
  ASSERT_OK(store_->Put("gone", "still here"));

  auto valid_ops = [](WriteBatch* b) {
    b->Put("a", "new-a");
    b->Put(1, "b", "new-b");
    b->Delete("gone");
  };
  WriteBatch empty_key, bad_family, null_value, null_key, null_delete;
  valid_ops(&empty_key);
  empty_key.Put("", "x");
  valid_ops(&bad_family);
  bad_family.Put(7, "c", "x");
  valid_ops(&null_value);
  null_value.Put("c", std::string_view(nullptr, 2));
  valid_ops(&null_key);
  null_key.Put(std::string_view(nullptr, 2), "x");
  valid_ops(&null_delete);
  null_delete.Delete(std::string_view(nullptr, 1));
  for (WriteBatch* b :
       {&empty_key, &bad_family, &null_value, &null_key, &null_delete}) {
    EXPECT_EQ(b->Count(), 4u);
    EXPECT_TRUE(store_->Write(WriteOptions(), *b).IsInvalidArgument());
    ExpectEveryStrategyReads(ReadOptions(), "a", "old-a");
    ExpectEveryStrategyReads(ReadOptions(), "gone", "still here");
    ReadOptions cf;
    cf.column_family = 1;
    ExpectEveryStrategy(cf, "b", Status::Code::kNotFound);
  }

  WriteBatch good;
  valid_ops(&good);
  ASSERT_OK(store_->Write(WriteOptions(), good));
  ExpectEveryStrategyReads(ReadOptions(), "a", "new-a");
  ExpectEveryStrategy(ReadOptions(), "gone", Status::Code::kNotFound);
  ReadOptions cf;
  cf.column_family = 1;
  ExpectEveryStrategyReads(cf, "b", "new-b");
  ExpectEveryStrategy(ReadOptions(), "b", Status::Code::kNotFound);

  good.Clear();
  EXPECT_EQ(good.Count(), 0u);
  EXPECT_OK(store_->Write(WriteOptions(), good));
  ExpectEveryStrategyReads(ReadOptions(), "a", "new-a");
}

TEST_F(ApiTest, WriteOptionsAreAccepted) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  WriteOptions sync;
  sync.sync = true;
  WriteOptions no_wal;
  no_wal.disable_wal = true;
  ASSERT_OK(store_->Put(sync, 0, "s", "synced"));
  ASSERT_OK(store_->Put(no_wal, 0, "n", "no wal"));
  ASSERT_OK(store_->Delete(sync, 0, "s"));
  ExpectEveryStrategy(ReadOptions(), "s", Status::Code::kNotFound);
  ExpectEveryStrategyReads(ReadOptions(), "n", "no wal");
}

uint64_t IntProperty(Store* store, uint32_t cf, const char* name) {
  std::string v;
  const Status s = store->GetProperty(cf, name, &v);
  EXPECT_TRUE(s.ok()) << name << ": " << s;
  return std::stoull(v);
}

TEST_F(ApiTest, FlushMovesMemtableToSstAndCompactMergesFiles) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 10; ++i) {
      const std::string key = "key" + std::to_string(i);
      ASSERT_OK(store_->Put(key, MakeValue(key, 100, round)));
    }
    EXPECT_EQ(
        IntProperty(store_.get(), 0, "rocksdb.num-entries-active-mem-table"),
        10u);
    ASSERT_OK(store_->Flush());
    EXPECT_EQ(
        IntProperty(store_.get(), 0, "rocksdb.num-entries-active-mem-table"),
        0u);
    EXPECT_EQ(IntProperty(store_.get(), 0, "rocksdb.num-files-at-level0"),
              static_cast<uint64_t>(round + 1));
  }
  ASSERT_OK(store_->Compact());
  EXPECT_EQ(IntProperty(store_.get(), 0, "rocksdb.num-files-at-level0"), 0u);
  // Only the latest round survives compaction.
  EXPECT_EQ(IntProperty(store_.get(), 0, "rocksdb.estimate-num-keys"), 10u);
  for (int i = 0; i < 10; ++i) {
    const std::string key = "key" + std::to_string(i);
    ExpectEveryStrategyReads(ReadOptions(), key, MakeValue(key, 100, 2));
  }
  // Flushing an empty memtable is fine.
  EXPECT_OK(store_->Flush());
  EXPECT_OK(store_->Compact());
}

TEST_F(ApiTest, GetProperty) {
  Options o;
  o.column_families = {"cf"};
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  ASSERT_OK(store_->Put(WriteOptions(), 1, "k", "v"));
  std::string v = "stale";
  ASSERT_OK(store_->GetProperty(0, "rocksdb.stats", &v));
  EXPECT_NE(v.find("Compaction Stats"), std::string::npos) << v;
  EXPECT_EQ(
      IntProperty(store_.get(), 0, "rocksdb.num-entries-active-mem-table"), 0u);
  EXPECT_EQ(
      IntProperty(store_.get(), 1, "rocksdb.num-entries-active-mem-table"), 1u);
  EXPECT_TRUE(
      store_->GetProperty(0, "rocksdb.no-such-property", &v).IsNotFound());
  EXPECT_TRUE(store_->GetProperty(0, "", &v).IsNotFound());
}

TEST_F(ApiTest, SnapshotFromAnotherStoreIsInvalidArgument) {
  std::unique_ptr<Store> other;
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options(), "other", &other));
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  ASSERT_OK(store_->Put("k", "v"));
  ASSERT_OK(other->Put("k", "other"));
  std::unique_ptr<pinget::Snapshot> foreign;
  ASSERT_OK(other->GetSnapshot(&foreign));
  ASSERT_NE(foreign, nullptr);
  ReadOptions ro;
  ro.snapshot = foreign.get();
  ExpectEveryStrategy(ro, "k", Status::Code::kInvalidArgument);
  std::unique_ptr<pinget::Snapshot> own;
  ASSERT_OK(store_->GetSnapshot(&own));
  ro.snapshot = own.get();
  ExpectEveryStrategyReads(ro, "k", "v");
}

TEST_F(ApiTest, ReopenSeesDataAndColumnFamilies) {
  Options o;
  o.column_families = {"one", "two"};
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  ASSERT_OK(store_->Put(WriteOptions(), 0, "k", "zero"));
  ASSERT_OK(store_->Put(WriteOptions(), 1, "k", "one"));
  ASSERT_OK(store_->Put(WriteOptions(), 2, "k", "two"));
  ASSERT_OK(store_->Put("flushed", "on disk"));
  ASSERT_OK(store_->Flush());
  ASSERT_OK(store_->Put("deleted", "x"));
  ASSERT_OK(store_->Delete("deleted"));
  ASSERT_OK(store_->Close());
  store_.reset();

  // Named in another order: ids follow the order given.
  o.column_families = {"two", "one"};
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  ReadOptions ro;
  ExpectEveryStrategyReads(ro, "k", "zero");
  ExpectEveryStrategyReads(ro, "flushed", "on disk");
  ExpectEveryStrategy(ro, "deleted", Status::Code::kNotFound);
  ro.column_family = 1;
  ExpectEveryStrategyReads(ro, "k", "two");
  ro.column_family = 2;
  ExpectEveryStrategyReads(ro, "k", "one");
  ASSERT_OK(store_->Close());
  store_.reset();

  // Not named: families on disk are still opened, after the named ones.
  o.column_families = {"two"};
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  uint32_t id = 0;
  ASSERT_OK(store_->ColumnFamilyId("two", &id));
  EXPECT_EQ(id, 1u);
  ASSERT_OK(store_->ColumnFamilyId("one", &id));
  EXPECT_EQ(id, 2u);
  ro.column_family = id;
  ExpectEveryStrategyReads(ro, "k", "one");
}

TEST_F(ApiTest, ColumnFamiliesAreIsolated) {
  Options o;
  o.column_families = {"one", "two"};
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  const WriteOptions wo;
  ASSERT_OK(store_->Put(wo, 0, "shared", "in default"));
  ASSERT_OK(store_->Put(wo, 1, "shared", "in one"));
  ASSERT_OK(store_->Put(wo, 1, "only-one", "1"));
  ASSERT_OK(store_->Flush(1));
  ASSERT_OK(store_->Delete(wo, 0, "shared"));
  ReadOptions ro;
  ExpectEveryStrategy(ro, "shared", Status::Code::kNotFound);
  ExpectEveryStrategy(ro, "only-one", Status::Code::kNotFound);
  ro.column_family = 1;
  ExpectEveryStrategyReads(ro, "shared", "in one");
  ExpectEveryStrategyReads(ro, "only-one", "1");
  ro.column_family = 2;
  ExpectEveryStrategy(ro, "shared", Status::Code::kNotFound);
  EXPECT_EQ(IntProperty(store_.get(), 1, "rocksdb.num-files-at-level0"), 1u);
  EXPECT_EQ(IntProperty(store_.get(), 0, "rocksdb.num-files-at-level0"), 0u);
}

TEST_F(ApiTest, NoBlockCacheStillReads) {
  Options o;
  o.block_cache_bytes = 0;
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  const std::string value = MakeValue("k", 10000, 1);
  ASSERT_OK(store_->Put("k", value));
  ASSERT_OK(store_->Flush());
  ExpectEveryStrategyReads(ReadOptions(), "k", value);
  PinnedValue pinned;
  ASSERT_OK(store_->GetPinned(ReadOptions(), "k", &pinned));
  EXPECT_FALSE(pinned.pinned_in_cache());
}

TEST_F(ApiTest, StatusToString) {
  EXPECT_EQ(Status::OK().ToString(), "OK");
  EXPECT_EQ(Status::NotFound().ToString(), "NotFound");
  EXPECT_TRUE(Status::NotFound().message().empty());
  EXPECT_EQ(Status::InvalidArgument("bad").ToString(), "InvalidArgument: bad");
  EXPECT_EQ(Status::Closed("gone").ToString(), "Closed: gone");
  EXPECT_TRUE(Status::Closed("x").IsClosed());
  EXPECT_EQ(Status::Busy("b").code(), Status::Code::kBusy);
  EXPECT_STREQ(pinget::StatusCodeName(Status::Code::kIOError), "IOError");
  EXPECT_STREQ(pinget::StatusCodeName(Status::Code::kUnknown), "Unknown");
}

}  // namespace
}  // namespace pinget_test
