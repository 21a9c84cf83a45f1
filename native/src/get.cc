// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The get strategies, one function each. Copy counts use DESIGN.md's P: the
// copy RocksDB makes into a PinnableSlice when the value is not pinned in the
// block cache (memtable hit), read exactly from IsPinned().

#include <rocksdb/db.h>

#include <algorithm>
#include <cstring>

#include "engine.h"
#include "pinget/copy_stats.h"
#include "pinget/store.h"

namespace pinget {

using internal::FromRocksDB;
using internal::GateGuard;
using internal::ToSlice;

namespace {

const Status kClosedStatus = Status::Closed("store is closed");

// RocksDB's MultiGet is called on chunks of this many keys, so that the key
// and status arrays live on the stack.
constexpr size_t kMultiGetChunk = 32;

// Counts P for a value RocksDB just delivered into slice, whose self buffer
// had self_capacity bytes before the call: one copy if RocksDB copied (not
// pinned), and one allocation if that copy had to grow the buffer.
void CountRocksDBCopy(rocksdb::PinnableSlice& slice, size_t self_capacity) {
  if (slice.IsPinned()) return;
  RecordValueCopy(slice.size());
  if (slice.GetSelf()->capacity() != self_capacity) RecordAllocation();
}

// Scratch PinnableSlices for the copying strategies, one set per thread, so
// that a memtable hit (which RocksDB copies into the slice's own buffer) does
// not allocate on every call. Never holds a pin between calls; a buffer that
// grew past kKeepBytes is freed after use.
class Scratch {
 public:
  static constexpr size_t kKeepBytes = size_t{1} << 20;
  static rocksdb::PinnableSlice* Get() {
    thread_local Scratch scratch;
    return scratch.slices_;
  }
  static void Done(rocksdb::PinnableSlice* slices, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      slices[i].Reset();
      std::string* self = slices[i].GetSelf();
      if (self->capacity() > kKeepBytes) std::string().swap(*self);
    }
  }

 private:
  rocksdb::PinnableSlice slices_[kMultiGetChunk];
};

// Copies what fits of value into buffer (the copy "+1" of buffer_copy).
void CopyOut(const rocksdb::Slice& value, char* buffer, size_t capacity) {
  if (buffer == nullptr) return;  // size query
  const size_t n = std::min(value.size(), capacity);
  if (n > 0) std::memcpy(buffer, value.data(), n);
  RecordValueCopy(n);
}

}  // namespace

Status Store::ResolveReadOptions(const ReadOptions& options,
                                 rocksdb::ReadOptions* ro,
                                 rocksdb::ColumnFamilyHandle** cf) const {
  if (options.column_family >= engine_->families.size()) {
    return Status::InvalidArgument("no column family with id " +
                                   std::to_string(options.column_family));
  }
  *cf = engine_->families[options.column_family];
  ro->fill_cache = options.fill_cache;
  ro->verify_checksums = options.verify_checksums;
  if (options.snapshot != nullptr) {
    if (options.snapshot->engine_ != engine_) {
      return Status::InvalidArgument("snapshot is from another store");
    }
    ro->snapshot = options.snapshot->snapshot_;
  }
  return Status::OK();
}

// string_copy: DB::Get into a std::string copies the value exactly once,
// whether it is pinned in the block cache (copied out of the pin) or in the
// memtable (copied straight into the string).
Status Store::GetString(const ReadOptions& options, std::string_view key,
                        std::string* value) {
  if (value == nullptr) return Status::InvalidArgument("value is null");
  value->clear();
  GateGuard guard(*gate_);
  if (!guard.entered()) return kClosedStatus;
  Status st = internal::CheckKey(key);
  rocksdb::ReadOptions ro;
  rocksdb::ColumnFamilyHandle* cf = nullptr;
  if (st.ok()) st = ResolveReadOptions(options, &ro, &cf);
  if (!st.ok()) return st;
  const size_t capacity = value->capacity();
  rocksdb::Status s = engine_->db->Get(ro, cf, ToSlice(key), value);
  if (!s.ok()) {
    value->clear();
    return FromRocksDB(s);
  }
  RecordValueCopy(value->size());
  if (value->capacity() != capacity) RecordAllocation();
  return Status::OK();
}

// buffer_copy (and direct_copy): P copies into a scratch PinnableSlice, then 1
// copy into the caller's buffer. The scratch pin is dropped before returning.
Status Store::GetInto(const ReadOptions& options, std::string_view key,
                      char* buffer, size_t capacity, size_t* value_size) {
  if (value_size == nullptr) {
    return Status::InvalidArgument("value_size is null");
  }
  *value_size = 0;
  if (buffer == nullptr && capacity != 0) {
    return Status::InvalidArgument("buffer is null but capacity is not 0");
  }
  GateGuard guard(*gate_);
  if (!guard.entered()) return kClosedStatus;
  Status st = internal::CheckKey(key);
  rocksdb::ReadOptions ro;
  rocksdb::ColumnFamilyHandle* cf = nullptr;
  if (st.ok()) st = ResolveReadOptions(options, &ro, &cf);
  if (!st.ok()) return st;
  rocksdb::PinnableSlice* slice = Scratch::Get();
  const size_t self_capacity = slice->GetSelf()->capacity();
  rocksdb::Status s = engine_->db->Get(ro, cf, ToSlice(key), slice);
  if (s.ok()) {
    CountRocksDBCopy(*slice, self_capacity);
    *value_size = slice->size();
    CopyOut(*slice, buffer, capacity);
  }
  Scratch::Done(slice, 1);
  return FromRocksDB(s);
}

