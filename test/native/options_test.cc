// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The point-lookup options: each reaches RocksDB (the database's newest
// OPTIONS file, or a property of the open database), reads stay right with
// every one of them on, and every bad value is refused by name.

#include <rocksdb/perf_context.h>
#include <rocksdb/perf_level.h>
#include <rocksdb/table.h>
#include <rocksdb/version.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace pinget_test {
namespace {

using pinget::BlockCacheKind;
using pinget::Options;
using pinget::ReadOptions;
using pinget::Status;
using pinget::Store;

constexpr int kKeys = 2000;

std::string Key(int i) {
  char text[16];
  std::snprintf(text, sizeof(text), "key%06d", i);
  return text;
}
// Sorts between Key(i) and Key(i + 1), so it lies inside every file's range.
std::string AbsentKey(int i) { return Key(i) + "x"; }

// The value of `name` in the OPTIONS file's block-based table section of the
// default column family, or "<absent>".
std::string TableOption(const std::string& options_file,
                        const std::string& name) {
  return OptionsFileValue(options_file,
                          "[TableOptions/BlockBasedTable \"default\"]", name);
}

// The number after "<name>=" in a property's text ("filter block size=...").
uint64_t NumberAfter(const std::string& text, const std::string& name) {
  const size_t at = text.find(name + "=");
  if (at == std::string::npos) {
    ADD_FAILURE() << "no " << name << " in " << text;
    return 0;
  }
  return std::stoull(text.substr(at + name.size() + 1));
}

class OptionsTest : public StoreTest {
 protected:
  // Writes kKeys keys and flushes them into an SST file.
  void WriteAndFlush() {
    for (int i = 0; i < kKeys; ++i) {
      ASSERT_OK(store_->Put(Key(i), MakeValue(Key(i), 100, 1)));
    }
    ASSERT_OK(store_->Flush());
  }

  // Every key reads its value and every absent key is not found, with every
  // strategy.
  void ExpectReadsAreRight() {
    for (int i = 0; i < kKeys; i += 97) {
      for (Strategy s : kAllStrategies) {
        const ReadResult present =
            ReadWith(store_.get(), s, ReadOptions(), Key(i));
        ASSERT_TRUE(present.status.ok())
            << StrategyName(s) << ": " << present.status;
        EXPECT_EQ(present.bytes, MakeValue(Key(i), 100, 1)) << StrategyName(s);
        const ReadResult absent =
            ReadWith(store_.get(), s, ReadOptions(), AbsentKey(i));
        EXPECT_TRUE(absent.status.IsNotFound())
            << StrategyName(s) << ": " << absent.status;
      }
    }
  }

