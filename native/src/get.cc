// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The get strategies, one function each. Copy counts use DESIGN.md's P: the
// copy RocksDB makes into a PinnableSlice when the value is not pinned in the
// block cache (memtable hit), read exactly from IsPinned().

#include <rocksdb/db.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "engine.h"
#include "pinget/copy_stats.h"
#include "pinget/store.h"

namespace pinget {

using internal::FromRocksDB;
using internal::GateGuard;
using internal::ToSlice;

namespace {

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

// This thread's scratch PinnableSlices for the copying strategies, so that a
// memtable hit (which RocksDB copies into the slice's own buffer) does not
// allocate on every call. A lease holds them for one call; a nested call (a
// visitor reading again on the same thread) leases fresh slices instead (1
// allocation), so the outer call's value stays intact. Pins never outlive the
// lease; a buffer that grew past kKeepBytes is freed after use.
class ScratchLease {
 public:
  static constexpr size_t kKeepBytes = size_t{1} << 20;

  // REQUIRES: 0 < n <= kMultiGetChunk.
  explicit ScratchLease(size_t n) : n_(n) {
    Shared& shared = ThisThread();
    if (!shared.busy) {
      shared.busy = true;
      shared_ = &shared;
      slices_ = shared.slices;
    } else {
      owned_.reset(new rocksdb::PinnableSlice[n]);
      RecordAllocation();
      slices_ = owned_.get();
    }
  }
  ~ScratchLease() {
    Done(n_);
    if (shared_ != nullptr) shared_->busy = false;
  }
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;

  rocksdb::PinnableSlice* slices() const { return slices_; }

  // Drops the pins of slices [0, n) and frees buffers grown past kKeepBytes.
  void Done(size_t n) {
    for (size_t i = 0; i < n; ++i) {
      slices_[i].Reset();
      std::string* self = slices_[i].GetSelf();
      if (self->capacity() > kKeepBytes) std::string().swap(*self);
    }
  }

 private:
  struct Shared {
    rocksdb::PinnableSlice slices[kMultiGetChunk];
    bool busy = false;
  };
  static Shared& ThisThread() {
    thread_local Shared shared;
    return shared;
  }

