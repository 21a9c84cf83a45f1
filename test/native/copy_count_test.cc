// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The exact copy counts of docs/strategies.md (its cpp rows), read from
// pinget::GetCopyStats(), for block-cache and memtable residency. P is 0 for a
// block-cache value and 1 for a memtable value.
//
// The copying strategies keep per-thread scratch PinnableSlices, whose buffers
// grow (one counted allocation each) the first time a memtable value larger
// than their capacity passes through them. Tests that count allocations run
// on a fresh thread so that they know the scratch state exactly.

#include <string>
#include <thread>
#include <vector>

#include "scratch.h"
#include "test_util.h"

namespace pinget_test {
namespace {

using pinget::Buffer;
using pinget::CopyStats;
using pinget::GetCopyStats;
using pinget::Options;
using pinget::PinnedBatch;
using pinget::PinnedValue;
using pinget::ReadOptions;
using pinget::ResetCopyStats;
using pinget::Status;

constexpr size_t kValueSizes[] = {128, 4 * kKiB, 64 * kKiB};
constexpr Residency kResidencies[] = {Residency::kBlockCache,
                                      Residency::kMemtable};
// Crosses the 32-key chunk that the batched strategies read in.
constexpr size_t kBatch = 40;
constexpr size_t kScratchSlices = 32;

struct Counts {
  uint64_t copies;
  uint64_t bytes;
  uint64_t allocations;
};

// This thread's counters must be exactly `want`; keys are never copied.
void ExpectCounts(const Counts& want, const char* what) {
  const CopyStats got = GetCopyStats();
  EXPECT_EQ(got.value_copies, want.copies) << what;
  EXPECT_EQ(got.value_bytes_copied, want.bytes) << what;
  EXPECT_EQ(got.key_copies, 0u) << what;
  EXPECT_EQ(got.allocations, want.allocations) << what;
}

template <typename F>
void OnFreshThread(F f) {
  std::thread t(f);
  t.join();
}

std::string Key(Residency r, size_t size, size_t i = 0) {
  return std::string(r == Residency::kBlockCache ? "bc-" : "mt-") +
         std::to_string(size) + "-" + std::to_string(i);
}

class CopyCountTest : public StoreTest {
 protected:
  // Single keys and batches of kBatch keys, for every size, in both places.
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions()));
    for (Residency r : kResidencies) {
      std::vector<std::pair<std::string, std::string>> pairs;
      for (size_t size : kValueSizes) {
        for (size_t i = 0; i < kBatch; ++i) {
          const std::string key = Key(r, size, i);
          pairs.emplace_back(key, MakeValue(key, size, 1));
        }
      }
      ASSERT_OK(WriteResident(store_.get(), r, 0, pairs));
    }
  }

  std::vector<std::string> BatchKeys(Residency r, size_t size, size_t n) {
    std::vector<std::string> keys;
    for (size_t i = 0; i < n; ++i) keys.push_back(Key(r, size, i));
    return keys;
  }

  static uint64_t P(Residency r) { return r == Residency::kMemtable ? 1 : 0; }
};

// string_copy: 1 copy of n bytes whatever the residency. One allocation when
// the string has to grow, none when its capacity is already enough.
TEST_F(CopyCountTest, StringCopy) {
  for (Residency r : kResidencies) {
    for (size_t n : kValueSizes) {
      SCOPED_TRACE(testing::Message() << ResidencyName(r) << " " << n);
      const std::string key = Key(r, n);
      std::string fresh;
      ResetCopyStats();
      ASSERT_OK(store_->GetString(ReadOptions(), key, &fresh));
      ExpectCounts({1, n, 1}, "fresh string");
      EXPECT_EQ(fresh, MakeValue(key, n, 1));

      ResetCopyStats();
      ASSERT_OK(store_->GetString(ReadOptions(), key, &fresh));
      ExpectCounts({1, n, 0}, "same string again");

      std::string reserved;
      reserved.reserve(n);
      ResetCopyStats();
      ASSERT_OK(store_->GetString(ReadOptions(), key, &reserved));
      ExpectCounts({1, n, 0}, "reserved string");
      EXPECT_EQ(reserved, fresh);
    }
  }
}