  std::string Property(const std::string& name) {
    std::string value;
    EXPECT_OK(store_->GetProperty(0, name, &value));
    return value;
  }
};

TEST_F(OptionsTest, DefaultsAreRocksDBs) {
  const Options o;
  const rocksdb::BlockBasedTableOptions rocksdb_defaults;
  EXPECT_EQ(o.data_block_hash_index,
            rocksdb_defaults.data_block_index_type ==
                rocksdb::BlockBasedTableOptions::kDataBlockBinaryAndHash);
  EXPECT_EQ(o.bloom_bits_per_key != 0,
            rocksdb_defaults.filter_policy != nullptr);
  EXPECT_EQ(o.whole_key_filtering, rocksdb_defaults.whole_key_filtering);
  EXPECT_EQ(o.cache_index_and_filter_blocks,
            rocksdb_defaults.cache_index_and_filter_blocks);
  EXPECT_EQ(o.pin_l0_filter_and_index_blocks_in_cache,
            rocksdb_defaults.pin_l0_filter_and_index_blocks_in_cache);
  EXPECT_EQ(o.block_cache_kind, BlockCacheKind::kLru);

  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  const std::string file = NewestOptionsFile(DbPath());
  EXPECT_EQ(TableOption(file, "data_block_index_type"),
            "kDataBlockBinarySearch");
  EXPECT_EQ(TableOption(file, "filter_policy"), "nullptr");
  EXPECT_EQ(TableOption(file, "whole_key_filtering"), "true");
  EXPECT_EQ(TableOption(file, "cache_index_and_filter_blocks"), "false");
  EXPECT_EQ(TableOption(file, "pin_l0_filter_and_index_blocks_in_cache"),
            "false");
}

TEST_F(OptionsTest, EachOptionReachesTheOptionsFile) {
  struct Case {
    const char* name;
    std::function<void(Options*)> set;
    const char* table_option;
    const char* written;
  };
  const Case cases[] = {
      {"data_block_hash_index",
       [](Options* o) { o->data_block_hash_index = true; },
       "data_block_index_type", "kDataBlockBinaryAndHash"},
      // The hash table's fill stays RocksDB's.
      {"data_block_hash_index",
       [](Options* o) { o->data_block_hash_index = true; },
       "data_block_hash_table_util_ratio", "0.750000"},
      {"bloom_bits_per_key", [](Options* o) { o->bloom_bits_per_key = 10; },
       "filter_policy", "bloomfilter:10:false"},
      {"bloom_bits_per_key", [](Options* o) { o->bloom_bits_per_key = 7.5; },
       "filter_policy", "bloomfilter:7.5:false"},
      {"whole_key_filtering",
       [](Options* o) { o->whole_key_filtering = false; },
       "whole_key_filtering", "false"},
      {"cache_index_and_filter_blocks",
       [](Options* o) { o->cache_index_and_filter_blocks = true; },
       "cache_index_and_filter_blocks", "true"},
      {"pin_l0_filter_and_index_blocks_in_cache",
       [](Options* o) {
         o->cache_index_and_filter_blocks = true;
         o->pin_l0_filter_and_index_blocks_in_cache = true;
       },
       "pin_l0_filter_and_index_blocks_in_cache", "true"},
  };
  int n = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Options o;
    c.set(&o);
    const std::string name = "db" + std::to_string(n++);
    ASSERT_NO_FATAL_FAILURE(OpenStore(o, name));
    EXPECT_EQ(TableOption(NewestOptionsFile(DbPath(name)), c.table_option),
              c.written);
    ASSERT_NO_FATAL_FAILURE(WriteAndFlush());
    ASSERT_NO_FATAL_FAILURE(ExpectReadsAreRight());
    ASSERT_OK(store_->Close());
  }
}

// The block cache is not written to the OPTIONS file; the entry statistics
// name its class ("Block cache LRUCache@0x...", "...HyperClockCache@0x...").
// (Their counts can be up to 10 s old: RocksDB may have collected them at
// open, before any read, so they are not asserted.)
TEST_F(OptionsTest, BlockCacheKindChoosesTheCache) {
  const struct {
    BlockCacheKind kind;
    const char* named;
    const char* not_named;
  } cases[] = {{BlockCacheKind::kLru, "LRUCache@", "HyperClockCache"},
               {BlockCacheKind::kHyperClock, "HyperClockCache@", "LRUCache"}};
  int n = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.named);
    Options o;
    o.block_cache_kind = c.kind;
    o.block_cache_bytes = 32 * kMiB;
    const std::string name = "db" + std::to_string(n++);
    ASSERT_NO_FATAL_FAILURE(OpenStore(o, name));
    ASSERT_NO_FATAL_FAILURE(WriteAndFlush());
    ASSERT_NO_FATAL_FAILURE(ExpectReadsAreRight());
    const std::string stats = Property("rocksdb.block-cache-entry-stats");
    EXPECT_NE(stats.find(c.named), std::string::npos) << stats;
    EXPECT_EQ(stats.find(c.not_named), std::string::npos) << stats;
    EXPECT_EQ(Property("rocksdb.block-cache-capacity"),
              std::to_string(32 * kMiB));
    ASSERT_OK(store_->Close());
  }
}

