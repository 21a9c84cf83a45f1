// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// ReadOptions::pin_memtable: a memtable hit pinned in place (0 copies), and
// every key state read exactly as RocksDB's Get reads it: a randomized model
// check over puts, deletes, range deletes, wide-column entities, flushes,
// compactions, snapshots and two column families, on a database opened with
// RocksDB's own API and borrowed (pinget's writes have no range delete).

#include <rocksdb/db.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/wide_columns.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "rocksdb_compat.h"
#include "test_util.h"

namespace pinget_test {
namespace {

using pinget::PinnedValue;
using pinget::ReadOptions;
using pinget::Status;
using pinget::Store;

std::string Key(int i) { return "key" + std::to_string(1000 + i); }

TEST(PinMemtableTest, AMemtableHitIsPinnedNotCopied) {
  TempDir dir;
  std::unique_ptr<Store> store;
  ASSERT_OK(Store::Open(dir.Sub("db"), pinget::Options(), &store));
  const std::string big(64 * kKiB, 'v');
  ASSERT_OK(store->Put("recent", big));
  ASSERT_OK(store->Put("old", "flushed"));
  ASSERT_OK(store->Flush());
  ASSERT_OK(store->Put("recent2", big));
  ReadOptions pin;
  pin.pin_memtable = true;
  PinnedValue value;
  for (int round = 0; round < 3; ++round) {
    pinget::ResetCopyStats();
    ASSERT_OK(store->GetPinned(pin, "recent2", &value));
    EXPECT_EQ(value.view(), big);
    EXPECT_TRUE(value.pinned_in_cache()) << "RocksDB's memory";
    EXPECT_EQ(pinget::GetCopyStats().value_copies, 0u) << round;
    // A value in an SST file: the probe misses, Get pins the block.
    ASSERT_OK(store->GetPinned(pin, "old", &value));
    EXPECT_EQ(value.view(), "flushed");
    EXPECT_EQ(pinget::GetCopyStats().value_copies, 0u) << round;
    EXPECT_TRUE(store->GetPinned(pin, "absent", &value).IsNotFound());
    EXPECT_FALSE(value.holds_value());
  }
  // Without the option, RocksDB's Get copies the memtable hit: P = 1.
  pinget::ResetCopyStats();
  ASSERT_OK(store->GetPinned(ReadOptions(), "recent2", &value));
  EXPECT_EQ(pinget::GetCopyStats().value_copies, 1u);
  EXPECT_FALSE(value.pinned_in_cache());
  // Writes after the probe's iterator was made are seen: it is refreshed.
  ASSERT_OK(store->Put("recent2", "rewritten"));
  ASSERT_OK(store->GetPinned(pin, "recent2", &value));
  EXPECT_EQ(value.view(), "rewritten");
  ASSERT_OK(store->Delete("recent2"));
  EXPECT_TRUE(store->GetPinned(pin, "recent2", &value).IsNotFound());
  // The pinned bytes outlive a flush and a compaction until the next get.
  ASSERT_OK(store->GetPinned(pin, "recent", &value));
  ASSERT_OK(store->Flush());
  ASSERT_OK(store->Compact());
  EXPECT_EQ(value.view(), big);
  value.Release();
  ASSERT_OK(store->Close());
}

class Concat : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing,
             const rocksdb::Slice& v, std::string* out,
             rocksdb::Logger*) const override {
    *out = existing == nullptr ? v.ToString()
                               : existing->ToString() + "," + v.ToString();
    return true;
  }
  const char* Name() const override { return "Concat"; }
};

// One view read through snapshot after snapshot, each released before the
// next is taken (the allocator may give the next the same address): each
// read sees its own snapshot's value.
TEST(PinMemtableTest, EachSnapshotReadsItsOwnValue) {
  TempDir dir;
  std::unique_ptr<Store> store;
  ASSERT_OK(Store::Open(dir.Sub("db"), pinget::Options(), &store));
  PinnedValue value;
  for (int i = 0; i < 50; ++i) {
    const std::string v = "value" + std::to_string(i);
    ASSERT_OK(store->Put("k", v));
    std::unique_ptr<pinget::Snapshot> snapshot;
    ASSERT_OK(store->GetSnapshot(&snapshot));
    ASSERT_OK(store->Put("k", "after"));
    ReadOptions pin;
    pin.pin_memtable = true;
    pin.snapshot = snapshot.get();
    ASSERT_OK(store->GetPinned(pin, "k", &value));
    EXPECT_EQ(value.view(), v) << i;
  }
}