// pinned_view: P copies. A block-cache value stays pinned in place until
// value->Release() or the next GetPinned into the same object.
Status Store::GetPinned(const ReadOptions& options, std::string_view key,
                        PinnedValue* value) {
  if (value == nullptr) return Status::InvalidArgument("value is null");
  value->Release();
  GateGuard guard(*gate_);
  if (!guard.entered()) return kClosedStatus;
  Status st = internal::CheckKey(key);
  rocksdb::ReadOptions ro;
  rocksdb::ColumnFamilyHandle* cf = nullptr;
  if (st.ok()) st = ResolveReadOptions(options, &ro, &cf);
  if (!st.ok()) return st;
  // A reused handle already shares this engine: no refcount traffic.
  if (value->engine_ != engine_) value->engine_ = engine_;
  rocksdb::PinnableSlice& slice = value->slice_;
  const size_t self_capacity = slice.GetSelf()->capacity();
  rocksdb::Status s = engine_->db->Get(ro, cf, ToSlice(key), &slice);
  if (!s.ok()) {
    slice.Reset();
    return FromRocksDB(s);
  }
  CountRocksDBCopy(slice, self_capacity);
  value->held_ = true;
  return Status::OK();
}

// Batched buffer_copy: per key, P copies into a scratch slice and 1 copy into
// buffers[i], as GetInto.
Status Store::MultiGetInto(const ReadOptions& options, size_t count,
                           const std::string_view* keys, const Buffer* buffers,
                           size_t* value_sizes, Status* statuses) {
  if (count == 0) return Status::OK();
  if (keys == nullptr || buffers == nullptr || value_sizes == nullptr ||
      statuses == nullptr) {
    return Status::InvalidArgument("null array");
  }
  for (size_t i = 0; i < count; ++i) {
    value_sizes[i] = 0;
    Status st = internal::CheckKey(keys[i]);
    if (st.ok() && buffers[i].data == nullptr && buffers[i].capacity != 0) {
      st = Status::InvalidArgument("buffer is null but capacity is not 0");
    }
    if (!st.ok()) return st;
  }
  GateGuard guard(*gate_);
  if (!guard.entered()) return kClosedStatus;
  rocksdb::ReadOptions ro;
  rocksdb::ColumnFamilyHandle* cf = nullptr;
  Status st = ResolveReadOptions(options, &ro, &cf);
  if (!st.ok()) return st;

  rocksdb::PinnableSlice* slices = Scratch::Get();
  rocksdb::Slice chunk_keys[kMultiGetChunk];
  rocksdb::Status chunk_statuses[kMultiGetChunk];
  size_t self_capacity[kMultiGetChunk];
  for (size_t begin = 0; begin < count; begin += kMultiGetChunk) {
    const size_t n = std::min(kMultiGetChunk, count - begin);
    for (size_t i = 0; i < n; ++i) {
      chunk_keys[i] = ToSlice(keys[begin + i]);
      self_capacity[i] = slices[i].GetSelf()->capacity();
    }
    engine_->db->MultiGet(ro, cf, n, chunk_keys, slices, chunk_statuses);
    for (size_t i = 0; i < n; ++i) {
      const size_t k = begin + i;
      statuses[k] = FromRocksDB(chunk_statuses[i]);
      if (!chunk_statuses[i].ok()) continue;
      CountRocksDBCopy(slices[i], self_capacity[i]);
      value_sizes[k] = slices[i].size();
      CopyOut(slices[i], buffers[k].data, buffers[k].capacity);
    }
    Scratch::Done(slices, n);
  }
  return Status::OK();
}

// Batched pinned_view: per key, P copies; the pins live in *values.
Status Store::MultiGetPinned(const ReadOptions& options, size_t count,
                             const std::string_view* keys,
                             PinnedBatch* values) {
  if (values == nullptr) return Status::InvalidArgument("values is null");
  values->Release();
  if (count == 0) return Status::OK();
  if (keys == nullptr) return Status::InvalidArgument("keys is null");
  for (size_t i = 0; i < count; ++i) {
    Status st = internal::CheckKey(keys[i]);
    if (!st.ok()) return st;
  }
  GateGuard guard(*gate_);
  if (!guard.entered()) return kClosedStatus;
  rocksdb::ReadOptions ro;
  rocksdb::ColumnFamilyHandle* cf = nullptr;
  Status st = ResolveReadOptions(options, &ro, &cf);
  if (!st.ok()) return st;
  if (values->engine_ != engine_) values->engine_ = engine_;
  if (values->slices_.size() < count) {
    // Grown once to the largest batch seen. Fresh slices rather than resize:
    // PinnableSlice is not safely move-constructible.
    RecordAllocation();
    std::vector<rocksdb::PinnableSlice> grown(count);
    values->slices_.swap(grown);
    values->statuses_.resize(count);
  }

  rocksdb::PinnableSlice* slices = values->slices_.data();
  rocksdb::Slice chunk_keys[kMultiGetChunk];
  rocksdb::Status chunk_statuses[kMultiGetChunk];
  size_t self_capacity[kMultiGetChunk];
  for (size_t begin = 0; begin < count; begin += kMultiGetChunk) {
    const size_t n = std::min(kMultiGetChunk, count - begin);
    for (size_t i = 0; i < n; ++i) {
      chunk_keys[i] = ToSlice(keys[begin + i]);
      self_capacity[i] = slices[begin + i].GetSelf()->capacity();
    }
    engine_->db->MultiGet(ro, cf, n, chunk_keys, slices + begin,
                          chunk_statuses);
    for (size_t i = 0; i < n; ++i) {
      values->statuses_[begin + i] = FromRocksDB(chunk_statuses[i]);
      if (chunk_statuses[i].ok()) {
        CountRocksDBCopy(slices[begin + i], self_capacity[i]);
      } else {
        slices[begin + i].Reset();
      }
    }
  }
  values->size_ = count;
  return Status::OK();
}

}  // namespace pinget