// The filter is built into the SST file, holding every key, and a read of an
// absent key is answered by it without reading a data block.
TEST_F(OptionsTest, ABloomFilterIsBuiltAndConsulted) {
  for (double bits : {0.0, 10.0}) {
    SCOPED_TRACE(bits);
    Options o;
    o.bloom_bits_per_key = bits;
    const std::string name = bits == 0 ? "without" : "with";
    ASSERT_NO_FATAL_FAILURE(OpenStore(o, name));
    ASSERT_NO_FATAL_FAILURE(WriteAndFlush());
    const std::string table = Property("rocksdb.aggregated-table-properties");
    if (bits == 0) {
      EXPECT_EQ(NumberAfter(table, "filter block size"), 0u) << table;
    } else {
      EXPECT_GT(NumberAfter(table, "filter block size"), 0u) << table;
      EXPECT_EQ(NumberAfter(table, "# entries for filter"),
                static_cast<uint64_t>(kKeys))
          << table;
    }

    // pinget's own count of file reads (F): with the cache left unfilled,
    // each absent key that gets past the filter reads its data block from
    // the file. 10 bits per key: about 1% of absent keys pass the filter; the
    // table's own blocks, if this thread opens it, are a few reads more.
    ReadOptions uncached;
    uncached.fill_cache = false;
    std::string value;
    constexpr int kReads = 200;
    pinget::ResetCopyStats();
#if PINGET_ENGINE_PERF_CONTEXT
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
    rocksdb::get_perf_context()->Reset();
#endif
    for (int i = 0; i < kReads; ++i) {
      EXPECT_TRUE(
          store_->GetString(uncached, AbsentKey(i * 7), &value).IsNotFound());
    }
    const uint64_t file_reads = pinget::GetCopyStats().file_reads;
    if (bits == 0) {
      EXPECT_GE(file_reads, static_cast<uint64_t>(kReads));
    } else {
      EXPECT_LE(file_reads, static_cast<uint64_t>(kReads / 10));
    }
#if PINGET_ENGINE_PERF_CONTEXT
    // And RocksDB's own count, where the engine keeps a PerfContext (a
    // system RocksDB; the bundled engine is built without one).
    const uint64_t misses = rocksdb::get_perf_context()->bloom_sst_miss_count;
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
    if (bits == 0) {
      EXPECT_EQ(misses, 0u);
    } else {
      EXPECT_GE(misses, static_cast<uint64_t>(kReads * 9 / 10));
    }
#endif
    ASSERT_NO_FATAL_FAILURE(ExpectReadsAreRight());
    ASSERT_OK(store_->Close());
  }
}

// Without the option each open file holds its index and filter blocks in its
// own memory (the table readers' estimate counts them); with it they are
// block-cache entries, so that memory shrinks by at least the filter's size.
TEST_F(OptionsTest, CacheIndexAndFilterBlocksMovesThemIntoTheCache) {
  uint64_t readers_mem[2] = {0, 0};
  uint64_t filter_size = 0;
  for (bool cached : {false, true}) {
    SCOPED_TRACE(cached);
    Options o;
    o.bloom_bits_per_key = 10;
    o.cache_index_and_filter_blocks = cached;
    const std::string name = cached ? "cached" : "held";
    ASSERT_NO_FATAL_FAILURE(OpenStore(o, name));
    ASSERT_NO_FATAL_FAILURE(WriteAndFlush());
    ASSERT_NO_FATAL_FAILURE(ExpectReadsAreRight());
    readers_mem[cached] =
        std::stoull(Property("rocksdb.estimate-table-readers-mem"));
    filter_size = NumberAfter(Property("rocksdb.aggregated-table-properties"),
                              "filter block size");
    ASSERT_OK(store_->Close());
  }
  ASSERT_GT(filter_size, 0u);
  EXPECT_GE(readers_mem[false], readers_mem[true] + filter_size)
      << "held: " << readers_mem[false] << ", cached: " << readers_mem[true];
}