// A family with a merge operator: read as usual (the probe is skipped), the
// merge result copied and counted.
TEST(PinMemtableTest, AFamilyWithAMergeOperatorIsReadAsUsual) {
  TempDir dir;
  rocksdb::Options o;
  o.create_if_missing = true;
  o.merge_operator = std::make_shared<Concat>();
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(pinget::internal::OpenDB(rocksdb::DBOptions(o), dir.Sub("db"),
                                       {{rocksdb::kDefaultColumnFamilyName,
                                         rocksdb::ColumnFamilyOptions(o)}},
                                       &handles, &db)
                  .ok());
  ASSERT_TRUE(db->Put({}, "m", "a").ok());
  ASSERT_TRUE(db->Flush({}).ok());
  ASSERT_TRUE(db->Merge({}, "m", "b").ok());  // base in the file, operand here
  {
    std::unique_ptr<Store> store;
    ASSERT_OK(Store::Borrow(db.get(), {}, &store));
    ReadOptions pin;
    pin.pin_memtable = true;
    PinnedValue value;
    pinget::ResetCopyStats();
    ASSERT_OK(store->GetPinned(pin, "m", &value));
    EXPECT_EQ(value.view(), "a,b") << "the base in the file, merged";
    EXPECT_EQ(pinget::GetCopyStats().value_copies, 1u);
  }
  for (auto* h : handles) db->DestroyColumnFamilyHandle(h);
  ASSERT_TRUE(db->Close().ok());
}

// A borrowed database whose owner closes it while a handle that read with
// pin_memtable is idle (its last get found nothing): the handle holds
// nothing of it, and is destroyed afterwards without touching the closed
// database.
TEST(PinMemtableTest, AnIdleHandleHoldsNothingOfABorrowedDatabase) {
  TempDir dir;
  rocksdb::Options o;
  o.create_if_missing = true;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(pinget::internal::OpenDB(rocksdb::DBOptions(o), dir.Sub("db"),
                                       {{rocksdb::kDefaultColumnFamilyName,
                                         rocksdb::ColumnFamilyOptions(o)}},
                                       &handles, &db)
                  .ok());
  ASSERT_TRUE(db->Put({}, "flushed", "f").ok());
  ASSERT_TRUE(db->Flush({}).ok());
  ASSERT_TRUE(db->Put({}, "recent", "r").ok());
  ReadOptions pin;
  pin.pin_memtable = true;
  PinnedValue value;
  {
    std::unique_ptr<Store> store;
    ASSERT_OK(Store::Borrow(db.get(), {}, &store));
    ASSERT_OK(store->GetPinned(pin, "recent", &value));  // a memtable hit
    EXPECT_EQ(value.view(), "r");
    ASSERT_OK(store->GetPinned(pin, "flushed", &value));  // read by Get
    EXPECT_EQ(value.view(), "f");
    EXPECT_TRUE(store->GetPinned(pin, "absent", &value).IsNotFound());
    ASSERT_OK(store->Close());
  }
  for (auto* h : handles) db->DestroyColumnFamilyHandle(h);
  ASSERT_TRUE(db->Close().ok());
  db.reset();
  // value goes out of scope here, after its database.
}

