// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The contract of store.h, written down once there: messages name their code
// once, checks fire in one order (closed store, then arguments, then
// options) for single and batched calls alike, a batch of 0 keys is checked
// as a batch of 1, and every option is range-checked.

#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "pinget/binding/batch_buffers.h"
#include "pinget/binding/store_binding.h"
#include "test_util.h"

namespace pinget_test {
namespace {

using pinget::BatchBuffers;
using pinget::Buffer;
using pinget::Options;
using pinget::PinnedBatch;
using pinget::PinnedValue;
using pinget::ReadOptions;
using pinget::Snapshot;
using pinget::Status;
using pinget::Store;
using pinget::WriteOptions;

class ContractTest : public StoreTest {};

// "<Code>: <message>", with RocksDB's own name for the code gone.
void ExpectNamedOnce(const Status& s, const char* code, const char* rocksdb) {
  EXPECT_EQ(s.ToString().rfind(std::string(code) + ": ", 0), 0u) << s;
  EXPECT_EQ(s.message().rfind(rocksdb, 0), std::string::npos)
      << "RocksDB's \"" << rocksdb << "\" is left in front: " << s;
}

TEST_F(ContractTest, MessagesNameTheirCodeOnce) {
  Options missing;
  missing.create_if_missing = false;
  std::unique_ptr<Store> store;
  Status s = Store::Open(DbPath("missing"), missing, &store);
  ASSERT_TRUE(s.IsInvalidArgument()) << s;
  ExpectNamedOnce(s, "InvalidArgument", "Invalid argument");

  // A file where the database's folder should be.
  const std::string file = DbPath("file");
  std::ofstream(file) << "not a database";
  s = Store::Open(file, Options(), &store);
  ASSERT_TRUE(s.IsIOError()) << s;
  ExpectNamedOnce(s, "IOError", "IO error");
}

TEST_F(ContractTest, MessagesArePrintableAscii) {
  Options missing;
  missing.create_if_missing = false;
  std::unique_ptr<Store> store;
  Status s = Store::Open(DbPath("caf\xc3\xa9"), missing, &store);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("caf\\xc3\\xa9"), std::string::npos) << s;
  for (char c : s.message()) {
    EXPECT_TRUE(c >= 0x20 && c < 0x7f) << s;
  }
}

TEST_F(ContractTest, MultiGetIntoSetsItsOutputsEvenWhenItsChecksFail) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  ASSERT_OK(store_->Close());
  const std::string_view keys[] = {"a", "b"};
  char space[2][4];
  const Buffer buffers[] = {{space[0], 4}, {space[1], 4}};
  size_t sizes[] = {7, 7};
  Status statuses[2];  // OK by default: must not read as "found"
  EXPECT_TRUE(
      store_->MultiGetInto(ReadOptions(), 2, keys, buffers, sizes, statuses)
          .IsClosed());
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(sizes[i], 0u);
    EXPECT_TRUE(statuses[i].IsNotFound()) << statuses[i];
  }
}

TEST_F(ContractTest, AClosedStoreComesBeforeEveryArgumentCheck) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  ASSERT_OK(store_->Close());
  const std::string_view empty;
  ReadOptions unknown_family;
  unknown_family.column_family = 99;
  std::string value;
  size_t size = 0;
  PinnedValue pinned;
  PinnedBatch batch;
  Status status;
  for (const ReadOptions& ro : {ReadOptions(), unknown_family}) {
    EXPECT_TRUE(store_->GetString(ro, empty, nullptr).IsClosed());
    EXPECT_TRUE(store_->GetInto(ro, empty, nullptr, 4, &size).IsClosed());
    EXPECT_TRUE(store_->GetPinned(ro, empty, nullptr).IsClosed());
    EXPECT_TRUE(store_->GetVisit(ro, empty, nullptr, nullptr).IsClosed());
    EXPECT_TRUE(pinget::internal::StoreBinding::GetStringVisit(
                    *store_, ro, empty, nullptr, nullptr)
                    .IsClosed());
    for (size_t count : {size_t{0}, size_t{1}}) {
      SCOPED_TRACE(count);
      EXPECT_TRUE(
          store_->MultiGetInto(ro, count, &empty, nullptr, nullptr, nullptr)
              .IsClosed());
      EXPECT_TRUE(
          store_->MultiGetPinned(ro, count, &empty, nullptr).IsClosed());
      EXPECT_TRUE(store_->MultiGetVisit(ro, count, &empty, nullptr, nullptr)
                      .IsClosed());
      EXPECT_TRUE(
          store_->MultiGetPinned(ro, count, nullptr, &batch).IsClosed());
    }
  }
  EXPECT_TRUE(store_->Put(WriteOptions(), 99, empty, "v").IsClosed());
  EXPECT_TRUE(store_->Delete(WriteOptions(), 99, empty).IsClosed());
  EXPECT_TRUE(store_->Flush(99).IsClosed());
  EXPECT_TRUE(store_->GetProperty(99, "x", nullptr).IsClosed());
  EXPECT_TRUE(store_->GetSnapshot(nullptr).IsClosed());
  EXPECT_TRUE(store_->ColumnFamilyId("x", nullptr).IsClosed());
}