// Pinned, a flushed file's index and filter blocks stay referenced by its
// reader while no read is in flight; unpinned, they are not (other entries,
// such as RocksDB's statistics collector, may be pinned either way).
TEST_F(OptionsTest, PinL0FilterAndIndexBlocksKeepsThemPinned) {
  uint64_t pinned_bytes[2] = {0, 0};
  uint64_t filter_size = 0;
  for (bool pinned : {false, true}) {
    SCOPED_TRACE(pinned);
    Options o;
    o.bloom_bits_per_key = 10;
    o.cache_index_and_filter_blocks = true;
    o.pin_l0_filter_and_index_blocks_in_cache = pinned;
    const std::string name = pinned ? "pinned" : "unpinned";
    ASSERT_NO_FATAL_FAILURE(OpenStore(o, name));
    ASSERT_NO_FATAL_FAILURE(WriteAndFlush());
    ASSERT_NO_FATAL_FAILURE(ExpectReadsAreRight());
    pinned_bytes[pinned] =
        std::stoull(Property("rocksdb.block-cache-pinned-usage"));
    filter_size = NumberAfter(Property("rocksdb.aggregated-table-properties"),
                              "filter block size");
    ASSERT_OK(store_->Close());
  }
  ASSERT_GT(filter_size, 0u);
  EXPECT_GE(pinned_bytes[true], pinned_bytes[false] + filter_size)
      << "pinned: " << pinned_bytes[true]
      << ", unpinned: " << pinned_bytes[false];
}

TEST_F(OptionsTest, ReadsAreRightWithEveryOptionOn) {
  for (BlockCacheKind kind :
       {BlockCacheKind::kLru, BlockCacheKind::kHyperClock}) {
    SCOPED_TRACE(static_cast<int>(kind));
    Options o;
    o.block_cache_kind = kind;
    o.data_block_hash_index = true;
    o.bloom_bits_per_key = 10;
    o.cache_index_and_filter_blocks = true;
    o.pin_l0_filter_and_index_blocks_in_cache = true;
    const std::string name = "db" + std::to_string(static_cast<int>(kind));
    ASSERT_NO_FATAL_FAILURE(OpenStore(o, name));
    ASSERT_NO_FATAL_FAILURE(WriteAndFlush());
    ASSERT_NO_FATAL_FAILURE(ExpectReadsAreRight());
    // From the memtable too, and after a compaction rewrote the file.
    ASSERT_OK(store_->Put("memtable", "value"));
    std::string value;
    ASSERT_OK(store_->GetString(ReadOptions(), "memtable", &value));
    EXPECT_EQ(value, "value");
    ASSERT_OK(store_->Compact());
    ASSERT_NO_FATAL_FAILURE(ExpectReadsAreRight());
    const std::string file = NewestOptionsFile(DbPath(name));
    EXPECT_EQ(TableOption(file, "data_block_index_type"),
              "kDataBlockBinaryAndHash");
    EXPECT_EQ(TableOption(file, "filter_policy"), "bloomfilter:10:false");
    EXPECT_EQ(TableOption(file, "cache_index_and_filter_blocks"), "true");
    EXPECT_EQ(TableOption(file, "pin_l0_filter_and_index_blocks_in_cache"),
              "true");
    ASSERT_OK(store_->Close());
    // Reopened with the same options, the files written are read right.
    ASSERT_NO_FATAL_FAILURE(OpenStore(o, name));
    ASSERT_NO_FATAL_FAILURE(ExpectReadsAreRight());
    ASSERT_OK(store_->Close());
  }
}

