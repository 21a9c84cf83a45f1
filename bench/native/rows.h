// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The get and scan rows of the native suites, each written once: get_bench.cc
// (Google Benchmark) and paired_main.cc run them under the row names of
// docs/strategies.md. A row is fixed to a batch size when made (1: single
// gets); each call reads that many consecutive keys, and hands what it read to
// benchmark::DoNotOptimize so that no read is optimised away. What each
// strategy copies is docs/strategies.md's table (the suites' counters are
// checked against it), not restated here. A failed read
// throws std::runtime_error. A row owns the pins and buffers it reads into,
// and borrows its store or database, which must outlive it. Not thread-safe.

#ifndef PINGET_BENCH_NATIVE_ROWS_H_
#define PINGET_BENCH_NATIVE_ROWS_H_

#include <benchmark/benchmark.h>
#include <rocksdb/db.h>

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "data_set.h"
#include "pinget/pinget.h"

namespace pinget_bench {

// ds's keys in its visiting order, then its first `extra` keys again: a batch
// of up to extra + 1 keys starting at any position of the order reads
// consecutive elements.
inline std::vector<std::string_view> Ordered(const DataSet& ds, size_t extra) {
  std::vector<std::string_view> out;
  const size_t n = ds.order.size();
  for (size_t i = 0; i < n + extra; ++i)
    out.push_back(ds.keys[ds.order[i % n]]);
  return out;
}

inline void Check(const pinget::Status& s) {
  if (!s.ok()) throw std::runtime_error(s.ToString());
}

// string_copy, into a reused std::string. Batch 1 only.
class StringCopyRow {
 public:
  StringCopyRow(pinget::Store* store, size_t batch) : store_(store) {
    if (batch != 1) throw std::invalid_argument("string_copy has no batch");
  }
  void operator()(const std::string_view* keys) {
    Check(store_->GetString({}, keys[0], &value_));
    benchmark::DoNotOptimize(value_.data());
  }

 private:
  pinget::Store* store_;
  std::string value_;
};

// buffer_copy, into the row's buffers (GetInto; MultiGetInto for a batch).
class BufferCopyRow {
 public:
  BufferCopyRow(pinget::Store* store, size_t batch, size_t value_size)
      : store_(store),
        batch_(batch),
        buffer_(batch * value_size),
        buffers_(batch),
        sizes_(batch),
        statuses_(batch) {
    for (size_t b = 0; b < batch; ++b) {
      buffers_[b] = {buffer_.data() + b * value_size, value_size};
    }
  }
  void operator()(const std::string_view* keys) {
    if (batch_ == 1) {
      Check(store_->GetInto({}, keys[0], buffers_[0].data, buffers_[0].capacity,
                            &sizes_[0]));
    } else {
      Check(store_->MultiGetInto({}, batch_, keys, buffers_.data(),
                                 sizes_.data(), statuses_.data()));
    }
    benchmark::DoNotOptimize(buffer_.data());
    benchmark::ClobberMemory();
  }

 private:
  pinget::Store* store_;
  size_t batch_;
  std::vector<char> buffer_;
  std::vector<pinget::Buffer> buffers_;
  std::vector<size_t> sizes_;
  std::vector<pinget::Status> statuses_;
};

// pinned_view: the row's pin (or batch) is reused, each get releasing the
// last.
class PinnedViewRow {
 public:
  PinnedViewRow(pinget::Store* store, size_t batch)
      : store_(store), batch_(batch) {}
  void operator()(const std::string_view* keys) {
    if (batch_ == 1) {
      Check(store_->GetPinned({}, keys[0], &value_));
      benchmark::DoNotOptimize(value_.data());
    } else {
      Check(store_->MultiGetPinned({}, batch_, keys, &values_));
      for (size_t b = 0; b < batch_; ++b) {
        benchmark::DoNotOptimize(values_.view(b).data());
      }
    }
  }

 private:
  pinget::Store* store_;
  size_t batch_;
  pinget::PinnedValue value_;
  pinget::PinnedBatch values_;
};

// native_pinned: RocksDB's own DB::Get (MultiGet for a batch) into reused
// PinnableSlices, no pinget: the floor.
class NativePinnedRow {
 public:
  NativePinnedRow(rocksdb::DB* db, size_t batch)
      : db_(db),
        cf_(db->DefaultColumnFamily()),
        batch_(batch),
        values_(batch),
        keys_(batch),
        statuses_(batch) {}
  void operator()(const std::string_view* keys) {
    if (batch_ == 1) {
      values_[0].Reset();
      const rocksdb::Status s = db_->Get(ro_, cf_, keys[0], &values_[0]);
      if (!s.ok()) throw std::runtime_error(s.ToString());
      benchmark::DoNotOptimize(values_[0].data());
      return;
    }
    for (size_t b = 0; b < batch_; ++b) {
      values_[b].Reset();
      keys_[b] = rocksdb::Slice(keys[b].data(), keys[b].size());
    }
    db_->MultiGet(ro_, cf_, batch_, keys_.data(), values_.data(),
                  statuses_.data());
    for (size_t b = 0; b < batch_; ++b) {
      benchmark::DoNotOptimize(values_[b].data());
    }
  }

