// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Pins and snapshots outlive their Store; the database closes (and unlocks
// its files) only when the last of them goes. Reopening the path is how the
// tests observe that: RocksDB refuses a second open while the first holds the
// lock.

#include <string>
#include <utility>
#include <vector>

#include "pinget/binding/store_binding.h"
#include "test_util.h"

namespace pinget_test {
namespace {

using pinget::Buffer;
using pinget::Options;
using pinget::PinnedBatch;
using pinget::PinnedValue;
using pinget::ReadOptions;
using pinget::Status;
using pinget::Store;
using pinget::WriteBatch;
using pinget::WriteOptions;

constexpr Residency kResidencies[] = {Residency::kBlockCache,
                                      Residency::kMemtable};

class LifetimeTest : public StoreTest {
 protected:
  // Opens the store and writes "small" (4 KiB) and "big" (1 MiB), both with
  // the given residency.
  void OpenWithValues(Residency r, std::string_view name = "db") {
    ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions(), name));
    small_ = MakeValue("small", 4 * kKiB, 1);
    big_ = MakeValue("big", kMiB, 1);
    ASSERT_OK(
        WriteResident(store_.get(), r, 0, {{"small", small_}, {"big", big_}}));
  }

  // True if the path opens now, i.e. nothing holds the database open.
  bool Reopens(std::string_view name = "db") {
    std::unique_ptr<Store> again;
    const Status s = Store::Open(DbPath(name), LargeOptions(), &again);
    if (s.ok()) return true;
    EXPECT_TRUE(s.IsIOError()) << s;
    EXPECT_NE(s.message().find("lock"), std::string::npos) << s;
    return false;
  }

  std::string small_, big_;
};

TEST_F(LifetimeTest, PinnedValueOutlivesStoreAndClosesDatabaseOnRelease) {
  for (Residency r : kResidencies) {
    SCOPED_TRACE(ResidencyName(r));
    ASSERT_NO_FATAL_FAILURE(OpenWithValues(r));
    PinnedValue small, big;
    ASSERT_OK(store_->GetPinned(ReadOptions(), "small", &small));
    ASSERT_OK(store_->GetPinned(ReadOptions(), "big", &big));
    EXPECT_EQ(big.pinned_in_cache(), r == Residency::kBlockCache);

    ASSERT_OK(store_->Close());
    EXPECT_TRUE(small.view() == small_);
    EXPECT_TRUE(big.view() == big_);
    EXPECT_FALSE(Reopens());

    store_.reset();
    EXPECT_TRUE(small.holds_value());
    EXPECT_TRUE(small.view() == small_);
    EXPECT_TRUE(big.view() == big_);
    EXPECT_FALSE(Reopens());

    small.Release();
    EXPECT_FALSE(small.holds_value());
    EXPECT_TRUE(big.view() == big_);
    EXPECT_FALSE(Reopens()) << "big still pins the database";

    big.Release();
    EXPECT_TRUE(Reopens()) << "released handles must not hold the database";
  }
}

// Decode on read's per-thread handle (StoreBinding::GetCopiedIfSmall): a
// value it copies leaves it holding nothing, not even the database, so the
// store closes whatever the handle read last; a value it pins keeps the
// database open until the handle is detached. With pin_memtable too, whose
// probe holds memtables.
TEST_F(LifetimeTest, CopiedIfSmallKeepsNoDatabaseUnlessItPins) {
  using pinget::internal::StoreBinding;
  for (Residency r : kResidencies) {
    for (bool pin_memtable : {false, true}) {
      SCOPED_TRACE(std::string(ResidencyName(r)) +
                   (pin_memtable ? ", pin_memtable" : ""));
      ReadOptions ro;
      ro.pin_memtable = pin_memtable;
      ASSERT_NO_FATAL_FAILURE(OpenWithValues(r));
      PinnedValue slot;
      std::string buffer(8 * kKiB, '\0');
      size_t size = 0;
      ASSERT_OK(StoreBinding::GetCopiedIfSmall(
          *store_, ro, "small", buffer.data(), buffer.size(), &slot, &size));
      EXPECT_EQ(size, small_.size());
      EXPECT_TRUE(std::string_view(buffer.data(), size) == small_);
      EXPECT_FALSE(slot.holds_value());
      ASSERT_OK(store_->Close());
      EXPECT_TRUE(Reopens()) << "the handle kept the database after copying";

      // A miss detaches the handle.
      ASSERT_NO_FATAL_FAILURE(OpenWithValues(r));
      EXPECT_TRUE(StoreBinding::GetCopiedIfSmall(*store_, ro, "missing",
                                                 buffer.data(), buffer.size(),
                                                 &slot, &size)
                      .IsNotFound());
      EXPECT_EQ(size, 0u);
      ASSERT_OK(store_->Close());
      EXPECT_TRUE(Reopens()) << "the handle kept the database after a miss";

      ASSERT_NO_FATAL_FAILURE(OpenWithValues(r));
      ASSERT_OK(StoreBinding::GetCopiedIfSmall(
          *store_, ro, "big", buffer.data(), buffer.size(), &slot, &size));
      EXPECT_EQ(size, big_.size());
      EXPECT_TRUE(slot.view() == big_);
      ASSERT_OK(store_->Close());
      EXPECT_FALSE(Reopens()) << "the pinned value must hold the database";
      EXPECT_TRUE(slot.view() == big_);
      StoreBinding::Detach(&slot);
      EXPECT_TRUE(Reopens());
    }
  }
}