  const size_t n_;
  Shared* shared_ = nullptr;
  std::unique_ptr<rocksdb::PinnableSlice[]> owned_;
  rocksdb::PinnableSlice* slices_ = nullptr;
};

std::string_view View(const rocksdb::PinnableSlice& slice) {
  return {slice.data(), slice.size()};
}

// Copies what fits of value into buffer (the copy "+1" of buffer_copy): one
// copy of min(size, capacity) bytes for any non-null buffer, even of 0 bytes;
// none for a size query (null buffer).
void CopyOut(std::string_view value, char* buffer, size_t capacity) {
  if (buffer == nullptr) return;
  const size_t n = std::min(value.size(), capacity);
  if (n > 0) std::memcpy(buffer, value.data(), n);
  RecordValueCopy(n);
}

// GetInto's visitor: the value's size and CopyOut.
struct CopyOutTarget {
  char* buffer;
  size_t capacity;
  size_t* value_size;
};
void CopyOutVisit(void* context, std::string_view value) {
  auto* target = static_cast<CopyOutTarget*>(context);
  *target->value_size = value.size();
  CopyOut(value, target->buffer, target->capacity);
}

// MultiGetInto's visitor: per key, the status, the size and CopyOut.
struct MultiCopyOutTarget {
  const Buffer* buffers;
  size_t* value_sizes;
  Status* statuses;
};
void MultiCopyOutVisit(void* context, size_t i, const Status& status,
                       std::string_view value) {
  auto* target = static_cast<MultiCopyOutTarget*>(context);
  target->statuses[i] = status;
  if (!status.ok()) return;
  target->value_sizes[i] = value.size();
  CopyOut(value, target->buffers[i].data, target->buffers[i].capacity);
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
  // An unchecked block must not reach the shared cache: verified reads trust
  // what is cached.
  ro->fill_cache = options.fill_cache && options.verify_checksums;
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
  if (!guard.entered()) return internal::ClosedStatus();
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

// P copies into a scratch PinnableSlice, then visit reads it in place. The
// lease is declared after the guard, so the pin is dropped before the call
// leaves the gate (and Close can release the database).
Status Store::GetVisit(const ReadOptions& options, std::string_view key,
                       ValueVisitor visit, void* context) {
  if (visit == nullptr) return Status::InvalidArgument("visit is null");
  GateGuard guard(*gate_);
  if (!guard.entered()) return internal::ClosedStatus();
  Status st = internal::CheckKey(key);
  rocksdb::ReadOptions ro;
  rocksdb::ColumnFamilyHandle* cf = nullptr;
  if (st.ok()) st = ResolveReadOptions(options, &ro, &cf);
  if (!st.ok()) return st;
  ScratchLease scratch(1);
  rocksdb::PinnableSlice* slice = scratch.slices();
  const size_t self_capacity = slice->GetSelf()->capacity();
  rocksdb::Status s = engine_->db->Get(ro, cf, ToSlice(key), slice);
  if (!s.ok()) return FromRocksDB(s);
  CountRocksDBCopy(*slice, self_capacity);
  visit(context, View(*slice));
  return Status::OK();
}

// buffer_copy (and direct_copy): GetVisit (P copies) with CopyOut (1 copy into
// the caller's buffer): P + 1 copies.
Status Store::GetInto(const ReadOptions& options, std::string_view key,
                      char* buffer, size_t capacity, size_t* value_size) {
  if (value_size == nullptr) {
    return Status::InvalidArgument("value_size is null");
  }
  *value_size = 0;
  if (buffer == nullptr && capacity != 0) {
    return Status::InvalidArgument("buffer is null but capacity is not 0");
  }
  CopyOutTarget target{buffer, capacity, value_size};
  return GetVisit(options, key, &CopyOutVisit, &target);
}

// pinned_view: P copies. A block-cache value stays pinned in place until
// value->Release() or the next GetPinned into the same object.
Status Store::GetPinned(const ReadOptions& options, std::string_view key,
                        PinnedValue* value) {
  if (value == nullptr) return Status::InvalidArgument("value is null");
  value->Release();
  GateGuard guard(*gate_);
  if (!guard.entered()) return internal::ClosedStatus();
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

// Batched GetVisit: per key, P copies into a scratch slice, then visit reads
// it in place. Each chunk's pins are dropped before the next chunk is read.
Status Store::MultiGetVisit(const ReadOptions& options, size_t count,
                            const std::string_view* keys, BatchVisitor visit,
                            void* context) {
  if (count == 0) return Status::OK();
  if (keys == nullptr) return Status::InvalidArgument("keys is null");
  if (visit == nullptr) return Status::InvalidArgument("visit is null");
  for (size_t i = 0; i < count; ++i) {
    Status st = internal::CheckKey(keys[i]);
    if (!st.ok()) return st;
  }
  GateGuard guard(*gate_);
  if (!guard.entered()) return internal::ClosedStatus();
  rocksdb::ReadOptions ro;
  rocksdb::ColumnFamilyHandle* cf = nullptr;
  Status st = ResolveReadOptions(options, &ro, &cf);
  if (!st.ok()) return st;

  ScratchLease scratch(std::min(count, kMultiGetChunk));
  rocksdb::PinnableSlice* slices = scratch.slices();
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
      const Status key_status = FromRocksDB(chunk_statuses[i]);
      if (key_status.ok()) {
        CountRocksDBCopy(slices[i], self_capacity[i]);
        visit(context, begin + i, key_status, View(slices[i]));
      } else {
        visit(context, begin + i, key_status, std::string_view());
      }
    }
    scratch.Done(n);
  }
  return Status::OK();
}

// Batched buffer_copy: MultiGetVisit (P copies per key) with CopyOut (1 copy
// into buffers[i]): P + 1 copies per found key, as GetInto.
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
  MultiCopyOutTarget target{buffers, value_sizes, statuses};
  return MultiGetVisit(options, count, keys, &MultiCopyOutVisit, &target);
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
  if (!guard.entered()) return internal::ClosedStatus();
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