 private:
  rocksdb::DB* db_;
  rocksdb::ColumnFamilyHandle* cf_;
  const rocksdb::ReadOptions ro_;
  size_t batch_;
  std::vector<rocksdb::PinnableSlice> values_;
  std::vector<rocksdb::Slice> keys_;
  std::vector<rocksdb::Status> statuses_;
};

// Scans. A call reads entries() entries: a streaming scan's batch (the next
// kScanBatch entries, from the first key again at the end of the data) or a
// short range (a seek to the next key of the visiting order that has
// kRangeEntries after it, then those entries). Every key and value is read
// where it lies (its address to DoNotOptimize).
constexpr size_t kScanBatch = 256;
constexpr size_t kRangeEntries = 100;

// The seek keys of the range scans: ds's keys taken in its visiting order,
// each one with kRangeEntries keys after it (the first key if there are fewer).
class RangeStarts {
 public:
  explicit RangeStarts(const DataSet& ds) : ds_(ds) {}
  const std::string& Next() {
    const size_t starts =
        ds_.keys.size() > kRangeEntries ? ds_.keys.size() - kRangeEntries : 1;
    const size_t i = ds_.order[next_] % starts;
    if (++next_ == ds_.order.size()) next_ = 0;
    return ds_.keys[i];
  }

 private:
  const DataSet& ds_;
  size_t next_ = 0;
};

// cursor_stream / cursor_range: pinget's Cursor, its batches up to what is
// left of the call's entries (values in place, keys copied and counted).
class CursorRow {
 public:
  CursorRow(pinget::Store* store, const DataSet& ds, bool stream)
      : stream_(stream), starts_(ds) {
    Check(store->NewCursor({}, &cursor_));
    Check(cursor_->SeekToFirst());
  }
  size_t entries() const { return stream_ ? kScanBatch : kRangeEntries; }
  void operator()() {
    size_t left = entries();
    if (!stream_) Check(cursor_->Seek(starts_.Next()));
    while (left > 0) {
      Check(cursor_->Next(left));
      const size_t n = cursor_->count();
      if (n == 0) {
        if (!stream_) return;  // the range ended early
        Check(cursor_->SeekToFirst());
        continue;
      }
      for (size_t i = 0; i < n; ++i) {
        benchmark::DoNotOptimize(cursor_->key(i).data());
        benchmark::DoNotOptimize(cursor_->value(i).data());
      }
      left -= n;
    }
  }

 private:
  bool stream_;
  RangeStarts starts_;
  std::unique_ptr<pinget::Cursor> cursor_;
};

// native_iterator_stream / native_iterator_range: RocksDB's own iterator with
// pin_data over the same data, no pinget: the floor of a scan. It pins every
// block it reads until it goes. native_iterator_bounded_*: the same, remade
// (at the key it stood on, or at the next seek) once it has read
// recycle_bytes of keys and values, as pinget's Cursor is at kRecycleBytes to
// bound what it pins.
class NativeIteratorRow {
 public:
  NativeIteratorRow(rocksdb::DB* db, const DataSet& ds, bool stream,
                    size_t recycle_bytes = 0)
      : db_(db), stream_(stream), recycle_bytes_(recycle_bytes), starts_(ds) {
    ro_.pin_data = true;
    it_.reset(db_->NewIterator(ro_));
    it_->SeekToFirst();
  }
  size_t entries() const { return stream_ ? kScanBatch : kRangeEntries; }
  void operator()() {
    if (recycle_bytes_ > 0 && read_bytes_ >= recycle_bytes_) Remake();
    if (stream_) {
      for (size_t i = 0; i < kScanBatch; ++i) {
        if (!it_->Valid()) it_->SeekToFirst();
        Read();
        it_->Next();
      }
    } else {
      it_->Seek(starts_.Next());
      for (size_t i = 0; i < kRangeEntries && it_->Valid(); ++i) {
        Read();
        it_->Next();
      }
    }
    if (!it_->status().ok()) throw std::runtime_error(it_->status().ToString());
  }

 private:
  void Read() {
    const rocksdb::Slice key = it_->key();
    const rocksdb::Slice value = it_->value();
    benchmark::DoNotOptimize(key.data());
    benchmark::DoNotOptimize(value.data());
    if (recycle_bytes_ > 0) read_bytes_ += key.size() + value.size();
  }

  void Remake() {
    const std::string at = it_->Valid() ? it_->key().ToString() : std::string();
    it_.reset();  // its pins go first, as the cursor's do
    it_.reset(db_->NewIterator(ro_));
    at.empty() ? it_->SeekToFirst() : it_->Seek(at);
    read_bytes_ = 0;
  }

  rocksdb::DB* db_;
  rocksdb::ReadOptions ro_;
  bool stream_;
  size_t recycle_bytes_;
  size_t read_bytes_ = 0;
  RangeStarts starts_;
  std::unique_ptr<rocksdb::Iterator> it_;
};

}  // namespace pinget_bench

#endif  // PINGET_BENCH_NATIVE_ROWS_H_
