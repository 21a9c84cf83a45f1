// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Readers using every strategy race with a writer, with flushes and
// compactions, and with Close(). Every value read must be one that was
// written for that key (never torn, never another key's), and pins must stay
// stable however long they are held.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <iostream>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gate.h"
#include "pinget/c.h"
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

constexpr int kReaders = 8;
constexpr size_t kKeys = 48;
constexpr size_t kValueSizes[] = {16, 100, 1000, 4096, 20000};
constexpr size_t kMaxValue = 20000;
constexpr size_t kBatch = 8;
constexpr size_t kHeldPins = 4;
constexpr auto kDuration = std::chrono::seconds(3);
// Bounds on loops that otherwise end on the deadline or on Close().
constexpr uint64_t kMaxIterations = 2000000;
constexpr uint64_t kMaxIterationsUntilClosed = 50000000;
constexpr unsigned char kGuard = 0xA5;

// Failures seen on any thread: counted, and the first few kept for the report.
class Failures {
 public:
  void Add(const std::string& what) {
    std::lock_guard<std::mutex> lock(mu_);
    ++count_;
    if (messages_.size() < 10) messages_.push_back(what);
  }
  size_t count() const {
    std::lock_guard<std::mutex> lock(mu_);
    return count_;
  }
  std::string Report() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::string r;
    for (const std::string& m : messages_) r += "\n  " + m;
    return r;
  }

 private:
  mutable std::mutex mu_;
  size_t count_ = 0;
  std::vector<std::string> messages_;
};

std::string KeyFor(size_t i) {
  return i % 2 == 0 ? "key-" + std::to_string(i)
                    : BinaryKey(static_cast<uint32_t>(i));
}

bool AllGuard(const char* p, size_t n) {
  return std::all_of(
      p, p + n, [](char c) { return static_cast<unsigned char>(c) == kGuard; });
}

class ConcurrencyTest : public StoreTest {
 protected:
  void SetUp() override {
    for (size_t i = 0; i < kKeys; ++i) keys_.push_back(KeyFor(i));
  }

  std::vector<std::string> keys_;
};

// Per key, the highest version the writer has started to write, set before
// the write: a reader may never see a higher one.
struct Versions {
  std::atomic<uint64_t> started[kKeys];
  Versions() {
    for (auto& v : started) v.store(1);
  }
};

class Reader {
 public:
  Reader(int id, Store* store, const std::vector<std::string>& keys,
         const Versions& versions, Failures& failures)
      : id_(id),
        store_(store),
        keys_(keys),
        versions_(versions),
        failures_(failures),
        rng_(1000 + id),
        buffer_(kMaxValue + 64) {}

  void Run(std::chrono::steady_clock::time_point deadline) {
    for (uint64_t it = 0;
         it < kMaxIterations && std::chrono::steady_clock::now() < deadline;
         ++it) {
      switch (it % 5) {
        case 0:
          ReadString();
          break;
        case 1:
          ReadInto();
          break;
        case 2:
          ReadPinned();
          break;
        case 3:
          ReadMultiInto();
          break;
        case 4:
          ReadMultiPinned();
          break;
      }
      if (it % 7 == 0) TakeHeldPin(it / 7 % kHeldPins);
      if (it % 3 == 0) CheckHeldPins();
    }
    CheckHeldPins();
  }

  uint64_t values_read(int strategy) const { return values_read_[strategy]; }

 private:
  size_t RandomKey() { return rng_() % keys_.size(); }

  void Fail(size_t k, const std::string& what) {
    failures_.Add("reader " + std::to_string(id_) + ", key " +
                  std::to_string(k) + ": " + what);
  }

  // Checks one read of key k; returns the version read, 0 if not found.
  uint64_t Check(int strategy, size_t k, const Status& s,
                 std::string_view bytes) {
    if (s.IsNotFound()) return 0;  // deleted just now
    if (!s.ok()) {
      Fail(k, "status " + s.ToString());
      return 0;
    }
    uint64_t version = 0;
    if (!ParseValue(keys_[k], bytes, &version)) {
      Fail(k, "a value of " + std::to_string(bytes.size()) +
                  " bytes that was never written for this key");
      return 0;
    }
    if (version > versions_.started[k].load()) {
      Fail(k, "version " + std::to_string(version) + " not yet written");
    }
    if (version < last_seen_[k]) {
      Fail(k, "version " + std::to_string(version) + " after " +
                  std::to_string(last_seen_[k]));
    }
    last_seen_[k] = std::max(last_seen_[k], version);
    ++values_read_[strategy];
    return version;
  }

