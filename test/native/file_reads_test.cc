// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The file-read counters (CopyStats::file_reads, file_bytes_read): a get that
// misses the block cache counts the read of its block from the SST file, a
// hit counts none, and the counts agree with RocksDB's own PerfContext
// (block_read_count, block_read_byte) for the same gets. Also the options
// that change the file path: fill_cache = false, allow_mmap_reads and
// use_direct_reads.

#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>

#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

namespace pinget_test {
namespace {

using pinget::CopyStats;
using pinget::GetCopyStats;
using pinget::Options;
using pinget::PinnedBatch;
using pinget::PinnedValue;
using pinget::ReadOptions;
using pinget::ResetCopyStats;
using pinget::Status;

constexpr size_t kValue = 64 * kKiB;  // larger than a block: one block each
constexpr size_t kKeys = 24;

std::string Key(size_t i) { return "file-" + std::to_string(100 + i); }

// Uncompressed, so a block's size on disk is known; the cache holds a few of
// the values at most.
Options FileOptions() {
  Options o;
  o.compression = pinget::Compression::kNone;
  o.block_cache_bytes = 4 * kValue;
  return o;
}

// RocksDB's own count of this thread's block reads, switched on for a scope.
class PerfCount {
 public:
  PerfCount() {
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
    rocksdb::get_perf_context()->Reset();
  }
  ~PerfCount() { rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable); }
  uint64_t reads() const {
    return rocksdb::get_perf_context()->block_read_count;
  }
  uint64_t bytes() const {
    return rocksdb::get_perf_context()->block_read_byte;
  }
};

class FileReadsTest : public StoreTest {
 protected:
  // Writes kKeys values to an SST file, then reopens the store so that its
  // block cache is empty.
  void Load(const Options& options) {
    ASSERT_NO_FATAL_FAILURE(OpenStore(options));
    for (size_t i = 0; i < kKeys; ++i) {
      ASSERT_OK(store_->Put(Key(i), MakeValue(Key(i), kValue, 1)));
    }
    ASSERT_OK(store_->Flush());
    ASSERT_OK(store_->Close());
    store_.reset();
    ASSERT_NO_FATAL_FAILURE(OpenStore(options));
  }
};

TEST_F(FileReadsTest, MissCountsOneBlockReadAndHitNone) {
  ASSERT_NO_FATAL_FAILURE(Load(FileOptions()));
  PinnedValue value;
  ResetCopyStats();
  ASSERT_OK(store_->GetPinned(ReadOptions(), Key(3), &value));
  CopyStats s = GetCopyStats();
  EXPECT_EQ(s.file_reads, 1u);
  // The block holds the value, its key and a few bytes of framing.
  EXPECT_GE(s.file_bytes_read, kValue);
  EXPECT_LT(s.file_bytes_read, kValue + 128);
  EXPECT_EQ(s.value_copies, 0u) << "the block went to the cache: pinned";
  EXPECT_TRUE(value.pinned_in_cache());
  EXPECT_TRUE(value.view() == MakeValue(Key(3), kValue, 1));

  ResetCopyStats();
  ASSERT_OK(store_->GetPinned(ReadOptions(), Key(3), &value));
  s = GetCopyStats();
  EXPECT_EQ(s.file_reads, 0u) << "a block-cache hit reads no file";
  EXPECT_EQ(s.file_bytes_read, 0u);

  // A memtable value reads no file either.
  ASSERT_OK(store_->Put("fresh", "in the memtable"));
  ResetCopyStats();
  ASSERT_OK(store_->GetPinned(ReadOptions(), "fresh", &value));
  EXPECT_EQ(GetCopyStats().file_reads, 0u);
}

// Every strategy reads the same way; the copies of each are on top of F.
TEST_F(FileReadsTest, EveryStrategyCountsTheRead) {
  ASSERT_NO_FATAL_FAILURE(Load(FileOptions()));
  std::string s;
  std::vector<char> buffer(kValue);
  size_t size = 0;
  ResetCopyStats();
  ASSERT_OK(store_->GetString(ReadOptions(), Key(0), &s));
  ASSERT_OK(store_->GetInto(ReadOptions(), Key(1), buffer.data(), buffer.size(),
                            &size));
  ASSERT_OK(store_->GetVisit(
      ReadOptions(), Key(2), [](void*, std::string_view) {}, nullptr));
  const CopyStats got = GetCopyStats();
  EXPECT_EQ(got.file_reads, 3u);
  EXPECT_GE(got.file_bytes_read, 3 * kValue);
}

// The counts equal RocksDB's block reads over gets that hit and miss in a
// cache too small for the data, single and batched.
TEST_F(FileReadsTest, AgreesWithRocksDBPerfContext) {
  if (!PINGET_ENGINE_PERF_CONTEXT) {
    GTEST_SKIP() << "the bundled engine is built without RocksDB's "
                    "PerfContext; the system-RocksDB run checks this";
  }
  ASSERT_NO_FATAL_FAILURE(Load(FileOptions()));
  PinnedValue value;
  std::vector<std::string> keys;
  for (size_t i = 0; i < 60; ++i) keys.push_back(Key((i * 7) % kKeys));
  PerfCount perf;
  ResetCopyStats();
  for (const std::string& k : keys) {
    ASSERT_OK(store_->GetPinned(ReadOptions(), k, &value));
  }
  CopyStats got = GetCopyStats();
  EXPECT_GT(got.file_reads, keys.size() / 2) << "most gets miss";
  EXPECT_EQ(got.file_reads, perf.reads());
  EXPECT_EQ(got.file_bytes_read, perf.bytes());

  // MultiGet may read neighbouring blocks with one request: the same bytes,
  // in as many reads or fewer.
  std::vector<std::string_view> batch;
  for (size_t i = 0; i < kKeys; ++i) batch.push_back(keys[i]);
  PinnedBatch values;
  value.Release();
  rocksdb::get_perf_context()->Reset();
  ResetCopyStats();
  ASSERT_OK(store_->MultiGetPinned(ReadOptions(), batch.size(), batch.data(),
                                   &values));
  got = GetCopyStats();
  EXPECT_GT(got.file_reads, 0u);
  EXPECT_LE(got.file_reads, perf.reads());
  EXPECT_EQ(got.file_bytes_read, perf.bytes());
}

// fill_cache = false: every get reads its block again, and the value is
// copied out of it (P = 1).
TEST_F(FileReadsTest, FillCacheFalseReadsEveryTime) {
  ASSERT_NO_FATAL_FAILURE(Load(FileOptions()));
  ReadOptions ro;
  ro.fill_cache = false;
  PinnedValue value;
  for (int i = 0; i < 3; ++i) {
    ResetCopyStats();
    ASSERT_OK(store_->GetPinned(ro, Key(5), &value));
    const CopyStats s = GetCopyStats();
    EXPECT_EQ(s.file_reads, 1u) << "get " << i;
    EXPECT_FALSE(value.pinned_in_cache());
  }
}

// A memory map is read in place: no file copy counted, and the value is
// copied into the PinnableSlice instead (P = 1).
TEST_F(FileReadsTest, MmapReadsCopyNothingFromTheFileButTheValueOnce) {
  Options o = FileOptions();
  o.allow_mmap_reads = true;
  ASSERT_NO_FATAL_FAILURE(Load(o));
  PinnedValue value;
  for (int i = 0; i < 2; ++i) {
    ResetCopyStats();
    ASSERT_OK(store_->GetPinned(ReadOptions(), Key(4), &value));
    const CopyStats s = GetCopyStats();
    EXPECT_EQ(s.file_reads, 0u) << "get " << i;
    EXPECT_EQ(s.value_copies, value.pinned_in_cache() ? 0u : 1u);
    EXPECT_TRUE(value.view() == MakeValue(Key(4), kValue, 1));
  }
}

// O_DIRECT reads whole aligned pages: at least the block, counted once.
TEST_F(FileReadsTest, DirectReadsCountTheAlignedRead) {
  Options o = FileOptions();
  o.use_direct_reads = true;
  std::unique_ptr<pinget::Store> probe;
  const Status st = pinget::Store::Open(DbPath("probe"), o, &probe);
  if (!st.ok()) GTEST_SKIP() << "no O_DIRECT here: " << st.ToString();
  EXPECT_EQ(OptionsFileValue(NewestOptionsFile(DbPath("probe")), "[DBOptions]",
                             "use_direct_reads"),
            "true");
  ASSERT_OK(probe->Close());
  ASSERT_NO_FATAL_FAILURE(Load(o));
  PinnedValue value;
  ResetCopyStats();
  ASSERT_OK(store_->GetPinned(ReadOptions(), Key(6), &value));
  const CopyStats s = GetCopyStats();
  EXPECT_EQ(s.file_reads, 1u);
  EXPECT_GE(s.file_bytes_read, kValue);
  EXPECT_TRUE(value.view() == MakeValue(Key(6), kValue, 1));
}

TEST_F(FileReadsTest, FileOptionsReachTheOptionsFile) {
  for (bool mmap : {false, true}) {
    Options o = FileOptions();
    o.allow_mmap_reads = mmap;
    const std::string name = mmap ? "mmap" : "plain";
    ASSERT_NO_FATAL_FAILURE(OpenStore(o, name));
    const std::string file = NewestOptionsFile(DbPath(name));
    EXPECT_EQ(OptionsFileValue(file, "[DBOptions]", "allow_mmap_reads"),
              mmap ? "true" : "false");
    EXPECT_EQ(OptionsFileValue(file, "[DBOptions]", "use_direct_reads"),
              "false");
    ASSERT_OK(store_->Close());
  }
}

TEST_F(FileReadsTest, MmapAndDirectReadsAreRefusedTogether) {
  Options o = FileOptions();
  o.allow_mmap_reads = true;
  o.use_direct_reads = true;
  std::unique_ptr<pinget::Store> store;
  const Status st = pinget::Store::Open(DbPath(), o, &store);
  EXPECT_TRUE(st.IsInvalidArgument()) << st.ToString();
  EXPECT_NE(st.message().find("allow_mmap_reads"), std::string::npos);
  EXPECT_NE(st.message().find("use_direct_reads"), std::string::npos);
}

TEST_F(FileReadsTest, CountersArePerThread) {
  ASSERT_NO_FATAL_FAILURE(Load(FileOptions()));
  ResetCopyStats();
  std::thread reader([&] {
    PinnedValue value;
    ResetCopyStats();
    ASSERT_OK(store_->GetPinned(ReadOptions(), Key(7), &value));
    EXPECT_EQ(GetCopyStats().file_reads, 1u);
  });
  reader.join();
  EXPECT_EQ(GetCopyStats().file_reads, 0u);
}

}  // namespace
}  // namespace pinget_test
