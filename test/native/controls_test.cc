// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The benchmarks' native controls (bench/jni/controls.h) read what the
// strategies read, count what they count, and keep the batched rule for
// errors, through the C API.

#include "controls.h"

#include <string>
#include <vector>

#include "test_util.h"

namespace pinget_test {
namespace {

using pinget::CopyStats;
using pinget::GetCopyStats;
using pinget::ResetCopyStats;
using pinget_bench::CursorLoop;
using pinget_bench::KeyLoop;
using pinget_bench::LoopStatus;

class ControlsTest : public StoreTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions()));
    for (int i = 0; i < 100; ++i) {
      keys_.push_back("key-" + std::to_string(100 + i));  // in key order
      ASSERT_TRUE(store_->Put(keys_.back(), std::string(10 + i, 'v')).ok());
      expected_ += 10 + i;
    }
    ASSERT_TRUE(store_->Flush().ok());
  }

  // A pinget_store* is the pinget::Store* (c.cc), as a Java Store's handle.
  pinget_store* c_store() {
    return reinterpret_cast<pinget_store*>(store_.get());
  }

  std::vector<std::string> keys_;
  uint64_t expected_ = 0;
};

TEST_F(ControlsTest, KeyLoopsReadEveryKeyAndCountAsTheStrategies) {
  KeyLoop loop(keys_);
  uint64_t bytes = 0;
  ASSERT_EQ(loop.PinnedGets(c_store(), 0, keys_.size(), &bytes).code,
            PINGET_OK);
  EXPECT_EQ(bytes, expected_);
  bytes = 0;
  ASSERT_EQ(loop.PinnedGets(c_store(), 98, 2, &bytes).code, PINGET_OK);
  EXPECT_EQ(bytes, 108u + 109u);
  ResetCopyStats();
  ASSERT_EQ(loop.PinnedGets(c_store(), 0, keys_.size(), &bytes).code,
            PINGET_OK);
  CopyStats stats = GetCopyStats();  // block cache: P = 0, a reused pin
  EXPECT_EQ(stats.value_copies, 0u);
  EXPECT_EQ(stats.allocations, 0u);

  for (size_t b : {size_t{1}, size_t{16}, size_t{64}, size_t{1000}}) {
    bytes = 0;
    ASSERT_EQ(loop.PinnedBatches(c_store(), 0, keys_.size(), b, &bytes).code,
              PINGET_OK);
    EXPECT_EQ(bytes, expected_) << "batch " << b;
    ResetCopyStats();  // the batch has grown to b: no allocation from now on
    ASSERT_EQ(loop.PinnedBatches(c_store(), 0, keys_.size(), b, &bytes).code,
              PINGET_OK);
    stats = GetCopyStats();
    EXPECT_EQ(stats.value_copies, 0u);
    EXPECT_EQ(stats.key_copies, 0u);
    EXPECT_EQ(stats.allocations, 0u);
  }
}

TEST_F(ControlsTest, MissingKeysAreNotErrorsAndBadKeysAre) {
  KeyLoop loop({keys_[0], "missing", keys_[1]});
  uint64_t bytes = 0;
  EXPECT_EQ(loop.PinnedGets(c_store(), 0, 3, &bytes).code, PINGET_OK);
  EXPECT_EQ(bytes, 10u + 11u);
  bytes = 0;
  EXPECT_EQ(loop.PinnedBatches(c_store(), 0, 3, 2, &bytes).code, PINGET_OK);
  EXPECT_EQ(bytes, 10u + 11u);

  KeyLoop bad({keys_[0], "", keys_[1]});  // an empty key, after every read
  bytes = 0;
  LoopStatus st = bad.PinnedGets(c_store(), 0, 3, &bytes);
  EXPECT_EQ(st.code, PINGET_INVALID_ARGUMENT);
  EXPECT_FALSE(st.message.empty());
  EXPECT_EQ(bytes, 10u + 11u);
  ASSERT_TRUE(store_->Close().ok());
  st = loop.PinnedGets(c_store(), 0, 1, &bytes);
  EXPECT_EQ(st.code, PINGET_CLOSED);
  EXPECT_NE(st.message.find("closed"), std::string::npos) << st.message;
  st = loop.PinnedBatches(c_store(), 0, 1, 1, &bytes);
  EXPECT_EQ(st.code, PINGET_CLOSED);
  EXPECT_NE(st.message.find("closed"), std::string::npos) << st.message;
}

TEST_F(ControlsTest, CursorLoopsLendEveryEntryAndStartOver) {
  CursorLoop loop(c_store(), 256);
  ASSERT_EQ(loop.status().code, PINGET_OK);
  uint64_t key_bytes = 0;
  for (const std::string& k : keys_) key_bytes += k.size();
  uint64_t bytes = 0, entries = 0;
  // 250 entries: the 100 twice and 50 more, in batches of 64.
  ASSERT_EQ(loop.Scan(64, 250, &bytes, &entries).code, PINGET_OK);
  EXPECT_EQ(entries, 250u);
  uint64_t first_half = 0;
  for (int i = 0; i < 50; ++i) first_half += keys_[i].size() + 10 + i;
  EXPECT_EQ(bytes, 2 * (key_bytes + expected_) + first_half);

  bytes = entries = 0;
  ResetCopyStats();
  ASSERT_EQ(
      loop.Seek(keys_[90].data(), keys_[90].size(), 64, &bytes, &entries).code,
      PINGET_OK);
  EXPECT_EQ(entries, 10u);  // 90 to 99: the range ends
  EXPECT_EQ(GetCopyStats().value_copies, 0u);
  uint64_t tail = 0;
  for (int i = 90; i < 100; ++i) tail += keys_[i].size() + 10 + i;
  EXPECT_EQ(bytes, tail);

  ASSERT_TRUE(store_->Close().ok());
  // Each error comes with its message (Closed: ...).
  for (const LoopStatus& st :
       {loop.Scan(64, 1, &bytes, &entries),
        loop.Seek(keys_[0].data(), keys_[0].size(), 1, &bytes, &entries)}) {
    EXPECT_EQ(st.code, PINGET_CLOSED);
    EXPECT_NE(st.message.find("closed"), std::string::npos) << st.message;
  }
  CursorLoop closed(c_store(), 1);
  EXPECT_EQ(closed.status().code, PINGET_CLOSED);
  EXPECT_NE(closed.status().message.find("closed"), std::string::npos);
  EXPECT_EQ(closed.Scan(1, 1, &bytes, &entries).code, PINGET_CLOSED);
}

TEST_F(ControlsTest, AScanOfAnEmptyRangeEnds) {
  for (const std::string& k : keys_) ASSERT_TRUE(store_->Delete(k).ok());
  CursorLoop loop(c_store(), 16);
  ASSERT_EQ(loop.status().code, PINGET_OK);
  uint64_t bytes = 0, entries = 0;
  EXPECT_EQ(loop.Scan(16, 1000, &bytes, &entries).code, PINGET_OK);
  EXPECT_EQ(entries, 0u);
  EXPECT_EQ(bytes, 0u);
}

}  // namespace
}  // namespace pinget_test
