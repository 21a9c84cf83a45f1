// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Cursor: every entry in order, both ways, in batches of every size; values
// read in place (0 value copies from the block cache and the memtable);
// bounds, prefixes, seeks, snapshots, column families; the store closed under
// it; iterators remade past kRecycleBytes without a gap or a repeat, letting
// go of what the old one pinned.

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace pinget_test {
namespace {

using pinget::CopyStats;
using pinget::Cursor;
using pinget::CursorOptions;
using pinget::Options;
using pinget::Status;

std::string Key(int i) {
  char text[16];
  std::snprintf(text, sizeof(text), "k%05d", i);
  return text;
}

class CursorTest : public StoreTest,
                   public ::testing::WithParamInterface<Residency> {
 protected:
  // n entries: Key(i) -> MakeValue(Key(i), size, 1), in the residency.
  std::map<std::string, std::string> Fill(int n, size_t size) {
    std::map<std::string, std::string> model;
    std::vector<std::pair<std::string, std::string>> pairs;
    for (int i = 0; i < n; ++i) {
      pairs.emplace_back(Key(i), MakeValue(Key(i), size, 1));
      model[Key(i)] = pairs.back().second;
    }
    EXPECT_OK(WriteResident(store_.get(), GetParam(), 0, pairs));
    return model;
  }

  static std::unique_ptr<Cursor> Make(pinget::Store* store,
                                      const CursorOptions& o = {}) {
    std::unique_ptr<Cursor> c;
    EXPECT_OK(store->NewCursor(o, &c));
    return c;
  }

  // Every entry from the position, batch by batch, with Next (or Prev).
  static std::vector<std::pair<std::string, std::string>> Drain(
      Cursor* c, size_t batch, bool forward = true) {
    std::vector<std::pair<std::string, std::string>> out;
    for (;;) {
      Status st = forward ? c->Next(batch) : c->Prev(batch);
      EXPECT_OK(st);
      if (!st.ok() || c->count() == 0) return out;
      EXPECT_LE(c->count(), batch);
      for (size_t i = 0; i < c->count(); ++i) {
        out.emplace_back(c->key(i), c->value(i));
      }
    }
  }
};

TEST_P(CursorTest, ScansEveryEntryBothWaysInBatchesWithoutValueCopies) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions()));
  std::map<std::string, std::string> model = Fill(300, 200);
  std::vector<std::pair<std::string, std::string>> forward(model.begin(),
                                                           model.end());
  std::vector<std::pair<std::string, std::string>> backward(forward.rbegin(),
                                                            forward.rend());
  for (size_t batch : {size_t{1}, size_t{7}, size_t{256}, size_t{1000}}) {
    SCOPED_TRACE(batch);
    std::unique_ptr<Cursor> c = Make(store_.get());
    ASSERT_OK(c->SeekToFirst());
    pinget::ResetCopyStats();
    EXPECT_EQ(Drain(c.get(), batch), forward);
    CopyStats stats = pinget::GetCopyStats();
    EXPECT_EQ(stats.value_copies, 0u) << "values are read in place";
    EXPECT_EQ(stats.key_copies, forward.size()) << "one key copy per entry";
    EXPECT_EQ(stats.file_reads, 0u);
    ASSERT_OK(c->SeekToLast());
    EXPECT_EQ(Drain(c.get(), batch, false), backward);
  }
  std::unique_ptr<Cursor> c = Make(store_.get());
  ASSERT_OK(c->Next(5));  // no seek yet: nothing
  EXPECT_EQ(c->count(), 0u);
  ASSERT_OK(c->SeekToFirst());
  ASSERT_OK(c->Next(3));
  ASSERT_EQ(c->count(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(c->value_pinned(i));
  EXPECT_FALSE(c->value_pinned(3));
  EXPECT_TRUE(c->key(3).empty());
  ASSERT_OK(c->Prev(2));  // from the position (entry 3) back
  ASSERT_EQ(c->count(), 2u);
  EXPECT_EQ(c->key(0), Key(3));
  EXPECT_EQ(c->key(1), Key(2));
}

TEST_P(CursorTest, SeeksBoundsAndPrefixes) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions()));
  std::map<std::string, std::string> model = Fill(100, 50);
  std::vector<std::pair<std::string, std::string>> pairs = {
      {std::string("\xff\xff", 2), "a"},
      {std::string("\xff\xff\x01", 3), "b"},
      {std::string("\xfe\xff", 2), "c"}};
  ASSERT_OK(WriteResident(store_.get(), GetParam(), 0, pairs));
  std::unique_ptr<Cursor> c = Make(store_.get());
  ASSERT_OK(c->Seek("k00050"));
  ASSERT_OK(c->Next(2));
  EXPECT_EQ(c->key(0), Key(50));
  ASSERT_OK(c->Seek("k00050x"));  // between keys: the next one
  ASSERT_OK(c->Next(1));
  EXPECT_EQ(c->key(0), Key(51));
  ASSERT_OK(c->SeekForPrev("k00050x"));
  ASSERT_OK(c->Prev(1));
  EXPECT_EQ(c->key(0), Key(50));
  EXPECT_TRUE(c->Seek("").IsInvalidArgument());
  EXPECT_TRUE(c->Next(0).IsInvalidArgument());

  CursorOptions bounded;
  bounded.lower_bound = Key(10);
  bounded.upper_bound = Key(20);
  c = Make(store_.get(), bounded);
  ASSERT_OK(c->SeekToFirst());
  std::vector<std::pair<std::string, std::string>> got = Drain(c.get(), 4);
  ASSERT_EQ(got.size(), 10u);
  EXPECT_EQ(got.front().first, Key(10));
  EXPECT_EQ(got.back().first, Key(19));
  ASSERT_OK(c->SeekToLast());
  ASSERT_OK(c->Prev(100));
  EXPECT_EQ(c->count(), 10u);
  EXPECT_EQ(c->key(0), Key(19));
  ASSERT_OK(c->Seek(Key(2)));  // below the lower bound: the lower bound
  ASSERT_OK(c->Next(1));
  EXPECT_EQ(c->key(0), Key(10));

  CursorOptions prefixed;
  prefixed.prefix = "k0005";  // k00050 .. k00059
  prefixed.lower_bound = Key(53);
  c = Make(store_.get(), prefixed);
  ASSERT_OK(c->SeekToFirst());
  got = Drain(c.get(), 3);
  ASSERT_EQ(got.size(), 7u);
  EXPECT_EQ(got.front().first, Key(53));
  EXPECT_EQ(got.back().first, Key(59));
  EXPECT_EQ(got.back().second, model[Key(59)]);

  // Bounds crossed, or a prefix outside them: an empty range both ways.
  CursorOptions crossed;
  crossed.lower_bound = Key(20);
  crossed.upper_bound = Key(10);
  CursorOptions outside;
  outside.prefix = "k0009";
  outside.upper_bound = Key(50);
  for (const CursorOptions& empty : {crossed, outside}) {
    c = Make(store_.get(), empty);
    ASSERT_OK(c->SeekToFirst());
    ASSERT_OK(c->Next(10));
    EXPECT_EQ(c->count(), 0u);
    ASSERT_OK(c->SeekToLast());
    ASSERT_OK(c->Prev(10));
    EXPECT_EQ(c->count(), 0u);
    ASSERT_OK(c->Seek(Key(15)));
    ASSERT_OK(c->Next(10));
    EXPECT_EQ(c->count(), 0u);
    ASSERT_OK(c->SeekForPrev(Key(15)));
    ASSERT_OK(c->Prev(10));
    EXPECT_EQ(c->count(), 0u);
  }

  CursorOptions all_ff;
  all_ff.prefix = std::string("\xff\xff", 2);  // no key ends its range
  c = Make(store_.get(), all_ff);
  ASSERT_OK(c->SeekToFirst());
  got = Drain(c.get(), 10);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1].second, "b");
}