  void ReadString() {
    const size_t k = RandomKey();
    const Status s = store_->GetString(ReadOptions(), keys_[k], &string_);
    Check(0, k, s, string_);
  }

  void ReadInto() {
    const size_t k = RandomKey();
    std::fill(buffer_.begin(), buffer_.end(), static_cast<char>(kGuard));
    size_t size = 0;
    const Status s = store_->GetInto(ReadOptions(), keys_[k], buffer_.data(),
                                     kMaxValue, &size);
    Check(1, k, s, std::string_view(buffer_.data(), size));
    if (!AllGuard(buffer_.data() + size, buffer_.size() - size)) {
      Fail(k, "GetInto wrote past the value");
    }
  }

  void ReadPinned() {
    const size_t k = RandomKey();
    const Status s = store_->GetPinned(ReadOptions(), keys_[k], &pinned_);
    Check(2, k, s, pinned_.view());
    if (s.IsNotFound() && pinned_.holds_value()) Fail(k, "NotFound holds");
  }

  void ReadMultiInto() {
    size_t ks[kBatch];
    std::string_view views[kBatch];
    Buffer buffers[kBatch];
    size_t sizes[kBatch];
    Status statuses[kBatch];
    batch_arena_.resize(kBatch * kMaxValue);
    for (size_t i = 0; i < kBatch; ++i) {
      ks[i] = RandomKey();
      views[i] = keys_[ks[i]];
      buffers[i] = {batch_arena_.data() + i * kMaxValue, kMaxValue};
    }
    const Status s = store_->MultiGetInto(ReadOptions(), kBatch, views, buffers,
                                          sizes, statuses);
    if (!s.ok()) {
      Fail(ks[0], "MultiGetInto: " + s.ToString());
      return;
    }
    for (size_t i = 0; i < kBatch; ++i) {
      Check(3, ks[i], statuses[i], std::string_view(buffers[i].data, sizes[i]));
    }
  }

  // The batch from the previous call is checked again before it is reused:
  // its pins must not have changed under it.
  void ReadMultiPinned() {
    for (size_t i = 0; i < batch_.size(); ++i) {
      if (!batch_.status(i).ok()) continue;
      uint64_t v = 0;
      if (!ParseValue(keys_[batch_keys_[i]], batch_.view(i), &v) ||
          v != batch_versions_[i]) {
        Fail(batch_keys_[i], "a held batch pin changed");
      }
    }
    std::string_view views[kBatch];
    for (size_t i = 0; i < kBatch; ++i) {
      batch_keys_[i] = RandomKey();
      views[i] = keys_[batch_keys_[i]];
    }
    const Status s =
        store_->MultiGetPinned(ReadOptions(), kBatch, views, &batch_);
    if (!s.ok() || batch_.size() != kBatch) {
      Fail(batch_keys_[0], "MultiGetPinned: " + s.ToString());
      return;
    }
    for (size_t i = 0; i < kBatch; ++i) {
      batch_versions_[i] =
          Check(4, batch_keys_[i], batch_.status(i), batch_.view(i));
    }
  }

  void TakeHeldPin(size_t slot) {
    Held& h = held_[slot];
    h.key = RandomKey();
    const Status s = store_->GetPinned(ReadOptions(), keys_[h.key], &h.value);
    h.version = Check(2, h.key, s, h.value.view());
  }

  void CheckHeldPins() {
    for (const Held& h : held_) {
      if (!h.value.holds_value()) continue;
      uint64_t v = 0;
      if (!ParseValue(keys_[h.key], h.value.view(), &v) || v != h.version) {
        Fail(h.key, "a held pin changed");
      }
    }
  }

  struct Held {
    PinnedValue value;
    size_t key = 0;
    uint64_t version = 0;
  };

  const int id_;
  Store* const store_;
  const std::vector<std::string>& keys_;
  const Versions& versions_;
  Failures& failures_;
  std::mt19937_64 rng_;
  uint64_t last_seen_[kKeys] = {};
  uint64_t values_read_[5] = {};
  std::string string_;
  std::vector<char> buffer_;
  std::vector<char> batch_arena_;
  PinnedValue pinned_;
  PinnedBatch batch_;
  size_t batch_keys_[kBatch] = {};
  uint64_t batch_versions_[kBatch] = {};
  Held held_[kHeldPins];
};