TEST_F(ContractTest, ArgumentsComeBeforeOptionsInSignatureOrder) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  ReadOptions unknown_family;
  unknown_family.column_family = 99;
  const std::string_view empty;
  size_t size = 0;
  Status s = store_->GetInto(unknown_family, empty, nullptr, 4, &size);
  EXPECT_NE(s.message().find("key"), std::string::npos) << s;
  s = store_->GetInto(unknown_family, "k", nullptr, 4, nullptr);
  EXPECT_NE(s.message().find("buffer"), std::string::npos) << s;
  s = store_->GetInto(unknown_family, "k", nullptr, 0, nullptr);
  EXPECT_NE(s.message().find("value_size"), std::string::npos) << s;
  s = store_->GetInto(unknown_family, "k", nullptr, 0, &size);
  EXPECT_NE(s.message().find("column family"), std::string::npos) << s;

  const std::string_view keys[] = {"a", empty};
  PinnedBatch batch;
  s = store_->MultiGetPinned(unknown_family, 2, keys, &batch);
  EXPECT_NE(s.message().find("keys[1]"), std::string::npos) << s;
  s = store_->MultiGetPinned(unknown_family, 1, keys, &batch);
  EXPECT_NE(s.message().find("column family"), std::string::npos) << s;
}

TEST_F(ContractTest, ABatchOfNoKeysIsCheckedAsABatchOfOne) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  std::unique_ptr<Store> other;
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options(), "other", &other));
  std::unique_ptr<Snapshot> foreign;
  ASSERT_OK(other->GetSnapshot(&foreign));
  ReadOptions unknown_family;
  unknown_family.column_family = 99;
  ReadOptions foreign_snapshot;
  foreign_snapshot.snapshot = foreign.get();
  PinnedBatch batch;
  Visits visits;
  for (const ReadOptions& ro : {unknown_family, foreign_snapshot}) {
    EXPECT_TRUE(store_->MultiGetInto(ro, 0, nullptr, nullptr, nullptr, nullptr)
                    .IsInvalidArgument());
    EXPECT_TRUE(
        store_->MultiGetPinned(ro, 0, nullptr, &batch).IsInvalidArgument());
    EXPECT_TRUE(
        store_->MultiGetVisit(ro, 0, nullptr, &RecordBatchVisit, &visits)
            .IsInvalidArgument());
  }
  EXPECT_TRUE(store_->MultiGetPinned(ReadOptions(), 0, nullptr, nullptr)
                  .IsInvalidArgument());
  EXPECT_TRUE(store_->MultiGetVisit(ReadOptions(), 0, nullptr, nullptr, nullptr)
                  .IsInvalidArgument());
  EXPECT_OK(store_->MultiGetPinned(ReadOptions(), 0, nullptr, &batch));
  EXPECT_EQ(batch.size(), 0u);
  EXPECT_TRUE(visits.indexes.empty());
}

// Opens with one option set to value; a refusal must name the option.
Status OpenWith(const std::string& path, Options o, const char* option) {
  std::unique_ptr<Store> store;
  Status s = Store::Open(path, o, &store);
  if (s.ok()) {
    s = store->Close();
  } else if (s.IsInvalidArgument()) {
    EXPECT_NE(s.message().find(option), std::string::npos) << s;
    EXPECT_NE(s.message().find("allowed"), std::string::npos) << s;
  }
  return s;
}