TEST_P(CursorTest, ReadsItsSnapshotWhileTheStoreChanges) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions()));
  std::map<std::string, std::string> model = Fill(50, 100);
  std::unique_ptr<Cursor> c = Make(store_.get());
  ASSERT_OK(c->SeekToFirst());
  ASSERT_OK(c->Next(10));
  // Overwrite, delete and add behind the cursor, then flush and compact.
  for (int i = 0; i < 50; i += 3) ASSERT_OK(store_->Put(Key(i), "new"));
  for (int i = 1; i < 50; i += 3) ASSERT_OK(store_->Delete(Key(i)));
  ASSERT_OK(store_->Put("k00010x", "added"));
  ASSERT_OK(store_->Flush());
  ASSERT_OK(store_->Compact());
  std::vector<std::pair<std::string, std::string>> rest = Drain(c.get(), 7);
  ASSERT_EQ(rest.size(), 40u);
  for (auto& [key, value] : rest) EXPECT_EQ(value, model[key]) << key;

  // With the caller's snapshot: as of it.
  std::unique_ptr<pinget::Snapshot> snapshot;
  ASSERT_OK(store_->GetSnapshot(&snapshot));
  ASSERT_OK(store_->Put(Key(2), "newest"));
  CursorOptions at;
  at.read.snapshot = snapshot.get();
  c = Make(store_.get(), at);
  ASSERT_OK(c->Seek(Key(2)));
  ASSERT_OK(c->Next(1));
  EXPECT_EQ(c->value(0), model[Key(2)]);
}