TEST_F(ConcurrencyTest, ReadersWriterFlushAndCompactAgree) {
  Options o;
  o.write_buffer_bytes = kMiB;     // the writer also triggers flushes
  o.block_cache_bytes = 2 * kMiB;  // and blocks get evicted
  ASSERT_NO_FATAL_FAILURE(OpenStore(o));
  std::vector<std::optional<std::string>> latest(kKeys);
  for (size_t k = 0; k < kKeys; ++k) {
    latest[k] = MakeValue(keys_[k], kValueSizes[k % 5], 1);
    ASSERT_OK(store_->Put(keys_[k], *latest[k]));
  }
  ASSERT_OK(store_->Flush());

  Versions versions;
  Failures failures;
  std::atomic<bool> stop{false};
  const auto deadline = std::chrono::steady_clock::now() + kDuration;

  uint64_t writes = 0;
  std::thread writer([&] {
    std::mt19937_64 rng(7);
    uint64_t next[kKeys];
    std::fill(std::begin(next), std::end(next), 2);
    auto make = [&](size_t k) {
      const uint64_t v = next[k]++;
      versions.started[k].store(v);
      latest[k] = MakeValue(keys_[k], kValueSizes[rng() % 5], v);
      return *latest[k];
    };
    for (uint64_t i = 0; !stop.load(); ++i) {
      const size_t k = rng() % kKeys;
      Status s;
      if (i % 20 == 0) {
        versions.started[k].store(next[k]++);
        latest[k].reset();
        s = store_->Delete(keys_[k]);
      } else if (i % 20 < 4) {
        WriteBatch wb;
        const size_t k2 = (k + 1) % kKeys, k3 = (k + 5) % kKeys;
        for (size_t kk : {k, k2, k3}) wb.Put(keys_[kk], make(kk));
        s = store_->Write(WriteOptions(), wb);
      } else {
        s = store_->Put(keys_[k], make(k));
      }
      if (!s.ok()) failures.Add("write: " + s.ToString());
      ++writes;
    }
  });

  uint64_t flushes = 0, compactions = 0;
  std::thread flusher([&] {
    for (uint64_t i = 0; !stop.load(); ++i) {
      Status s = store_->Flush();
      if (!s.ok()) failures.Add("flush: " + s.ToString());
      ++flushes;
      if (i % 2 == 1) {
        s = store_->Compact();
        if (!s.ok()) failures.Add("compact: " + s.ToString());
        ++compactions;
      }
    }
  });

  std::vector<std::unique_ptr<Reader>> readers;
  for (int r = 0; r < kReaders; ++r) {
    readers.push_back(
        std::make_unique<Reader>(r, store_.get(), keys_, versions, failures));
  }
  std::vector<std::thread> reader_threads;
  for (auto& r : readers) {
    reader_threads.emplace_back([&r, deadline] { r->Run(deadline); });
  }
  for (std::thread& t : reader_threads) t.join();
  stop.store(true);
  writer.join();
  flusher.join();

  EXPECT_EQ(failures.count(), 0u) << failures.Report();
  EXPECT_GT(writes, 0u);
  EXPECT_GT(flushes, 0u);
  EXPECT_GT(compactions, 0u);
  for (int r = 0; r < kReaders; ++r) {
    for (int s = 0; s < 5; ++s) {
      EXPECT_GT(readers[r]->values_read(s), 0u)
          << "reader " << r << " never read a value with "
          << StrategyName(kAllStrategies[s]);
    }
  }
  readers.clear();

  // Quiescent: every strategy reads the writer's last word on every key.
  for (size_t k = 0; k < kKeys; ++k) {
    for (Strategy s : kAllStrategies) {
      const ReadResult r = ReadWith(store_.get(), s, ReadOptions(), keys_[k]);
      if (latest[k]) {
        EXPECT_TRUE(r.status.ok()) << StrategyName(s) << ": " << r.status;
        EXPECT_TRUE(r.bytes == *latest[k]) << StrategyName(s) << " key " << k;
      } else {
        EXPECT_TRUE(r.status.IsNotFound())
            << StrategyName(s) << ": " << r.status;
      }
    }
  }
}