// Every key, every way of reading, after random writes: pin_memtable reads
// what Get reads.
TEST(PinMemtableTest, ReadsWhatGetReadsInEveryKeyState) {
  TempDir dir;
  rocksdb::Options o;
  o.create_if_missing = true;
  o.create_missing_column_families = true;
  o.write_buffer_size = 64 << 10;  // small memtables: flushes happen too
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(
      pinget::internal::OpenDB(
          rocksdb::DBOptions(o), dir.Sub("db"),
          {{rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions(o)},
           {"cf1", rocksdb::ColumnFamilyOptions(o)}},
          &handles, &db)
          .ok());
  {
    std::unique_ptr<Store> store;
    ASSERT_OK(Store::Borrow(db.get(), {handles[1]}, &store));
    std::mt19937 random(20261201);
    const int kKeys = 60;
    std::vector<std::unique_ptr<pinget::Snapshot>> snapshots;
    // One handle per family for the latest data, kept across steps (so that
    // its probe's iterator must see the writes made since), one for the
    // snapshots' reads, and one for plain Get.
    PinnedValue latest[2], as_of, plain;
    int checked = 0, memtable_hits = 0, latest_hits = 0;
    for (int step = 0; step < 600; ++step) {
      const uint32_t cf = random() % 2;
      rocksdb::ColumnFamilyHandle* h = handles[cf];
      const int k = random() % kKeys;
      const std::string value(1 + random() % 3000,
                              static_cast<char>('a' + step % 26));
      switch (random() % 12) {
        case 0:
        case 1:
        case 2:
        case 3:
          ASSERT_TRUE(db->Put({}, h, Key(k), value).ok());
          break;
        case 4:
        case 5:
          ASSERT_TRUE(db->Delete({}, h, Key(k)).ok());
          break;
        case 6:
          ASSERT_TRUE(
              db->DeleteRange({}, h, Key(k), Key(k + 1 + random() % 8)).ok());
          break;
        case 7: {
          rocksdb::WideColumns columns{{rocksdb::kDefaultWideColumnName, value},
                                       {"other", "x"}};
          ASSERT_TRUE(db->PutEntity({}, h, Key(k), columns).ok());
          break;
        }
        case 8:
          ASSERT_TRUE(db->Flush({}, h).ok());
          break;
        case 9:
          if (step % 5 == 0) {
            ASSERT_TRUE(db->CompactRange({}, h, nullptr, nullptr).ok());
          }
          break;
        case 10:
          snapshots.emplace_back();
          ASSERT_OK(store->GetSnapshot(&snapshots.back()));
          if (snapshots.size() > 4) snapshots.erase(snapshots.begin());
          break;
        default:
          break;
      }
      if (step % 20 != 0) continue;
      // Every key, in both families, now and as of every snapshot.
      std::vector<const pinget::Snapshot*> views = {nullptr};
      for (auto& s : snapshots) views.push_back(s.get());
      for (const pinget::Snapshot* view : views) {
        for (uint32_t family = 0; family < 2; ++family) {
          for (int key = 0; key < kKeys + 5; ++key) {
            ReadOptions ro;
            ro.column_family = family;
            ro.snapshot = view;
            ReadOptions pin = ro;
            pin.pin_memtable = true;
            PinnedValue& pinned = view == nullptr ? latest[family] : as_of;
            pinget::ResetCopyStats();
            const Status a = store->GetPinned(pin, Key(key), &pinned);
            const uint64_t copies = pinget::GetCopyStats().value_copies;
            const Status b = store->GetPinned(ro, Key(key), &plain);
            ASSERT_EQ(a.code(), b.code())
                << Key(key) << " cf " << family << ": " << a << " vs " << b;
            if (a.ok()) {
              ASSERT_EQ(pinned.view(), plain.view()) << Key(key);
              // The counters say 0 exactly when nothing was copied.
              EXPECT_EQ(copies == 0, pinned.pinned_in_cache()) << Key(key);
              if (pinned.pinned_in_cache() && !plain.pinned_in_cache()) {
                memtable_hits++;  // Get copied it; the probe pinned it
                if (view == nullptr) latest_hits++;
              }
            }
            checked++;
          }
        }
      }
    }
    EXPECT_GT(memtable_hits, 100) << "the check saw memtable hits";
    // The latest data's handles were made at the first check, before any
    // write: their hits prove that the probe sees later writes.
    EXPECT_GT(latest_hits, 50);
    EXPECT_GT(checked, 5000);
  }
  for (auto* h : handles) db->DestroyColumnFamilyHandle(h);
  ASSERT_TRUE(db->Close().ok());
}

}  // namespace
}  // namespace pinget_test