TEST_F(CopyCountTest, StringCopyOfShortValueFitsInlineString) {
  for (Residency r : kResidencies) {
    SCOPED_TRACE(ResidencyName(r));
    const std::string key = std::string("short-") + ResidencyName(r);
    ASSERT_OK(WriteResident(store_.get(), r, 0, key, "fifteen bytes!!"));
    std::string fresh;
    ResetCopyStats();
    ASSERT_OK(store_->GetString(ReadOptions(), key, &fresh));
    ExpectCounts({1, 15, 0}, "15 bytes into an empty string");
    EXPECT_EQ(fresh, "fifteen bytes!!");
  }
}

// buffer_copy: P + 1 copies. Block cache: 1 copy, n bytes; memtable: 2
// copies, 2n bytes. The first memtable read on a thread grows its scratch
// buffer (1 allocation); after that, none.
TEST_F(CopyCountTest, BufferCopy) {
  for (Residency r : kResidencies) {
    for (size_t n : kValueSizes) {
      SCOPED_TRACE(testing::Message() << ResidencyName(r) << " " << n);
      OnFreshThread([&] {
        const std::string key = Key(r, n);
        std::vector<char> buffer(n);
        size_t size = 0;
        ResetCopyStats();
        ASSERT_OK(store_->GetInto(ReadOptions(), key, buffer.data(), n, &size));
        ExpectCounts({P(r) + 1, (P(r) + 1) * n, P(r)}, "first call on thread");
        EXPECT_EQ(size, n);
        EXPECT_TRUE(std::string_view(buffer.data(), n) == MakeValue(key, n, 1));

        for (int i = 0; i < 3; ++i) {
          ResetCopyStats();
          ASSERT_OK(
              store_->GetInto(ReadOptions(), key, buffer.data(), n, &size));
          ExpectCounts({P(r) + 1, (P(r) + 1) * n, 0}, "steady state");
        }

        // A smaller memtable value fits the grown scratch buffer.
        const std::string small = Key(r, kValueSizes[0]);
        ResetCopyStats();
        ASSERT_OK(
            store_->GetInto(ReadOptions(), small, buffer.data(), n, &size));
        ExpectCounts({P(r) + 1, (P(r) + 1) * kValueSizes[0], 0}, "smaller");

        // Too small a buffer: the copy out is of `capacity` bytes.
        ResetCopyStats();
        ASSERT_OK(
            store_->GetInto(ReadOptions(), key, buffer.data(), 100, &size));
        ExpectCounts({P(r) + 1, P(r) * n + 100, 0}, "capacity 100");
        EXPECT_EQ(size, n);

        // A non-null buffer of capacity 0 still counts its copy out, of 0
        // bytes (the Java glue counts a zero-length byte[] the same way).
        ResetCopyStats();
        ASSERT_OK(store_->GetInto(ReadOptions(), key, buffer.data(), 0, &size));
        ExpectCounts({P(r) + 1, P(r) * n, 0}, "capacity 0");
        EXPECT_EQ(size, n);

        // A size query copies nothing out; RocksDB's own copy still happens.
        ResetCopyStats();
        ASSERT_OK(store_->GetInto(ReadOptions(), key, nullptr, 0, &size));
        ExpectCounts({P(r), P(r) * n, 0}, "size query");
        EXPECT_EQ(size, n);

        ResetCopyStats();
        EXPECT_TRUE(
            store_->GetInto(ReadOptions(), "missing", buffer.data(), n, &size)
                .IsNotFound());
        ExpectCounts({0, 0, 0}, "not found");
      });
    }
  }
}

// pinned_view: P copies. Block cache: none; memtable: 1 copy of n bytes into
// the PinnedValue's own buffer, which grows once (1 allocation) and is then
// reused.
TEST_F(CopyCountTest, PinnedView) {
  for (Residency r : kResidencies) {
    for (size_t n : kValueSizes) {
      SCOPED_TRACE(testing::Message() << ResidencyName(r) << " " << n);
      const std::string key = Key(r, n);
      PinnedValue pinned;
      ResetCopyStats();
      ASSERT_OK(store_->GetPinned(ReadOptions(), key, &pinned));
      ExpectCounts({P(r), P(r) * n, P(r)}, "fresh PinnedValue");
      EXPECT_EQ(pinned.pinned_in_cache(), r == Residency::kBlockCache);
      EXPECT_TRUE(pinned.view() == MakeValue(key, n, 1));

      for (int i = 0; i < 3; ++i) {
        ResetCopyStats();
        ASSERT_OK(store_->GetPinned(ReadOptions(), key, &pinned));
        ExpectCounts({P(r), P(r) * n, 0}, "reused PinnedValue");
        EXPECT_EQ(pinned.pinned_in_cache(), r == Residency::kBlockCache);
        EXPECT_TRUE(pinned.view() == MakeValue(key, n, 1));
      }
      pinned.Release();
      ResetCopyStats();
      ASSERT_OK(store_->GetPinned(ReadOptions(), key, &pinned));
      ExpectCounts({P(r), P(r) * n, 0}, "reused after Release");

      ResetCopyStats();
      EXPECT_TRUE(
          store_->GetPinned(ReadOptions(), "missing", &pinned).IsNotFound());
      ExpectCounts({0, 0, 0}, "not found");
    }
  }
}