// Close() while readers and a writer are busy: every call returns OK (with
// the right bytes), NotFound (for a missing key) or Closed, never anything
// else; once a thread has seen Closed it sees nothing else; and the pins
// taken before the close stay readable until they are released, keeping the
// database open until then.
TEST_F(ConcurrencyTest, CloseRacesWithReaders) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions()));
  std::vector<std::pair<std::string, std::string>> cached, in_memtable;
  for (size_t k = 0; k < kKeys; ++k) {
    auto& to = k % 2 == 0 ? cached : in_memtable;
    to.emplace_back(keys_[k], MakeValue(keys_[k], kValueSizes[k % 5], 1));
  }
  ASSERT_OK(WriteResident(store_.get(), Residency::kBlockCache, 0, cached));
  ASSERT_OK(WriteResident(store_.get(), Residency::kMemtable, 0, in_memtable));
  auto expected = [&](size_t k) {
    return MakeValue(keys_[k], kValueSizes[k % 5], 1);
  };

  Failures failures;
  std::atomic<int> ready{0}, verified{0};
  std::atomic<uint64_t> reads{0};
  std::atomic<bool> release{false};

  auto reader = [&](int id) {
    std::mt19937_64 rng(id);
    auto fail = [&](const std::string& what) {
      failures.Add("reader " + std::to_string(id) + ": " + what);
    };
    // Pins taken before the close: one of each residency and a batch.
    PinnedValue early_cached, early_memtable;
    PinnedBatch early_batch;
    std::string_view early_keys[kBatch];
    for (size_t i = 0; i < kBatch; ++i) early_keys[i] = keys_[i];
    if (!store_->GetPinned(ReadOptions(), keys_[0], &early_cached).ok() ||
        !store_->GetPinned(ReadOptions(), keys_[1], &early_memtable).ok() ||
        !store_->MultiGetPinned(ReadOptions(), kBatch, early_keys, &early_batch)
             .ok()) {
      fail("early pins");
    }
    if (!early_cached.pinned_in_cache() || early_memtable.pinned_in_cache()) {
      fail("early pins are not where they should be");
    }
    ready.fetch_add(1);

    PinnedValue pinned;
    PinnedBatch batch;
    std::string str;
    std::vector<char> buffer(kMaxValue);
    bool closed_seen[5] = {};
    bool any_closed = false;
    for (uint64_t it = 0; it < kMaxIterationsUntilClosed; ++it) {
      const int strategy = static_cast<int>(it % 5);
      // One key in 8 is missing.
      const size_t k = rng() % (kKeys + kKeys / 8);
      const std::string key =
          k < kKeys ? keys_[k] : "missing" + std::to_string(k);
      Status s;
      std::string_view got;
      Status batch_status;
      size_t size = 0;
      const std::string_view view_key = key;
      Buffer buf{buffer.data(), buffer.size()};
      switch (strategy) {
        case 0:
          s = store_->GetString(ReadOptions(), key, &str);
          got = str;
          break;
        case 1:
          s = store_->GetInto(ReadOptions(), key, buffer.data(), buffer.size(),
                              &size);
          got = std::string_view(buffer.data(), size);
          break;
        case 2:
          s = store_->GetPinned(ReadOptions(), key, &pinned);
          got = pinned.view();
          break;
        case 3:
          s = store_->MultiGetInto(ReadOptions(), 1, &view_key, &buf, &size,
                                   &batch_status);
          if (s.ok()) s = batch_status;
          got = std::string_view(buffer.data(), size);
          break;
        case 4:
          s = store_->MultiGetPinned(ReadOptions(), 1, &view_key, &batch);
          if (s.ok()) s = batch.status(0);
          if (s.ok()) got = batch.view(0);
          break;
      }
      reads.fetch_add(1, std::memory_order_relaxed);
      if (s.IsClosed()) {
        any_closed = closed_seen[strategy] = true;
        if (std::all_of(std::begin(closed_seen), std::end(closed_seen),
                        [](bool b) { return b; })) {
          break;
        }
        continue;
      }
      if (any_closed) {
        fail("a read after Closed returned " + s.ToString());
      } else if (k >= kKeys) {
        if (!s.IsNotFound()) fail("missing key: " + s.ToString());
      } else if (!s.ok()) {
        fail("read: " + s.ToString());
      } else if (got != expected(k)) {
        fail("wrong bytes for key " + std::to_string(k));
      }
    }
    if (!any_closed) fail("never saw the store closed");

    if (early_cached.view() != expected(0) ||
        early_memtable.view() != expected(1)) {
      fail("an early pin changed after Close");
    }
    for (size_t i = 0; i < kBatch; ++i) {
      if (!early_batch.status(i).ok() || early_batch.view(i) != expected(i)) {
        fail("an early batch pin changed after Close");
      }
    }
    verified.fetch_add(1);
    while (!release.load()) std::this_thread::yield();
  };

  std::thread writer([&] {
    bool closed = false;
    for (uint64_t i = 0; i < kMaxIterations; ++i) {
      const Status s = store_->Put("w" + std::to_string(i % 100), "written");
      if (s.IsClosed()) {
        if (closed) break;  // seen twice: done
        closed = true;
      } else if (closed || !s.ok()) {
        failures.Add("write: " + s.ToString());
      }
    }
  });

  std::vector<std::thread> threads;
  for (int r = 0; r < kReaders; ++r) threads.emplace_back(reader, r);
  while (ready.load() < kReaders || reads.load() < kReaders * 200u) {
    std::this_thread::yield();
  }
  Status second_close;
  std::thread closer([&] { second_close = store_->Close(); });
  EXPECT_OK(store_->Close());
  closer.join();
  EXPECT_OK(second_close);
  EXPECT_TRUE(store_->closed());
  writer.join();

  while (verified.load() < kReaders) std::this_thread::yield();
  {
    std::unique_ptr<Store> again;
    const Status s = Store::Open(DbPath(), LargeOptions(), &again);
    EXPECT_TRUE(s.IsIOError()) << "pins must keep the database open: " << s;
  }
  release.store(true);
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.count(), 0u) << failures.Report();

  std::unique_ptr<Store> again;
  ASSERT_NO_FATAL_FAILURE(OpenStore(LargeOptions(), "db", &again));
  std::string v;
  ASSERT_OK(again->GetString(ReadOptions(), keys_[3], &v));
  EXPECT_EQ(v, expected(3));
}