TEST_F(LifetimeTest, PinnedValueClosesDatabaseOnDestruction) {
  ASSERT_NO_FATAL_FAILURE(OpenWithValues(Residency::kBlockCache));
  auto pinned = std::make_unique<PinnedValue>();
  ASSERT_OK(store_->GetPinned(ReadOptions(), "big", pinned.get()));
  store_.reset();  // without Close()
  EXPECT_TRUE(pinned->view() == big_);
  EXPECT_FALSE(Reopens());
  pinned.reset();
  EXPECT_TRUE(Reopens());
}

TEST_F(LifetimeTest, PinnedBatchOutlivesStoreAndClosesDatabaseOnRelease) {
  for (Residency r : kResidencies) {
    SCOPED_TRACE(ResidencyName(r));
    ASSERT_NO_FATAL_FAILURE(OpenWithValues(r));
    const std::string_view keys[] = {"big", "missing", "small"};
    PinnedBatch batch;
    ASSERT_OK(store_->MultiGetPinned(ReadOptions(), 3, keys, &batch));
    ASSERT_OK(store_->Close());
    store_.reset();
    ASSERT_EQ(batch.size(), 3u);
    EXPECT_TRUE(batch.view(0) == big_);
    EXPECT_TRUE(batch.status(1).IsNotFound());
    EXPECT_TRUE(batch.view(2) == small_);
    EXPECT_EQ(batch.pinned_in_cache(0), r == Residency::kBlockCache);
    EXPECT_FALSE(Reopens());

    batch.Release();
    EXPECT_EQ(batch.size(), 0u);
    batch.Release();
    EXPECT_EQ(batch.size(), 0u);
    EXPECT_TRUE(Reopens()) << "a released batch must not hold the database";
  }

  ASSERT_NO_FATAL_FAILURE(OpenWithValues(Residency::kBlockCache));
  auto batch = std::make_unique<PinnedBatch>();
  const std::string_view keys[] = {"small"};
  ASSERT_OK(store_->MultiGetPinned(ReadOptions(), 1, keys, batch.get()));
  store_.reset();
  EXPECT_TRUE(batch->view(0) == small_);
  EXPECT_FALSE(Reopens());
  batch.reset();
  EXPECT_TRUE(Reopens());
}

TEST_F(LifetimeTest, SnapshotOutlivesStoreAndClosesDatabaseOnDestruction) {
  ASSERT_NO_FATAL_FAILURE(OpenWithValues(Residency::kMemtable));
  std::unique_ptr<pinget::Snapshot> snap;
  ASSERT_OK(store_->GetSnapshot(&snap));
  ReadOptions at_snap;
  at_snap.snapshot = snap.get();
  ASSERT_OK(store_->Put("small", "overwritten"));
  std::string v;
  ASSERT_OK(store_->GetString(at_snap, "small", &v));
  EXPECT_EQ(v, small_);

  ASSERT_OK(store_->Close());
  for (Strategy s : kAllStrategies) {
    EXPECT_TRUE(ReadWith(store_.get(), s, at_snap, "small").status.IsClosed())
        << StrategyName(s);
  }
  store_.reset();
  EXPECT_FALSE(Reopens());

  // A snapshot whose store is gone holds that database open and means
  // nothing to another store; once the snapshot goes, the path opens.
  std::unique_ptr<pinget::Snapshot> other_db_snap;
  {
    std::unique_ptr<Store> other;
    ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions(), "other", &other));
    ASSERT_OK(other->GetSnapshot(&other_db_snap));
  }
  snap.reset();
  ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions()));
  ASSERT_OK(store_->GetString(ReadOptions(), "small", &v));
  EXPECT_EQ(v, "overwritten");
  at_snap.snapshot = other_db_snap.get();
  for (Strategy s : kAllStrategies) {
    EXPECT_TRUE(
        ReadWith(store_.get(), s, at_snap, "small").status.IsInvalidArgument())
        << StrategyName(s);
  }
  EXPECT_FALSE(Reopens("other"));
  other_db_snap.reset();
  EXPECT_TRUE(Reopens("other"));
}