TEST_F(OptionsTest, BadValuesAreRefusedByName) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  struct Case {
    std::function<void(Options*)> set;
    std::vector<std::string> message;  // each is in the refusal
  };
  std::vector<Case> cases;
  for (double bits :
       {-1.0, -1e-9, 0.5, 0.999, 100.001, 1e300, kNaN, kInf, -kInf}) {
    cases.push_back(
        {[bits](Options* o) { o->bloom_bits_per_key = bits; },
         {"bloom_bits_per_key is ", "allowed: 0 (no filter) or 1 to 100"}});
  }
  for (int kind : {-1, 2, 1000}) {
    cases.push_back({[kind](Options* o) {
                       o->block_cache_kind = static_cast<BlockCacheKind>(kind);
                     },
                     {"block_cache_kind " + std::to_string(kind),
                      "pinget::BlockCacheKind"}});
  }
  cases.push_back({[](Options* o) {
                     o->block_cache_kind = BlockCacheKind::kHyperClock;
                     o->block_cache_bytes = 0;
                   },
                   {"block_cache_kind kHyperClock", "block_cache_bytes is 0"}});
  cases.push_back(
      {[](Options* o) {
         o->cache_index_and_filter_blocks = true;
         o->block_cache_bytes = 0;
       },
       {"cache_index_and_filter_blocks", "block_cache_bytes is 0"}});
  cases.push_back(
      {[](Options* o) { o->pin_l0_filter_and_index_blocks_in_cache = true; },
       {"pin_l0_filter_and_index_blocks_in_cache requires "
        "cache_index_and_filter_blocks"}});
  cases.push_back({[](Options* o) {
                     o->bloom_bits_per_key = 10;
                     o->whole_key_filtering = false;
                   },
                   {"whole_key_filtering", "bloom_bits_per_key"}});
  int n = 0;
  for (const Case& c : cases) {
    Options o;
    c.set(&o);
    std::unique_ptr<Store> store;
    const Status s =
        Store::Open(DbPath("bad" + std::to_string(n++)), o, &store);
    EXPECT_TRUE(s.IsInvalidArgument()) << s;
    for (const std::string& part : c.message) {
      EXPECT_NE(s.message().find(part), std::string::npos) << s;
    }
    EXPECT_EQ(store, nullptr);
  }
  EXPECT_FALSE(std::filesystem::exists(DbPath("bad0")));

  // The edges of what is allowed.
  for (double bits : {0.0, -0.0, 1.0, 1.5, 99.999, 100.0}) {
    Options o;
    o.bloom_bits_per_key = bits;
    std::unique_ptr<Store> store;
    const Status s =
        Store::Open(DbPath("good" + std::to_string(n++)), o, &store);
    EXPECT_TRUE(s.ok()) << bits << ": " << s;
    if (s.ok()) EXPECT_OK(store->Close());
  }
}

// The one text format every binding passes options in: every field round-trips,
// names and values are refused by name, and nothing is half-applied.
TEST(OptionsTextTest, FormatThenParseGivesTheSameOptions) {
  Options o;
  o.create_if_missing = false;
  o.error_if_exists = true;
  o.block_cache_bytes = 12345;
  o.block_cache_kind = BlockCacheKind::kHyperClock;
  o.cache_index_and_filter_blocks = true;
  o.pin_l0_filter_and_index_blocks_in_cache = true;
  o.block_size = 16384;
  o.allow_mmap_reads = true;
  o.use_direct_reads = true;
  o.data_block_hash_index = true;
  o.bloom_bits_per_key = 9.75;
  o.whole_key_filtering = false;
  o.write_buffer_bytes = 1 << 20;
  o.max_open_files = 64;
  o.compression = pinget::Compression::kZstd;
  const std::string text = pinget::FormatOptions(o);
  EXPECT_NE(text.find("block_cache_kind=hyper_clock"), std::string::npos)
      << text;
  EXPECT_NE(text.find("compression=zstd"), std::string::npos) << text;
  EXPECT_NE(text.find("bloom_bits_per_key=9.75"), std::string::npos) << text;
  Options parsed;
  ASSERT_OK(pinget::ParseOptions(text, &parsed));
  EXPECT_EQ(pinget::FormatOptions(parsed), text);
  EXPECT_EQ(pinget::FormatOptions(Options()), [] {
    Options d;
    EXPECT_OK(pinget::ParseOptions("", &d));
    return pinget::FormatOptions(d);
  }());
}