// A Close that finds another Close under way returns only once the database
// is released: the path can be opened again at once.
TEST_F(ConcurrencyTest, ASecondCloseWaitsForTheFirst) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  ASSERT_OK(store_->Put("k", "v"));
  // Writes outside the WAL: RocksDB flushes them when the database closes,
  // which makes the first Close slow enough for the second to overtake it.
  WriteOptions no_wal;
  no_wal.disable_wal = true;
  for (int i = 0; i < 64; ++i) {
    ASSERT_OK(store_->Put(no_wal, 0, "unlogged" + std::to_string(i),
                          MakeValue("u", 256 * kKiB, i)));
  }
  std::atomic<bool> reading{false};
  // A read that holds the gate for a while, so that the first Close waits.
  std::thread reader([&] {
    auto slow = [](void* context, std::string_view) {
      static_cast<std::atomic<bool>*>(context)->store(true);
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    };
    EXPECT_OK(store_->GetVisit(pinget::ReadOptions(), "k", slow, &reading));
  });
  while (!reading.load()) std::this_thread::yield();
  std::thread first([&] { EXPECT_OK(store_->Close()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_OK(store_->Close());  // the second
  std::unique_ptr<pinget::Store> again;
  const Status reopened = pinget::Store::Open(DbPath(), Options(), &again);
  EXPECT_TRUE(reopened.ok())
      << "the second Close returned before the database was released: "
      << reopened;
  first.join();
  reader.join();
}

// The gate's two ways of counting a call (gate.h): the thread's four slots
// where the kernel grants the process-wide barrier, the stripes past them;
// slots are given back in order, and a closed gate admits nothing.
TEST(ConcurrencyGateTest, CountsInThreadSlotsThenStripes) {
  using pinget::internal::Gate;
  const bool slots = Gate::UsesThreadSlots();
#if defined(__linux__)
  if (!slots) std::cout << "membarrier refused: the gate counts in stripes\n";
#endif
  Gate gate;
  Gate::Ticket tickets[6];
  for (Gate::Ticket& t : tickets) ASSERT_TRUE(gate.Enter(&t));
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(tickets[i].slots != nullptr, slots && i < 4) << i;
    if (tickets[i].slots != nullptr) EXPECT_EQ(tickets[i].index, i);
  }
  for (size_t i = 6; i-- > 0;) gate.Exit(tickets[i]);
  Gate::Ticket again;
  ASSERT_TRUE(gate.Enter(&again));
  EXPECT_EQ(again.slots != nullptr, slots);
  EXPECT_EQ(again.index == 0, slots) << "the slots were not given back";
  gate.Exit(again);
  EXPECT_TRUE(gate.CloseAndDrain());
  Gate::Ticket late;
  EXPECT_FALSE(gate.Enter(&late));
  EXPECT_FALSE(gate.CloseAndDrain()) << "a second close reports the first";
}

// A call made in a thread's exit from another thread_local's destructor,
// after the thread's gate slots and scratch are destroyed (they were made
// later, so they go first): it counts in a stripe and leases fresh scratch,
// and Close waits for it.
struct ReadAtExit {
  static Store* store;
  static std::atomic<bool> inside, finished;
  ~ReadAtExit() {
    auto slow = [](void*, std::string_view value) {
      inside.store(value == "v");
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      finished.store(true);
    };
    EXPECT_OK(store->GetVisit(ReadOptions(), "k", slow, nullptr));
  }
};
Store* ReadAtExit::store = nullptr;
std::atomic<bool> ReadAtExit::inside{false};
std::atomic<bool> ReadAtExit::finished{false};

TEST_F(ConcurrencyTest, CloseWaitsForACallFromAThreadsExit) {
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options()));
  ASSERT_OK(store_->Put("k", "v"));
  ReadAtExit::store = store_.get();
  std::thread reader([&] {
    thread_local ReadAtExit at_exit;  // made before the thread's first call
    static_cast<void>(&at_exit);
    PinnedValue value;
    EXPECT_OK(store_->GetPinned(ReadOptions(), "k", &value));
    EXPECT_OK(store_->GetVisit(
        ReadOptions(), "k", [](void*, std::string_view) {}, nullptr));
  });
  while (!ReadAtExit::inside.load()) std::this_thread::yield();
  ASSERT_OK(store_->Close());
  EXPECT_TRUE(ReadAtExit::finished.load())
      << "Close returned while a call from a thread's exit was in flight";
  reader.join();
}

