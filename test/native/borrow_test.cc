// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Store::Borrow: pinget's strategies over a rocksdb::DB that someone else
// opened and owns (RocksJava, in production; RocksDB's own C++ API here).

#include <rocksdb/db.h>
#include <rocksdb/merge_operator.h>

#include <memory>
#include <string>
#include <vector>

#include "rocksdb_compat.h"  // OpenDB on every supported RocksDB release
#include "test_util.h"

namespace pinget_test {
namespace {

using pinget::CopyStats;
using pinget::PinnedValue;
using pinget::ReadOptions;
using pinget::Snapshot;
using pinget::Status;
using pinget::Store;

class BorrowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    rocksdb::Options o;
    o.create_if_missing = true;
    o.create_missing_column_families = true;
    std::vector<rocksdb::ColumnFamilyDescriptor> families = {
        {rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions(o)},
        {"cf1", rocksdb::ColumnFamilyOptions(o)}};
    ASSERT_TRUE(pinget::internal::OpenDB(rocksdb::DBOptions(o), dir_.Sub("db"),
                                         families, &handles_, &db_)
                    .ok());
  }

  void TearDown() override {
    for (rocksdb::ColumnFamilyHandle* h : handles_) {
      db_->DestroyColumnFamilyHandle(h);
    }
    ASSERT_TRUE(db_->Close().ok());
  }

  TempDir dir_;
  std::unique_ptr<rocksdb::DB> db_;  // the owner's
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
};

TEST_F(BorrowTest, ReadsTheOwnersDatabaseWithEveryStrategyAndLetsItGo) {
  const std::string v0 = MakeValue("k", 4096, 0);
  const std::string v1 = MakeValue("k", 100, 1);
  ASSERT_TRUE(db_->Put({}, handles_[0], "k", v0).ok());
  ASSERT_TRUE(db_->Put({}, handles_[1], "k", v1).ok());
  ASSERT_TRUE(db_->Flush({}, handles_[0]).ok());

  std::unique_ptr<Store> store;
  ASSERT_OK(Store::Borrow(db_.get(), {handles_[1]}, &store));
  uint32_t id = 99;
  ASSERT_OK(store->ColumnFamilyId("cf1", &id));
  EXPECT_EQ(id, 1u);
  ReadOptions cf1;
  cf1.column_family = 1;
  for (Strategy s : kAllStrategies) {
    ReadResult r = ReadWith(store.get(), s, ReadOptions(), "k");
    EXPECT_OK(r.status);
    EXPECT_EQ(r.bytes, v0) << StrategyName(s);
    r = ReadWith(store.get(), s, cf1, "k");
    EXPECT_OK(r.status);
    EXPECT_EQ(r.bytes, v1) << StrategyName(s);
  }
  // The same copy counts as on a store pinget opened: the flushed value is
  // pinned from the block cache after its first read (P = 0).
  PinnedValue pinned;
  ASSERT_OK(store->GetPinned(ReadOptions(), "k", &pinned));
  pinget::ResetCopyStats();
  ASSERT_OK(store->GetPinned(ReadOptions(), "k", &pinned));
  EXPECT_EQ(pinget::GetCopyStats().value_copies, 0u);
  EXPECT_TRUE(pinned.pinned_in_cache());

  // Close lets go: pins stay valid, and the owner's database stays open.
  ASSERT_OK(store->Close());
  EXPECT_EQ(pinned.view(), v0);
  pinned.Release();
  store.reset();
  std::string got;
  ASSERT_TRUE(db_->Get({}, handles_[1], "k", &got).ok());
  EXPECT_EQ(got, v1);
}

TEST_F(BorrowTest, ABorrowedSnapshotReadsAsOfItAndIsNotReleased) {
  ASSERT_TRUE(db_->Put({}, "k", "old").ok());
  const rocksdb::Snapshot* taken = db_->GetSnapshot();
  ASSERT_TRUE(db_->Put({}, "k", "new").ok());
  std::unique_ptr<Store> store;
  ASSERT_OK(Store::Borrow(db_.get(), {}, &store));
  {
    std::unique_ptr<Snapshot> snapshot;
    ASSERT_OK(store->BorrowSnapshot(taken, &snapshot));
    ReadOptions then;
    then.snapshot = snapshot.get();
    for (Strategy s : kAllStrategies) {
      const ReadResult r = ReadWith(store.get(), s, then, "k");
      EXPECT_EQ(r.bytes, "old") << StrategyName(s);
    }
  }
  // ~Snapshot did not release it: the owner still reads through it.
  rocksdb::ReadOptions ro;
  ro.snapshot = taken;
  std::string got;
  ASSERT_TRUE(db_->Get(ro, "k", &got).ok());
  EXPECT_EQ(got, "old");
  db_->ReleaseSnapshot(taken);
}