// Zero copies means the view is RocksDB's memory: two pins of a block-cache
// value see the same bytes at the same address. Memtable values are copied
// into each PinnedValue.
TEST_F(CopyCountTest, BlockCachePinsShareMemoryMemtablePinsDoNot) {
  for (Residency r : kResidencies) {
    SCOPED_TRACE(ResidencyName(r));
    const std::string key = Key(r, 4 * kKiB);
    PinnedValue a, b;
    ASSERT_OK(store_->GetPinned(ReadOptions(), key, &a));
    ASSERT_OK(store_->GetPinned(ReadOptions(), key, &b));
    EXPECT_TRUE(a.view() == b.view());
    if (r == Residency::kBlockCache) {
      EXPECT_EQ(a.data(), b.data());
    } else {
      EXPECT_NE(a.data(), b.data());
    }
    PinnedBatch batch;
    const std::string_view keys[] = {key, key};
    ASSERT_OK(store_->MultiGetPinned(ReadOptions(), 2, keys, &batch));
    EXPECT_EQ(batch.view(0).data() == a.data(), r == Residency::kBlockCache);
    EXPECT_EQ(batch.view(1).data() == a.data(), r == Residency::kBlockCache);
  }
}

// Batched buffer_copy counts per key as GetInto does: (P + 1) copies per
// found key, nothing for a missing one. The first memtable batch on a thread
// grows each scratch slice it uses: one allocation for each of the first
// min(count, 32) keys, as a batch is read 32 keys at a time through the same
// 32 slices.
TEST_F(CopyCountTest, MultiGetInto) {
  for (Residency r : kResidencies) {
    for (size_t n : kValueSizes) {
      for (size_t count : {size_t{5}, kBatch}) {
        SCOPED_TRACE(testing::Message()
                     << ResidencyName(r) << " " << n << " x " << count);
        OnFreshThread([&] {
          std::vector<std::string> keys = BatchKeys(r, n, count);
          keys.push_back("missing");
          const std::vector<std::string_view> views(keys.begin(), keys.end());
          std::vector<char> arena(keys.size() * n);
          std::vector<Buffer> buffers;
          for (size_t i = 0; i < keys.size(); ++i) {
            buffers.push_back({arena.data() + i * n, n});
          }
          std::vector<size_t> sizes(keys.size());
          std::vector<Status> statuses(keys.size());
          const uint64_t copies = (P(r) + 1) * count;
          const uint64_t grown = P(r) * std::min(count, kScratchSlices);

          ResetCopyStats();
          ASSERT_OK(store_->MultiGetInto(ReadOptions(), keys.size(),
                                         views.data(), buffers.data(),
                                         sizes.data(), statuses.data()));
          ExpectCounts({copies, copies * n, grown}, "first batch on thread");
          for (size_t i = 0; i < count; ++i) {
            ASSERT_TRUE(statuses[i].ok()) << statuses[i];
            EXPECT_EQ(sizes[i], n);
            EXPECT_TRUE(std::string_view(buffers[i].data, n) ==
                        MakeValue(keys[i], n, 1));
          }
          EXPECT_TRUE(statuses[count].IsNotFound());

          ResetCopyStats();
          ASSERT_OK(store_->MultiGetInto(ReadOptions(), keys.size(),
                                         views.data(), buffers.data(),
                                         sizes.data(), statuses.data()));
          ExpectCounts({copies, copies * n, 0}, "steady state");

          // Capacity 0 with a non-null pointer: P + 1 copies, the + 1 of 0
          // bytes, as GetInto.
          for (Buffer& b : buffers) b.capacity = 0;
          ResetCopyStats();
          ASSERT_OK(store_->MultiGetInto(ReadOptions(), keys.size(),
                                         views.data(), buffers.data(),
                                         sizes.data(), statuses.data()));
          ExpectCounts({copies, P(r) * count * n, 0}, "capacity 0");
          EXPECT_EQ(sizes[0], n);
        });
      }
    }
  }
}

