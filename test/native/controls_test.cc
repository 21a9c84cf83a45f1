// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The benchmark controls (pinget/binding/controls.h) read what the strategies
// read, count what they count, and keep the batched rule for errors.

#include "pinget/binding/controls.h"

#include <string>
#include <string_view>
#include <vector>

#include "test_util.h"

namespace pinget_test {
namespace {

using pinget::CopyStats;
using pinget::GetCopyStats;
using pinget::PinnedBatch;
using pinget::PinnedValue;
using pinget::ReadOptions;
using pinget::ResetCopyStats;
using pinget::Status;

class ControlsTest : public StoreTest {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions()));
    for (int i = 0; i < 100; ++i) {
      keys_.push_back("key-" + std::to_string(i));
      ASSERT_TRUE(store_->Put(keys_.back(), std::string(10 + i, 'v')).ok());
      expected_ += 10 + i;
    }
    ASSERT_TRUE(store_->Flush().ok());
    for (const std::string& k : keys_) views_.push_back(k);
  }

  std::vector<std::string> keys_;
  std::vector<std::string_view> views_;
  uint64_t expected_ = 0;
};

TEST_F(ControlsTest, LoopsReadEveryKeyAndCountAsTheStrategies) {
  PinnedValue value;
  uint64_t bytes = 0;
  ASSERT_TRUE(pinget::PinnedGetLoop(*store_, ReadOptions(), views_.size(),
                                    views_.data(), &value, &bytes)
                  .ok());
  EXPECT_EQ(bytes, expected_);
  EXPECT_EQ(value.view(), std::string(10 + 99, 'v'));  // the last key's pin

  PinnedBatch batch;
  for (size_t b : {size_t{1}, size_t{16}, size_t{64}, size_t{1000}}) {
    bytes = 0;
    ASSERT_TRUE(pinget::PinnedBatchLoop(*store_, ReadOptions(), views_.size(),
                                        views_.data(), b, &batch, &bytes)
                    .ok());
    EXPECT_EQ(bytes, expected_) << "batch " << b;
    ResetCopyStats();  // the batch has grown to b: no allocation from now on
    ASSERT_TRUE(pinget::PinnedBatchLoop(*store_, ReadOptions(), views_.size(),
                                        views_.data(), b, &batch, &bytes)
                    .ok());
    const CopyStats stats = GetCopyStats();  // block cache: P = 0
    EXPECT_EQ(stats.value_copies, 0u);
    EXPECT_EQ(stats.key_copies, 0u);
    EXPECT_EQ(stats.allocations, 0u);
  }
}

TEST_F(ControlsTest, MissingKeysAreNotErrorsAndBadArgumentsAre) {
  std::vector<std::string_view> keys = {views_[0], "missing", views_[1]};
  PinnedValue value;
  PinnedBatch batch;
  uint64_t bytes = 0;
  EXPECT_TRUE(pinget::PinnedGetLoop(*store_, ReadOptions(), keys.size(),
                                    keys.data(), &value, &bytes)
                  .ok());
  EXPECT_EQ(bytes, 10u + 11u);
  bytes = 0;
  EXPECT_TRUE(pinget::PinnedBatchLoop(*store_, ReadOptions(), keys.size(),
                                      keys.data(), 2, &batch, &bytes)
                  .ok());
  EXPECT_EQ(bytes, 10u + 11u);

  EXPECT_TRUE(pinget::PinnedBatchLoop(*store_, ReadOptions(), keys.size(),
                                      keys.data(), 0, &batch, &bytes)
                  .IsInvalidArgument());
  keys[1] = "";  // an empty key: InvalidArgument, after every key was read
  bytes = 0;
  EXPECT_TRUE(pinget::PinnedGetLoop(*store_, ReadOptions(), keys.size(),
                                    keys.data(), &value, &bytes)
                  .IsInvalidArgument());
  EXPECT_EQ(bytes, 10u + 11u);
  ASSERT_TRUE(store_->Close().ok());
  EXPECT_EQ(pinget::PinnedGetLoop(*store_, ReadOptions(), 1, keys.data(),
                                  &value, &bytes)
                .code(),
            Status::Code::kClosed);
}

}  // namespace
}  // namespace pinget_test