TEST_F(BorrowTest, NullArgumentsAreInvalid) {
  std::unique_ptr<Store> store;
  EXPECT_TRUE(Store::Borrow(nullptr, {}, &store).IsInvalidArgument());
  EXPECT_TRUE(Store::Borrow(db_.get(), {nullptr}, &store).IsInvalidArgument());
  EXPECT_TRUE(Store::Borrow(db_.get(), {}, nullptr).IsInvalidArgument());
  EXPECT_EQ(store, nullptr);
  ASSERT_OK(Store::Borrow(db_.get(), {}, &store));
  std::unique_ptr<Snapshot> snapshot;
  EXPECT_TRUE(store->BorrowSnapshot(nullptr, &snapshot).IsInvalidArgument());
  ASSERT_OK(store->Close());
  const rocksdb::Snapshot* taken = db_->GetSnapshot();
  EXPECT_TRUE(store->BorrowSnapshot(taken, &snapshot).IsClosed());
  db_->ReleaseSnapshot(taken);
}

// A family whose values RocksDB may compute (a merge operator): a cursor asks
// the iterator about each value and copies (and counts) those it computed;
// plain values of the same family are still read in place.
class ConcatOperator : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing,
             const rocksdb::Slice& value, std::string* out,
             rocksdb::Logger*) const override {
    *out = existing == nullptr ? value.ToString()
                               : existing->ToString() + "+" + value.ToString();
    return true;
  }
  const char* Name() const override { return "Concat"; }
};

// Whether db's iterators answer "rocksdb.iterator.is-value-pinned" (RocksDB
// 8.x and later; Debian's 7.8.3 does not).
bool EngineTellsPinnedValues(rocksdb::DB* db) {
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator({}));
  it->SeekToFirst();
  std::string answer;
  return it->Valid() &&
         it->GetProperty("rocksdb.iterator.is-value-pinned", &answer).ok();
}

TEST(BorrowCursorTest, ValuesRocksDBComputesAreCopiedAndCounted) {
  TempDir dir;
  rocksdb::Options o;
  o.create_if_missing = true;
  o.merge_operator = std::make_shared<ConcatOperator>();
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(pinget::internal::OpenDB(rocksdb::DBOptions(o), dir.Sub("db"),
                                       {{rocksdb::kDefaultColumnFamilyName,
                                         rocksdb::ColumnFamilyOptions(o)}},
                                       &handles, &db)
                  .ok());
  ASSERT_TRUE(db->Put({}, "a", "plain").ok());
  ASSERT_TRUE(db->Merge({}, "b", "x").ok());
  ASSERT_TRUE(db->Merge({}, "b", "y").ok());
  {
    std::unique_ptr<Store> store;
    ASSERT_OK(Store::Borrow(db.get(), {}, &store));
    std::unique_ptr<pinget::Cursor> cursor;
    ASSERT_OK(store->NewCursor({}, &cursor));
    ASSERT_OK(cursor->SeekToFirst());
    pinget::ResetCopyStats();
    ASSERT_OK(cursor->Next(10));
    ASSERT_EQ(cursor->count(), 2u);
    EXPECT_EQ(cursor->value(0), "plain");
    EXPECT_EQ(cursor->value(1), "x+y");
    EXPECT_FALSE(cursor->value_pinned(1)) << "a merge result is computed";
    if (EngineTellsPinnedValues(db.get())) {
      EXPECT_TRUE(cursor->value_pinned(0));
      EXPECT_EQ(pinget::GetCopyStats().value_copies, 1u);
      EXPECT_EQ(pinget::GetCopyStats().value_bytes_copied, 3u);
    } else {  // every value is copied, as the cursor cannot tell which is
              // pinned
      EXPECT_FALSE(cursor->value_pinned(0));
      EXPECT_EQ(pinget::GetCopyStats().value_copies, 2u);
      EXPECT_EQ(pinget::GetCopyStats().value_bytes_copied, 8u);
    }
  }
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    db->DestroyColumnFamilyHandle(h);
  }
  ASSERT_TRUE(db->Close().ok());
}

}  // namespace
}  // namespace pinget_test