TEST(OptionsTextTest, RefusesUnknownNamesAndBadValuesByName) {
  const struct {
    const char* text;
    const char* message;
  } cases[] = {
      {"block_cache_bytes=12;colour=red", "unknown option colour"},
      {"block_cache_bytes", "option block_cache_bytes has no value"},
      {"block_cache_bytes=-1", "option block_cache_bytes: cannot read -1"},
      {"block_cache_bytes=12x", "cannot read 12x"},
      {"block_cache_bytes=", "cannot read "},
      {"block_cache_bytes=99999999999999999999999", "cannot read"},
      {"create_if_missing=yes", "option create_if_missing: cannot read yes"},
      {"block_cache_kind=LRU", "option block_cache_kind: cannot read LRU"},
      {"compression=lz5", "option compression: cannot read lz5"},
      {"bloom_bits_per_key=ten", "option bloom_bits_per_key: cannot read ten"},
      {"max_open_files=1.5", "option max_open_files: cannot read 1.5"},
  };
  for (const auto& c : cases) {
    Options o;
    o.block_size = 777;
    const Status s = pinget::ParseOptions(c.text, &o);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.text << ": " << s;
    EXPECT_NE(s.message().find(c.message), std::string::npos)
        << c.text << ": " << s;
    EXPECT_EQ(o.block_cache_bytes, Options().block_cache_bytes) << c.text;
    EXPECT_EQ(o.block_size, 777u) << c.text;
  }
  EXPECT_TRUE(pinget::ParseOptions("", nullptr).IsInvalidArgument());
  // Empty pairs are skipped; the last value of a name wins.
  Options o;
  ASSERT_OK(pinget::ParseOptions(";block_size=8192;;block_size=1024;", &o));
  EXPECT_EQ(o.block_size, 1024u);
}

// max_open_files reaches RocksDB, -1 and 20 upwards are taken, and reads stay
// right when RocksDB must reopen files that it closed.
TEST_F(OptionsTest, MaxOpenFiles) {
  for (int bad : {-2, 0, 1, 19}) {
    Options o;
    o.max_open_files = bad;
    std::unique_ptr<Store> store;
    const Status s =
        Store::Open(DbPath("bad" + std::to_string(bad)), o, &store);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad << ": " << s;
    EXPECT_NE(s.message().find("max_open_files is " + std::to_string(bad) +
                               "; allowed: -1 (every file open) or 20"),
              std::string::npos)
        << s;
  }
  Options o;
  EXPECT_EQ(o.max_open_files, rocksdb::DBOptions().max_open_files);
  o.max_open_files = 20;
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  EXPECT_EQ(OptionsFileValue(NewestOptionsFile(DbPath()), "[DBOptions]",
                             "max_open_files"),
            "20");
  // More files than RocksDB may keep open: each flush makes one.
  for (int f = 0; f < 30; ++f) {
    for (int i = f; i < kKeys; i += 30) {
      ASSERT_OK(store_->Put(Key(i), MakeValue(Key(i), 100, 1)));
    }
    ASSERT_OK(store_->Flush());
  }
  ExpectReadsAreRight();
}

// A HyperClockCache whose table the kernel will not map is refused at open,
// never an abort of the process (RocksDB terminates when its mmap fails).
// Every size of the documented range up to 1 PiB either opens or is refused
// with InvalidArgument; 1 PiB, whose table no machine maps, is refused.
TEST_F(OptionsTest, HyperClockCacheTooLargeToMapIsRefused) {
  int n = 0;
  // Before 8.7 RocksDB commits the cache's table when it is made (1 TiB: up
  // to 32 GiB of memory), so only 1 PiB, refused on any machine, is tried.
  const bool eager_table =
      ROCKSDB_MAJOR < 8 || (ROCKSDB_MAJOR == 8 && ROCKSDB_MINOR < 7);
  for (size_t bytes = size_t{1} << (eager_table ? 50 : 40);
       bytes <= (size_t{1} << 50); bytes <<= 1) {
    Options o;
    o.block_cache_kind = BlockCacheKind::kHyperClock;
    o.block_cache_bytes = bytes;
    std::unique_ptr<Store> store;
    const Status s =
        Store::Open(DbPath("hcc" + std::to_string(n++)), o, &store);
    std::printf("kHyperClock of %zu TiB: %s\n", bytes >> 40,
                s.ok() ? "opened" : "refused");
    if (s.ok()) {
      EXPECT_OK(store->Close());
      EXPECT_LT(bytes, size_t{1} << 50);
    } else {
      EXPECT_TRUE(s.IsInvalidArgument()) << bytes << ": " << s;
      EXPECT_NE(s.message().find("too large for a kHyperClock cache"),
                std::string::npos)
          << s;
    }
  }
}

}  // namespace
}  // namespace pinget_test