// GetVisit: P copies (RocksDB's own), nothing else; copies the visitor makes
// are its own to count. The first memtable read on a thread grows its scratch
// buffer (1 allocation); after that, none. The visitor's string allocates,
// but that is the test's, not counted.
TEST_F(CopyCountTest, GetVisit) {
  for (Residency r : kResidencies) {
    for (size_t n : kValueSizes) {
      SCOPED_TRACE(testing::Message() << ResidencyName(r) << " " << n);
      OnFreshThread([&] {
        const std::string key = Key(r, n);
        Visits visits;
        ResetCopyStats();
        ASSERT_OK(store_->GetVisit(ReadOptions(), key, &RecordVisit, &visits));
        ExpectCounts({P(r), P(r) * n, P(r)}, "first call on thread");
        ASSERT_EQ(visits.values.size(), 1u);
        EXPECT_TRUE(visits.values[0] == MakeValue(key, n, 1));

        for (int i = 0; i < 3; ++i) {
          ResetCopyStats();
          ASSERT_OK(
              store_->GetVisit(ReadOptions(), key, &RecordVisit, &visits));
          ExpectCounts({P(r), P(r) * n, 0}, "steady state");
        }
        EXPECT_EQ(visits.values.size(), 4u);

        // The visitor counts its own copy: P + 1, as buffer_copy.
        visits.copy_bytes = n;
        ResetCopyStats();
        ASSERT_OK(store_->GetVisit(ReadOptions(), key, &RecordVisit, &visits));
        ExpectCounts({P(r) + 1, (P(r) + 1) * n, 0}, "visitor copies");

        ResetCopyStats();
        EXPECT_TRUE(
            store_->GetVisit(ReadOptions(), "missing", &RecordVisit, &visits)
                .IsNotFound());
        ExpectCounts({0, 0, 0}, "not found");
        EXPECT_EQ(visits.values.size(), 5u) << "no visit for a missing key";
      });
    }
  }
}

// MultiGetVisit counts per key as GetVisit does: P copies per found key,
// nothing for a missing one, and the scratch growth of MultiGetInto on the
// first memtable batch on a thread.
TEST_F(CopyCountTest, MultiGetVisit) {
  for (Residency r : kResidencies) {
    for (size_t n : kValueSizes) {
      for (size_t count : {size_t{5}, kBatch}) {
        SCOPED_TRACE(testing::Message()
                     << ResidencyName(r) << " " << n << " x " << count);
        OnFreshThread([&] {
          std::vector<std::string> keys = BatchKeys(r, n, count);
          keys.push_back("missing");
          const std::vector<std::string_view> views(keys.begin(), keys.end());
          const uint64_t copies = P(r) * count;
          const uint64_t grown = P(r) * std::min(count, kScratchSlices);

          Visits visits;
          ResetCopyStats();
          ASSERT_OK(store_->MultiGetVisit(ReadOptions(), views.size(),
                                          views.data(), &RecordBatchVisit,
                                          &visits));
          ExpectCounts({copies, copies * n, grown}, "first batch on thread");
          ASSERT_EQ(visits.indexes.size(), keys.size());
          for (size_t i = 0; i < count; ++i) {
            EXPECT_EQ(visits.indexes[i], i);
            ASSERT_TRUE(visits.statuses[i].ok()) << visits.statuses[i];
            EXPECT_TRUE(visits.values[i] == MakeValue(keys[i], n, 1));
          }
          EXPECT_TRUE(visits.statuses[count].IsNotFound());
          EXPECT_TRUE(visits.values[count].empty());

          for (int round = 0; round < 2; ++round) {
            ResetCopyStats();
            ASSERT_OK(store_->MultiGetVisit(ReadOptions(), views.size(),
                                            views.data(), &RecordBatchVisit,
                                            &visits));
            ExpectCounts({copies, copies * n, 0}, "steady state");
          }
        });
      }
    }
  }
}