TEST_P(CursorTest, KeepsTheDatabaseOpenAfterTheStoreClosesThenReturnsClosed) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions()));
  std::map<std::string, std::string> model = Fill(20, 1000);
  std::unique_ptr<Cursor> c = Make(store_.get());
  ASSERT_OK(c->SeekToFirst());
  ASSERT_OK(c->Next(5));
  ASSERT_OK(store_->Close());
  EXPECT_EQ(c->value(4), model[Key(4)]) << "the batch outlives the store";
  EXPECT_TRUE(c->Next(5).IsClosed());
  EXPECT_EQ(c->count(), 0u);
  EXPECT_TRUE(c->SeekToFirst().IsClosed());
  std::unique_ptr<Cursor> none;
  EXPECT_TRUE(store_->NewCursor({}, &none).IsClosed());
  c.reset();
  // The database went with the last cursor: the path opens again.
  std::unique_ptr<pinget::Store> again;
  ASSERT_OK(pinget::Store::Open(DbPath(), LargeOptions(), &again));
}

TEST_P(CursorTest, RemakesItsIteratorPastTheRecycleSizeWithoutGapOrRepeat) {
  Options o = LargeOptions();
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  // About 3 x kRecycleBytes of 16 KiB values.
  const int n = static_cast<int>(3 * Cursor::kRecycleBytes / (16 * kKiB));
  std::map<std::string, std::string> model = Fill(n, 16 * kKiB);
  std::vector<std::pair<std::string, std::string>> forward(model.begin(),
                                                           model.end());
  std::unique_ptr<Cursor> c = Make(store_.get());
  ASSERT_OK(c->SeekToFirst());
  EXPECT_EQ(Drain(c.get(), 13), forward);
  ASSERT_OK(c->SeekToLast());
  std::vector<std::pair<std::string, std::string>> backward(forward.rbegin(),
                                                            forward.rend());
  EXPECT_EQ(Drain(c.get(), 13, false), backward);
}