TEST_F(ContractTest, EveryNumericOptionAtItsExtremes) {
  constexpr size_t kMax = std::numeric_limits<size_t>::max();
  int n = 0;
  auto path = [&] { return DbPath("x" + std::to_string(n++)); };
  struct Case {
    const char* option;
    size_t Options::*field;
    std::vector<size_t> valid, invalid;
  };
  const Case cases[] = {
      {"block_cache_bytes",
       &Options::block_cache_bytes,
       {0, 1, size_t{1} << 50},
       {(size_t{1} << 50) + 1, kMax}},
      {"block_size",
       &Options::block_size,
       {1, (size_t{1} << 32) - 1},
       {0, size_t{1} << 32, kMax}},
      // The largest write buffer is opened only: a write would preallocate a
      // WAL of its size.
      {"write_buffer_bytes",
       &Options::write_buffer_bytes,
       {size_t{64} << 10, size_t{64} << 30},
       {0, 1, (size_t{64} << 10) - 1, (size_t{64} << 30) + 1, kMax}},
  };
  for (const Case& c : cases) {
    for (size_t v : c.valid) {
      Options o;
      o.*c.field = v;
      const Status s = OpenWith(path(), o, c.option);
      EXPECT_TRUE(s.ok()) << c.option << " = " << v << ": " << s;
    }
    for (size_t v : c.invalid) {
      Options o;
      o.*c.field = v;
      EXPECT_TRUE(OpenWith(path(), o, c.option).IsInvalidArgument())
          << c.option << " = " << v;
    }
  }
  Options o;
  o.compression = static_cast<pinget::Compression>(-1);
  EXPECT_TRUE(Store::Open(path(), o, nullptr).IsInvalidArgument());
  std::unique_ptr<Store> store;
  Status s = Store::Open(path(), o, &store);
  EXPECT_NE(s.message().find("compression"), std::string::npos) << s;
  s = Store::Open(std::string("a\0b", 3), Options(), &store);
  EXPECT_TRUE(s.IsInvalidArgument()) << s;
}

TEST_F(ContractTest, SyncWritesWithoutTheWalAreRefused) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  WriteOptions wo;
  wo.sync = true;
  wo.disable_wal = true;
  Status s = store_->Put(wo, 0, "k", "v");
  EXPECT_TRUE(s.IsInvalidArgument()) << s;
  EXPECT_NE(s.message().find("disable_wal"), std::string::npos) << s;
  pinget::WriteBatch batch;
  batch.Put("k", "v");
  EXPECT_TRUE(store_->Write(wo, batch).IsInvalidArgument());
}

TEST_F(ContractTest, AKeyInsideTheHandlesOwnValueIsCopiedFirst) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  ASSERT_OK(store_->Put("next", "last"));
  ASSERT_OK(store_->Put("first", "next"));
  PinnedValue value;
  ASSERT_OK(store_->GetPinned(ReadOptions(), "first", &value));
  pinget::ResetCopyStats();
  ASSERT_OK(store_->GetPinned(ReadOptions(), value.view(), &value));
  EXPECT_EQ(value.view(), "last");
  EXPECT_EQ(pinget::GetCopyStats().key_copies, 1u);
}

TEST_F(ContractTest, BatchBuffersHoldKeysAndResults) {
  BatchBuffers b;
  for (int round = 0; round < 2; ++round) {
    b.Reset();
    std::memcpy(b.AddKey(3), "one", 3);
    b.AddKey(0);
    std::memcpy(b.AddKey(5), "three", 5);
    char dst[4];
    b.AddBuffer(dst, sizeof dst);
    ASSERT_EQ(b.size(), 3u);
    EXPECT_EQ(b.keys()[0], "one");
    EXPECT_EQ(b.keys()[1], "");
    EXPECT_EQ(b.keys()[2], "three");
    EXPECT_EQ(b.buffers()[0].data, dst);
    b.ResetResults();
    for (size_t i = 0; i < b.size(); ++i) {
      EXPECT_EQ(b.value_sizes()[i], 0u);
      EXPECT_TRUE(b.statuses()[i].IsNotFound());
    }
  }
}

}  // namespace
}  // namespace pinget_test