// A visitor may read through the store again on the same thread: the nested
// call gets scratch of its own (1 allocation, plus its buffer's growth for a
// memtable value), and the outer value stays intact.
TEST_F(CopyCountTest, NestedReadInsideVisitorKeepsOuterValue) {
  for (Residency r : kResidencies) {
    SCOPED_TRACE(ResidencyName(r));
    OnFreshThread([&] {
      const size_t n = 4 * kKiB;
      const std::string outer_key = Key(r, n, 0), inner_key = Key(r, n, 1);
      struct Nest {
        pinget::Store* store;
        std::string inner_key;
        std::vector<char> inner;
        bool outer_intact = false;
        std::string outer_expected;
        CopyStats inner_counts;
      } nest{store_.get(),
             inner_key,
             std::vector<char>(n),
             false,
             MakeValue(outer_key, n, 1),
             {}};
      auto visit = [](void* context, std::string_view value) {
        auto* nest = static_cast<Nest*>(context);
        const CopyStats before = GetCopyStats();
        size_t size = 0;
        EXPECT_OK(nest->store->GetInto(ReadOptions(), nest->inner_key,
                                       nest->inner.data(), nest->inner.size(),
                                       &size));
        const CopyStats after = GetCopyStats();
        nest->inner_counts = {
            after.value_copies - before.value_copies,
            after.value_bytes_copied - before.value_bytes_copied, 0,
            after.allocations - before.allocations};
        nest->outer_intact = value == nest->outer_expected;
      };
      // Warm this thread's own scratch first.
      Visits warm;
      ASSERT_OK(
          store_->GetVisit(ReadOptions(), outer_key, &RecordVisit, &warm));
      ResetCopyStats();
      ASSERT_OK(store_->GetVisit(ReadOptions(), outer_key, visit, &nest));
      EXPECT_TRUE(nest.outer_intact);
      EXPECT_TRUE(std::string_view(nest.inner.data(), n) ==
                  MakeValue(inner_key, n, 1));
      EXPECT_EQ(nest.inner_counts.value_copies, P(r) + 1);
      EXPECT_EQ(nest.inner_counts.allocations, 1 + P(r));
      ExpectCounts({2 * P(r) + 1, (2 * P(r) + 1) * n, 1 + P(r)}, "in total");
    });
  }
}

// Batched pinned_view counts per key as GetPinned does: P copies per found
// key. A fresh PinnedBatch counts one allocation for its slice array, plus,
// for memtable values, one per slice buffer that grows; reused, none.
TEST_F(CopyCountTest, MultiGetPinned) {
  for (Residency r : kResidencies) {
    for (size_t n : kValueSizes) {
      SCOPED_TRACE(testing::Message() << ResidencyName(r) << " " << n);
      std::vector<std::string> keys = BatchKeys(r, n, kBatch);
      keys.insert(keys.begin() + 3, "missing");
      const std::vector<std::string_view> views(keys.begin(), keys.end());
      const uint64_t found = kBatch;

      PinnedBatch batch;
      ResetCopyStats();
      ASSERT_OK(store_->MultiGetPinned(ReadOptions(), views.size(),
                                       views.data(), &batch));
      ExpectCounts({P(r) * found, P(r) * found * n, 1 + P(r) * found},
                   "fresh PinnedBatch");
      ASSERT_EQ(batch.size(), keys.size());
      for (size_t i = 0; i < keys.size(); ++i) {
        if (i == 3) {
          EXPECT_TRUE(batch.status(i).IsNotFound());
          continue;
        }
        ASSERT_TRUE(batch.status(i).ok()) << batch.status(i);
        EXPECT_EQ(batch.pinned_in_cache(i), r == Residency::kBlockCache);
        EXPECT_TRUE(batch.view(i) == MakeValue(keys[i], n, 1));
      }

      for (int round = 0; round < 2; ++round) {
        ResetCopyStats();
        ASSERT_OK(store_->MultiGetPinned(ReadOptions(), views.size(),
                                         views.data(), &batch));
        ExpectCounts({P(r) * found, P(r) * found * n, 0}, "reused PinnedBatch");
      }
      // A smaller batch reuses the same storage.
      ResetCopyStats();
      ASSERT_OK(store_->MultiGetPinned(ReadOptions(), 2, views.data(), &batch));
      ExpectCounts({P(r) * 2, P(r) * 2 * n, 0}, "smaller batch");
      EXPECT_EQ(batch.size(), 2u);
    }
  }
}