TEST_F(LifetimeTest, ReleaseIsIdempotent) {
  PinnedValue never_used;
  never_used.Release();
  never_used.Release();
  EXPECT_FALSE(never_used.holds_value());
  EXPECT_TRUE(never_used.view().empty());
  PinnedBatch never_used_batch;
  never_used_batch.Release();
  EXPECT_EQ(never_used_batch.size(), 0u);

  for (Residency r : kResidencies) {
    SCOPED_TRACE(ResidencyName(r));
    ASSERT_NO_FATAL_FAILURE(OpenWithValues(r));
    PinnedValue pinned;
    ASSERT_OK(store_->GetPinned(ReadOptions(), "small", &pinned));
    EXPECT_TRUE(pinned.holds_value());
    EXPECT_EQ(pinned.size(), small_.size());
    for (int i = 0; i < 3; ++i) {
      pinned.Release();
      EXPECT_FALSE(pinned.holds_value());
      EXPECT_EQ(pinned.size(), 0u);
      EXPECT_TRUE(pinned.view().empty());
    }
    ASSERT_OK(store_->GetPinned(ReadOptions(), "big", &pinned));
    EXPECT_TRUE(pinned.view() == big_);
    store_.reset();
  }
}

TEST_F(LifetimeTest, MovedFromPinnedValueIsEmpty) {
  for (Residency r : kResidencies) {
    SCOPED_TRACE(ResidencyName(r));
    ASSERT_NO_FATAL_FAILURE(OpenWithValues(r));
    PinnedValue source;
    ASSERT_OK(store_->GetPinned(ReadOptions(), "big", &source));
    const bool in_cache = source.pinned_in_cache();

    PinnedValue constructed(std::move(source));
    EXPECT_FALSE(source.holds_value());  // NOLINT(bugprone-use-after-move)
    EXPECT_TRUE(source.view().empty());
    EXPECT_TRUE(constructed.holds_value());
    EXPECT_EQ(constructed.pinned_in_cache(), in_cache);
    EXPECT_TRUE(constructed.view() == big_);

    // Move-assigning over a held value releases it.
    PinnedValue assigned;
    ASSERT_OK(store_->GetPinned(ReadOptions(), "small", &assigned));
    assigned = std::move(constructed);
    EXPECT_FALSE(constructed.holds_value());  // NOLINT(bugprone-use-after-move)
    EXPECT_TRUE(constructed.view().empty());
    EXPECT_TRUE(assigned.holds_value());
    EXPECT_TRUE(assigned.view() == big_);

    // Moved-from handles are reusable.
    ASSERT_OK(store_->GetPinned(ReadOptions(), "small", &source));
    EXPECT_TRUE(source.view() == small_);
    ASSERT_OK(store_->GetPinned(ReadOptions(), "small", &constructed));
    EXPECT_TRUE(constructed.view() == small_);

    // The pin moves with the value after the store is gone, too.
    store_.reset();
    source.Release();
    constructed.Release();
    PinnedValue last(std::move(assigned));
    EXPECT_TRUE(last.view() == big_);
    EXPECT_FALSE(Reopens());
    assigned = std::move(last);
    EXPECT_TRUE(assigned.view() == big_);
    EXPECT_FALSE(last.holds_value());  // NOLINT(bugprone-use-after-move)
    EXPECT_FALSE(Reopens());
    assigned = PinnedValue();
    EXPECT_FALSE(assigned.holds_value());
    EXPECT_TRUE(Reopens());
  }
}

TEST_F(LifetimeTest, HandlesMoveBetweenStores) {
  std::unique_ptr<Store> a, b;
  ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions(), "a", &a));
  ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions(), "b", &b));
  const std::string va = MakeValue("k", 5000, 1), vb = MakeValue("k", 7000, 2);
  ASSERT_OK(WriteResident(a.get(), Residency::kBlockCache, 0, "k", va));
  ASSERT_OK(WriteResident(b.get(), Residency::kMemtable, 0, "k", vb));

  PinnedValue pinned;
  PinnedBatch batch;
  const std::string_view key = "k";
  ASSERT_OK(a->GetPinned(ReadOptions(), key, &pinned));
  ASSERT_OK(a->MultiGetPinned(ReadOptions(), 1, &key, &batch));
  EXPECT_TRUE(pinned.view() == va);
  EXPECT_TRUE(pinned.pinned_in_cache());
  EXPECT_TRUE(batch.view(0) == va);
  ASSERT_OK(b->GetPinned(ReadOptions(), key, &pinned));
  ASSERT_OK(b->MultiGetPinned(ReadOptions(), 1, &key, &batch));
  EXPECT_TRUE(pinned.view() == vb);
  EXPECT_FALSE(pinned.pinned_in_cache());
  EXPECT_TRUE(batch.view(0) == vb);

  // Nothing refers to a's database any more: closing a closes it.
  a.reset();
  EXPECT_TRUE(Reopens("a"));
  b.reset();
  EXPECT_TRUE(pinned.view() == vb);
  EXPECT_TRUE(batch.view(0) == vb);
  EXPECT_FALSE(Reopens("b"));

  // And back to a (reopened): b's database is let go.
  ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions(), "a", &a));
  ASSERT_OK(a->GetPinned(ReadOptions(), key, &pinned));
  ASSERT_OK(a->MultiGetPinned(ReadOptions(), 1, &key, &batch));
  EXPECT_TRUE(pinned.view() == va);
  EXPECT_TRUE(batch.view(0) == va);
  EXPECT_TRUE(Reopens("b"));
}