// The C API's per-thread storage, used again in the thread's exit after it
// is destroyed (made after this object, so destroyed before it): a batch
// leases fresh buffers and reads both values; pinget_string_copy has nothing
// left to lend and says so.
struct CCallsAtExit {
  static pinget_store* store;
  static std::atomic<int> string_code, batch_code;
  static std::string message, values;
  ~CCallsAtExit() {
    const char* value = nullptr;
    size_t value_size = 0;
    char* error = nullptr;
    string_code =
        pinget_string_copy(store, nullptr, "a", 1, &value, &value_size, &error);
    if (error != nullptr) message = error;
    pinget_free(error);
    const char* keys[] = {"a", "b"};
    const size_t key_sizes[] = {1, 1};
    char a[8], b[8];
    char* buffers[] = {a, b};
    const size_t capacities[] = {sizeof(a), sizeof(b)};
    size_t sizes[2] = {};
    batch_code =
        pinget_multi_buffer_copy(store, nullptr, 2, keys, key_sizes, buffers,
                                 capacities, sizes, nullptr, nullptr);
    values = std::string(a, sizes[0]) + "," + std::string(b, sizes[1]);
  }
};
pinget_store* CCallsAtExit::store = nullptr;
std::atomic<int> CCallsAtExit::string_code{-1};
std::atomic<int> CCallsAtExit::batch_code{-1};
std::string CCallsAtExit::message;
std::string CCallsAtExit::values;