// docs/design.md: P is also 1 when there is no block cache or fill_cache is
// false and the block is not cached; IsPinned() then reports the copy.
TEST_F(CopyCountTest, UncachedSstReadsCopyOnce) {
  const size_t n = 4 * kKiB;
  for (bool no_cache : {true, false}) {
    SCOPED_TRACE(no_cache ? "no block cache" : "fill_cache = false");
    Options o;
    if (no_cache) o.block_cache_bytes = 0;
    std::unique_ptr<pinget::Store> store;
    ASSERT_NO_FATAL_FAILURE(
        OpenStore(o, no_cache ? "nocache" : "nofill", &store));
    const std::string key = "cold";
    const std::string value = MakeValue(key, n, 1);
    ASSERT_OK(store->Put(key, value));
    ASSERT_OK(store->Flush());
    ReadOptions ro;
    ro.fill_cache = false;
    PinnedValue pinned;
    for (int i = 0; i < 2; ++i) {
      ResetCopyStats();
      ASSERT_OK(store->GetPinned(ro, key, &pinned));
      ExpectCounts({1, n, i == 0 ? 1u : 0u}, "pinned_view, uncached");
      EXPECT_FALSE(pinned.pinned_in_cache());
      EXPECT_TRUE(pinned.view() == value);
    }
    std::vector<char> buffer(n);
    size_t size = 0;
    ASSERT_OK(store->GetInto(ro, key, buffer.data(), n, &size));  // warm-up
    ResetCopyStats();
    ASSERT_OK(store->GetInto(ro, key, buffer.data(), n, &size));
    ExpectCounts({2, 2 * n, 0}, "buffer_copy, uncached");
    EXPECT_TRUE(std::string_view(buffer.data(), n) == value);
  }
}

TEST_F(CopyCountTest, CountersArePerThreadAndResettable) {
  ResetCopyStats();
  pinget::RecordValueCopy(10);
  pinget::RecordValueCopy(5);
  pinget::RecordKeyCopy();
  pinget::RecordAllocation();
  CopyStats s = GetCopyStats();
  EXPECT_EQ(s.value_copies, 2u);
  EXPECT_EQ(s.value_bytes_copied, 15u);
  EXPECT_EQ(s.key_copies, 1u);
  EXPECT_EQ(s.allocations, 1u);

  OnFreshThread([&] {
    const CopyStats other = GetCopyStats();
    EXPECT_EQ(other.value_copies, 0u);
    EXPECT_EQ(other.key_copies, 0u);
    std::string v;
    ASSERT_OK(
        store_->GetString(ReadOptions(), Key(Residency::kMemtable, 128), &v));
    EXPECT_EQ(GetCopyStats().value_copies, 1u);
  });
  s = GetCopyStats();
  EXPECT_EQ(s.value_copies, 2u);
  EXPECT_EQ(s.value_bytes_copied, 15u);

  ResetCopyStats();
  s = GetCopyStats();
  EXPECT_EQ(s.value_copies, 0u);
  EXPECT_EQ(s.value_bytes_copied, 0u);
  EXPECT_EQ(s.key_copies, 0u);
  EXPECT_EQ(s.allocations, 0u);
}

// Scratch that grew to hold a value of kKeepBytes is kept for the next call
// (no allocation then), even where the standard library rounded its capacity
// up (libc++ does, by up to 15 bytes: a 1 MiB string_copy re-allocated on
// every call in the musl libraries); a string grown well past it is freed.
TEST(ScratchTest, AStringHoldingKeepBytesIsKeptAndALargerOneFreed) {
  using pinget::internal::kKeepBytes;
  std::string kept;
  kept.reserve(kKeepBytes + 15);
  const size_t capacity = kept.capacity();
  pinget::internal::Trim(&kept);
  EXPECT_EQ(kept.capacity(), capacity);

  std::string freed;
  freed.reserve(kKeepBytes + 4096);
  pinget::internal::Trim(&freed);
  EXPECT_LT(freed.capacity(), kKeepBytes);
}

}  // namespace
}  // namespace pinget_test