TEST_F(LifetimeTest, EveryMethodAfterCloseIsClosed) {
  Options o = LargeOptions();
  o.column_families = {"cf"};
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  ASSERT_OK(store_->Put("k", "value"));
  PinnedValue held;
  ASSERT_OK(store_->GetPinned(ReadOptions(), "k", &held));
  PinnedBatch held_batch;
  const std::string_view key = "k";
  ASSERT_OK(store_->MultiGetPinned(ReadOptions(), 1, &key, &held_batch));
  std::unique_ptr<pinget::Snapshot> snap;
  ASSERT_OK(store_->GetSnapshot(&snap));

  ASSERT_OK(store_->Close());
  EXPECT_TRUE(store_->closed());
  EXPECT_OK(store_->Close());

  const WriteOptions wo;
  EXPECT_TRUE(store_->Put("k", "v").IsClosed());
  EXPECT_TRUE(store_->Put(wo, 1, "k", "v").IsClosed());
  EXPECT_TRUE(store_->Delete("k").IsClosed());
  WriteBatch wb;
  wb.Put("k", "v");
  EXPECT_TRUE(store_->Write(wo, wb).IsClosed());
  EXPECT_TRUE(store_->Flush().IsClosed());
  EXPECT_TRUE(store_->Compact().IsClosed());
  std::unique_ptr<pinget::Snapshot> snap2;
  EXPECT_TRUE(store_->GetSnapshot(&snap2).IsClosed());
  EXPECT_EQ(snap2, nullptr);
  uint32_t id = 0;
  EXPECT_TRUE(store_->ColumnFamilyId("cf", &id).IsClosed());
  std::string prop;
  EXPECT_TRUE(store_->GetProperty(0, "rocksdb.stats", &prop).IsClosed());

  ReadOptions ro;
  std::string s = "x";
  EXPECT_TRUE(store_->GetString(ro, "k", &s).IsClosed());
  EXPECT_TRUE(s.empty());
  char buf[8];
  size_t size = 5;
  EXPECT_TRUE(store_->GetInto(ro, "k", buf, sizeof(buf), &size).IsClosed());
  EXPECT_EQ(size, 0u);
  EXPECT_TRUE(store_->GetInto(ro, "k", nullptr, 0, &size).IsClosed());
  Buffer buffer{buf, sizeof(buf)};
  Status status;
  EXPECT_TRUE(
      store_->MultiGetInto(ro, 1, &key, &buffer, &size, &status).IsClosed());
  PinnedValue fresh;
  EXPECT_TRUE(store_->GetPinned(ro, "k", &fresh).IsClosed());
  EXPECT_FALSE(fresh.holds_value());
  PinnedBatch fresh_batch;
  EXPECT_TRUE(store_->MultiGetPinned(ro, 1, &key, &fresh_batch).IsClosed());
  EXPECT_EQ(fresh_batch.size(), 0u);
  ro.snapshot = snap.get();
  ro.column_family = 1;
  for (Strategy st : kAllStrategies) {
    EXPECT_TRUE(ReadWith(store_.get(), st, ro, "k").status.IsClosed())
        << StrategyName(st);
  }

  // Handles from before the close still read; reusing one drops its value.
  EXPECT_TRUE(held_batch.view(0) == "value");
  EXPECT_TRUE(held.view() == "value");
  EXPECT_TRUE(store_->GetPinned(ReadOptions(), "k", &held).IsClosed());
  EXPECT_FALSE(held.holds_value());
  EXPECT_TRUE(
      store_->MultiGetPinned(ReadOptions(), 1, &key, &held_batch).IsClosed());
  EXPECT_EQ(held_batch.size(), 0u);
  EXPECT_FALSE(Reopens()) << "the snapshot still holds the database";
  snap.reset();
  EXPECT_TRUE(Reopens());
}

}  // namespace
}  // namespace pinget_test