TEST(ConcurrencyExitTest, CCallsInAThreadsExitUseNoDestroyedStorage) {
  TempDir dir;
  ASSERT_EQ(
      pinget_open(dir.path().c_str(), nullptr, &CCallsAtExit::store, nullptr),
      PINGET_OK);
  pinget_store* store = CCallsAtExit::store;
  ASSERT_EQ(pinget_put(store, nullptr, 0, "a", 1, "va", 2, nullptr), PINGET_OK);
  ASSERT_EQ(pinget_put(store, nullptr, 0, "b", 1, "vb", 2, nullptr), PINGET_OK);
  std::thread caller([store] {
    thread_local CCallsAtExit at_exit;  // made before the thread's storage
    static_cast<void>(&at_exit);
    const char* value = nullptr;
    size_t value_size = 0;
    EXPECT_EQ(pinget_string_copy(store, nullptr, "a", 1, &value, &value_size,
                                 nullptr),
              PINGET_OK);
    const char* keys[] = {"a"};
    const size_t key_sizes[] = {1};
    char a[8];
    char* buffers[] = {a};
    const size_t capacities[] = {sizeof(a)};
    size_t sizes[1] = {};
    EXPECT_EQ(
        pinget_multi_buffer_copy(store, nullptr, 1, keys, key_sizes, buffers,
                                 capacities, sizes, nullptr, nullptr),
        PINGET_OK);
  });
  caller.join();
  EXPECT_EQ(CCallsAtExit::string_code.load(), PINGET_NOT_SUPPORTED);
  EXPECT_NE(CCallsAtExit::message.find("thread's exit"), std::string::npos)
      << CCallsAtExit::message;
  EXPECT_EQ(CCallsAtExit::batch_code.load(), PINGET_OK);
  EXPECT_EQ(CCallsAtExit::values, "va,vb");
  pinget_store_destroy(store);
}

// Calls nested on one thread (a visitor reading again), deeper than a
// thread's gate slots (gate.cc: 4): the outer kSlots calls read store "outer"
// and fill the slots, the inner ones read store "inner" and count in its
// stripes. Closing either store returns only once every call into it has
// left, and each call that entered before Close read its value.
class ConcurrencyNestedTest : public StoreTest,
                              public ::testing::WithParamInterface<bool> {};

TEST_P(ConcurrencyNestedTest, CloseWaitsForNestedCalls) {
  const bool close_inner = GetParam();
  constexpr int kSlots = 4;
  constexpr int kDepth = 7;
  std::unique_ptr<Store> outer, inner;
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options(), "outer", &outer));
  ASSERT_NO_FATAL_FAILURE(OpenStore(Options(), "inner", &inner));
  ASSERT_OK(outer->Put("k", "v"));
  ASSERT_OK(inner->Put("k", "v"));
  struct Nest {
    Store* stores[kDepth];
    int level = 0;
    std::atomic<bool> innermost{false};
    std::atomic<int> finished[kDepth] = {};  // calls into stores[i] done
    int right_values = 0;
    Status statuses[kDepth];  // statuses[i]: the call at depth i
  } nest;
  for (int i = 0; i < kDepth; ++i) {
    nest.stores[i] = i < kSlots ? outer.get() : inner.get();
  }
  struct Visit {
    static void Run(void* context, std::string_view value) {
      Nest& n = *static_cast<Nest*>(context);
      const int depth = n.level++;
      if (value == "v") ++n.right_values;
      if (depth + 1 < kDepth) {
        n.statuses[depth + 1] = n.stores[depth + 1]->GetVisit(
            ReadOptions(), "k", &Visit::Run, context);
      } else {
        n.innermost.store(true);
      }
      // Each call stays a while after the one it holds has left, so that a
      // Close that misses a call returns while it is still in flight.
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      n.finished[depth].store(1);
    }
  };
  std::thread reader([&] {
    nest.statuses[0] = outer->GetVisit(ReadOptions(), "k", &Visit::Run, &nest);
  });
  while (!nest.innermost.load()) std::this_thread::yield();
  Store* closed = close_inner ? inner.get() : outer.get();
  ASSERT_OK(closed->Close());
  for (int i = 0; i < kDepth; ++i) {
    if (nest.stores[i] == closed) {
      EXPECT_EQ(nest.finished[i].load(), 1)
          << "Close returned while the call at depth " << i << " was in flight";
    }
  }
  reader.join();
  for (int i = 0; i < kDepth; ++i) {
    EXPECT_TRUE(nest.statuses[i].ok())
        << "depth " << i << ": " << nest.statuses[i];
  }
  EXPECT_EQ(nest.right_values, kDepth);
  PinnedValue value;
  EXPECT_TRUE(closed->GetPinned(ReadOptions(), "k", &value).IsClosed());
}

INSTANTIATE_TEST_SUITE_P(Gate, ConcurrencyNestedTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "InnerStoreStripes"
                                             : "OuterStoreSlots";
                         });

}  // namespace
}  // namespace pinget_test