// What a cursor pins stays near kRecycleBytes however far it reads: each
// iterator it remakes lets go of the blocks the one before pinned.
TEST_P(CursorTest, KeepsWhatItPinsNearTheRecycleSize) {
  if (GetParam() != Residency::kBlockCache) GTEST_SKIP() << "block-cache pins";
  ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions()));
  const size_t n = 4 * Cursor::kRecycleBytes / (16 * kKiB);
  Fill(static_cast<int>(n), 16 * kKiB);
  std::unique_ptr<Cursor> c = Make(store_.get());
  size_t entries = 0;
  uint64_t most = 0;
  for (bool forward : {true, false}) {
    ASSERT_OK(forward ? c->SeekToFirst() : c->SeekToLast());
    for (;;) {
      ASSERT_OK(forward ? c->Next(13) : c->Prev(13));
      if (c->count() == 0) break;
      entries += c->count();
      std::string pinned;
      ASSERT_OK(
          store_->GetProperty(0, "rocksdb.block-cache-pinned-usage", &pinned));
      most = std::max<uint64_t>(most, std::stoull(pinned));
    }
  }
  EXPECT_EQ(entries, 2 * n);
  // kRecycleBytes lent, then the batch that crossed it and the blocks around.
  EXPECT_LE(most, 2 * Cursor::kRecycleBytes);
  EXPECT_GE(most, Cursor::kRecycleBytes / 2);  // the property sees the pins
}

TEST_P(CursorTest, ColumnFamiliesAndChecks) {
  Options o = LargeOptions();
  o.column_families = {"other"};
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  ASSERT_OK(WriteResident(store_.get(), GetParam(), 1, "x", "in other"));
  ASSERT_OK(WriteResident(store_.get(), GetParam(), 0, "x", "in default"));
  CursorOptions other;
  other.read.column_family = 1;
  std::unique_ptr<Cursor> c = Make(store_.get(), other);
  ASSERT_OK(c->SeekToFirst());
  ASSERT_OK(c->Next(10));
  ASSERT_EQ(c->count(), 1u);
  EXPECT_EQ(c->value(0), "in other");
  CursorOptions unknown;
  unknown.read.column_family = 7;
  EXPECT_TRUE(store_->NewCursor(unknown, &c).IsInvalidArgument());
  EXPECT_EQ(c, nullptr);
  EXPECT_TRUE(store_->NewCursor({}, nullptr).IsInvalidArgument());
  ASSERT_OK(store_->NewCursor({}, &c));
  c->Close();
  c->Close();
  EXPECT_TRUE(c->SeekToFirst().IsClosed());
  EXPECT_TRUE(c->Next(1).IsClosed());
}

// The store closed by another thread while cursors scan: every batch is
// right or Closed, nothing else (also under ThreadSanitizer).
TEST(CursorLifetimeTest, ScansWhileAnotherThreadClosesTheStore) {
  TempDir dir;
  std::unique_ptr<pinget::Store> store;
  ASSERT_OK(pinget::Store::Open(dir.Sub("db"), Options(), &store));
  for (int i = 0; i < 2000; ++i) {
    ASSERT_OK(store->Put(Key(i), MakeValue(Key(i), 100, 1)));
  }
  ASSERT_OK(store->Flush());
  std::atomic<int> wrong{0};
  std::atomic<int> started{0};
  std::vector<std::thread> scanners;
  for (int t = 0; t < 2; ++t) {
    scanners.emplace_back([&] {
      std::unique_ptr<Cursor> c;
      if (!store->NewCursor({}, &c).ok()) return;
      started++;
      for (;;) {
        Status st = c->SeekToFirst();
        while (st.ok()) {
          st = c->Next(64);
          if (!st.ok() || c->count() == 0) break;
          for (size_t i = 0; i < c->count(); ++i) {
            if (c->value(i) != MakeValue(c->key(i), 100, 1)) wrong++;
          }
        }
        if (!st.ok()) {
          if (!st.IsClosed()) wrong++;
          return;
        }
      }
    });
  }
  while (started.load() < 2) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_OK(store->Close());
  for (std::thread& t : scanners) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

INSTANTIATE_TEST_SUITE_P(Residencies, CursorTest,
                         ::testing::Values(Residency::kBlockCache,
                                           Residency::kMemtable),
                         [](const auto& info) {
                           return std::string(ResidencyName(info.param));
                         });

}  // namespace
}  // namespace pinget_test
