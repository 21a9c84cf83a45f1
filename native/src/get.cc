// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The get strategies, one function each. Copy counts use P (docs/design.md):
// the copy RocksDB makes into a PinnableSlice when the value is not pinned in
// the block cache (memtable hit), read exactly from IsPinned().

#include <rocksdb/db.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "checks.h"
#include "convert.h"
#include "engine.h"
#include "gate.h"
#include "memtable_probe.h"
#include "pinget/copy_stats.h"
#include "pinget/cursor.h"
#include "pinget/store.h"
#include "scratch.h"

namespace pinget {

using internal::BufferOk;
using internal::CheckArray;
using internal::CheckBuffer;
using internal::CheckKey;
using internal::CheckKeys;
using internal::CheckNotNull;
using internal::FromRocksDB;
using internal::KeyOk;
using internal::ThisThreads;
using internal::ToSlice;
using internal::Trim;
using internal::View;

namespace {

// RocksDB's MultiGet is called on chunks of this many keys, so that the key
// and status arrays live on the stack and a chunk's pins go before the next.
constexpr size_t kMultiGetChunk = 32;

// Counts P for a value RocksDB just delivered into slice, whose self buffer
// had self_capacity bytes before the call: one copy if RocksDB copied (not
// pinned), and one allocation if that copy had to grow the buffer.
void CountRocksDBCopy(rocksdb::PinnableSlice& slice, size_t self_capacity) {
  if (slice.IsPinned()) return;
  RecordValueCopy(slice.size());
  if (slice.GetSelf()->capacity() != self_capacity) RecordAllocation();
}

// This thread's scratch for the copying strategies: PinnableSlices (a
// memtable hit is copied into a slice's own buffer) and a string
// (GetStringVisit), so that warm calls do not allocate. A lease holds them for
// one call; a nested call (a visitor reading again on the same thread) leases
// fresh ones instead (1 allocation), so the outer call's value stays intact;
// so does a call in the thread's exit once its scratch is gone (scratch.h).
// Pins never outlive the lease; buffers grown past kKeepBytes are freed.
class ScratchLease {
 public:
  // REQUIRES: 0 < n <= kMultiGetChunk.
  explicit ScratchLease(size_t n) : n_(n) {
    Shared* shared = ThisThreads<Shared>();
    if (shared != nullptr && !shared->busy) {
      shared->busy = true;
      shared_ = shared;
      slices_ = shared->slices;
      text_ = &shared->text;
    } else {
      owned_.reset(new Shared);
      RecordAllocation();
      slices_ = owned_->slices;
      text_ = &owned_->text;
    }
  }
  ~ScratchLease() {
    Done(n_);
    text_->clear();
    Trim(text_);
    if (shared_ != nullptr) shared_->busy = false;
  }
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;

  rocksdb::PinnableSlice* slices() const { return slices_; }
  std::string* text() const { return text_; }

  // Drops the pins of slices [0, n) and frees buffers grown past kKeepBytes.
  void Done(size_t n) {
    for (size_t i = 0; i < n; ++i) {
      slices_[i].Reset();
      Trim(slices_[i].GetSelf());
    }
  }

 private:
  struct Shared {
    rocksdb::PinnableSlice slices[kMultiGetChunk];
    std::string text;
    bool busy = false;
  };

  const size_t n_;
  Shared* shared_ = nullptr;
  std::unique_ptr<Shared> owned_;
  rocksdb::PinnableSlice* slices_ = nullptr;
  std::string* text_ = nullptr;
};

// RocksDB's MultiGet over keys[0, count), kMultiGetChunk keys at a time.
// slices_for(begin) gives the slices the chunk that starts at key begin is
// read into; done(begin, n, statuses) then sees the chunk (a slice whose key
// failed is Reset). Returns the first error other than NotFound, in key order.
template <typename SlicesFor, typename Done>
Status ChunkedMultiGet(rocksdb::DB* db, const rocksdb::ReadOptions& ro,
                       rocksdb::ColumnFamilyHandle* cf, size_t count,
                       const std::string_view* keys, SlicesFor slices_for,
                       Done done) {
  rocksdb::Slice chunk_keys[kMultiGetChunk];
  rocksdb::Status statuses[kMultiGetChunk];
  size_t self_capacity[kMultiGetChunk];
  Status first_error;
  for (size_t begin = 0; begin < count; begin += kMultiGetChunk) {
    const size_t n = std::min(kMultiGetChunk, count - begin);
    rocksdb::PinnableSlice* slices = slices_for(begin);
    for (size_t i = 0; i < n; ++i) {
      chunk_keys[i] = ToSlice(keys[begin + i]);
      self_capacity[i] = slices[i].GetSelf()->capacity();
    }
    db->MultiGet(ro, cf, n, chunk_keys, slices, statuses);
    for (size_t i = 0; i < n; ++i) {
      if (statuses[i].ok()) {
        CountRocksDBCopy(slices[i], self_capacity[i]);
      } else {
        slices[i].Reset();
        if (first_error.ok() && !statuses[i].IsNotFound()) {
          first_error = FromRocksDB(statuses[i]);
        }
      }
    }
    done(begin, n, statuses);
  }
  return first_error;
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

// Whether a and b share a byte.
bool Overlaps(std::string_view a, std::string_view b) {
  const auto a0 = reinterpret_cast<uintptr_t>(a.data());
  const auto b0 = reinterpret_cast<uintptr_t>(b.data());
  return !a.empty() && !b.empty() && a0 < b0 + b.size() && b0 < a0 + a.size();
}

// The first failed buffer check of a batch, by index (a null array is
// CheckArray's to report).
Status CheckBuffers(size_t count, const Buffer* buffers) {
  for (size_t i = 0; buffers != nullptr && i < count; ++i) {
    if (buffers[i].data == nullptr && buffers[i].capacity != 0) {
      return Status::InvalidArgument("buffers[" + std::to_string(i) +
                                     "] is null but its capacity is not 0");
    }
  }
  return Status::OK();
}

// The read behind GetString and GetStringVisit, once the call's checks
// passed: DB::Get into a std::string copies the value exactly once, whether it
// is pinned in the block cache (copied out of the pin) or in the memtable
// (copied straight into the string); a string that had to grow is counted as
// an allocation.
Status CopyIntoString(rocksdb::DB* db, const rocksdb::ReadOptions& ro,
                      rocksdb::ColumnFamilyHandle* cf, std::string_view key,
                      std::string* text) {
  const size_t capacity = text->capacity();
  rocksdb::Status s = db->Get(ro, cf, ToSlice(key), text);
  if (!s.ok()) return FromRocksDB(s);
  RecordValueCopy(text->size());
  if (text->capacity() != capacity) RecordAllocation();
  return Status::OK();
}

// RocksDB's Get into slice, once the call's checks passed: P copies,
// counted. On any status but OK the slice holds nothing.
Status PinInto(rocksdb::DB* db, const rocksdb::ReadOptions& ro,
               rocksdb::ColumnFamilyHandle* cf, std::string_view key,
               rocksdb::PinnableSlice* slice) {
  const size_t self_capacity = slice->GetSelf()->capacity();
  rocksdb::Status s = db->Get(ro, cf, ToSlice(key), slice);
  if (!s.ok()) {
    slice->Reset();
    return FromRocksDB(s);
  }
  CountRocksDBCopy(*slice, self_capacity);
  return Status::OK();
}

// The read behind GetVisit and GetInto, once the call's checks passed: P
// copies into a scratch PinnableSlice, then visit reads it in place.
Status VisitValue(rocksdb::DB* db, const rocksdb::ReadOptions& ro,
                  rocksdb::ColumnFamilyHandle* cf, std::string_view key,
                  ValueVisitor visit, void* context) {
  ScratchLease scratch(1);
  rocksdb::PinnableSlice* slice = scratch.slices();
  Status st = PinInto(db, ro, cf, key, slice);
  if (!st.ok()) return st;
  visit(context, View(*slice));
  return Status::OK();
}

// The read behind MultiGetVisit and MultiGetInto, once the call's checks
// passed: per key, P copies into a scratch slice, then visit reads it in
// place; each chunk's pins are dropped before the next chunk is read.
Status VisitValues(rocksdb::DB* db, const rocksdb::ReadOptions& ro,
                   rocksdb::ColumnFamilyHandle* cf, size_t count,
                   const std::string_view* keys, BatchVisitor visit,
                   void* context) {
  if (count == 0) return Status::OK();
  ScratchLease scratch(std::min(count, kMultiGetChunk));
  rocksdb::PinnableSlice* slices = scratch.slices();
  return ChunkedMultiGet(
      db, ro, cf, count, keys, [&](size_t) { return slices; },
      [&](size_t begin, size_t n, const rocksdb::Status* statuses) {
        for (size_t i = 0; i < n; ++i) {
          visit(context, begin + i, FromRocksDB(statuses[i]),
                statuses[i].ok() ? View(slices[i]) : std::string_view());
        }
        scratch.Done(n);
      });
}

// RocksDB's options for a read without a snapshot, one for each
// (fill_cache, verify_checksums): made once and shared (RocksDB only reads
// them), so that a read does not build and destroy the 200-byte struct.
const rocksdb::ReadOptions& SharedReadOptions(bool fill_cache, bool verify) {
  // Never freed: a read may run after static destructors have.
  static const rocksdb::ReadOptions* const table = [] {
    auto* t = new rocksdb::ReadOptions[4];
    for (int i = 0; i < 4; ++i) {
      t[i].fill_cache = (i & 2) != 0;
      t[i].verify_checksums = (i & 1) != 0;
    }
    return t;
  }();
  return table[(fill_cache ? 2 : 0) + (verify ? 1 : 0)];
}

}  // namespace

// One read call's entry, the same for every strategy: holds the store's gate
// for the call and RocksDB's options for it. Start reports, in the
// contract's order (store.h), a closed store, then the first failed argument
// check, then bad read options.
class Store::Read {
 public:
  explicit Read(const Store& store) : store_(store), guard_(*store.gate_) {}
  Read(const Read&) = delete;
  Read& operator=(const Read&) = delete;

  Status Start(const ReadOptions& options,
               std::initializer_list<Status> arguments) {
    Status st = internal::Admit(guard_, arguments);
    if (!st.ok() || Begin(options)) return st;
    st = store_.engine_->CheckFamily(options.column_family);
    if (!st.ok()) return st;
    return Status::InvalidArgument("snapshot is from another store");
  }

  // Start for arguments already checked, without a status: false if the
  // store is closed or the options are bad (then Start says which). The
  // single-key reads check their arguments with checks.h's rules (KeyOk,
  // BufferOk) and call Begin, building the checks' statuses for Start only
  // if something failed: 1% to 4% of a 128-byte get (docs/benchmarks.md,
  // "The C++ wrapper's cost, profiled").
  bool Begin(const ReadOptions& options) {
    if (!guard_.entered()) return false;
    // Close resets the store's engine only once every entered call has left.
    const internal::Engine& engine = *store_.engine_;
    if (options.column_family >= engine.families.size()) return false;
    cf_ = engine.families[options.column_family];
    // An unchecked block must not reach the shared cache: verified reads
    // trust what is cached.
    const bool fill_cache = options.fill_cache && options.verify_checksums;
    ro_ = &SharedReadOptions(fill_cache, options.verify_checksums);
    if (options.snapshot != nullptr) {
      if (options.snapshot->engine_ != store_.engine_) return false;
      own_ro_.emplace(*ro_);
      own_ro_->snapshot = options.snapshot->snapshot_;
      ro_ = &*own_ro_;
    }
    return true;
  }

  rocksdb::DB* db() const { return store_.engine_->db.get(); }
  const rocksdb::ReadOptions& ro() const { return *ro_; }
  rocksdb::ColumnFamilyHandle* cf() const { return cf_; }

 private:
  const Store& store_;
  internal::GateGuard guard_;
  const rocksdb::ReadOptions* ro_ = nullptr;
  std::optional<rocksdb::ReadOptions> own_ro_;  // a read at a snapshot
  rocksdb::ColumnFamilyHandle* cf_ = nullptr;
};

// string_copy: 1 copy into *value (CopyIntoString).
Status Store::GetString(const ReadOptions& options, std::string_view key,
                        std::string* value) {
  if (value != nullptr) value->clear();
  Read read(*this);
  if (!KeyOk(key) || value == nullptr || !read.Begin(options)) {
    return read.Start(options, {CheckKey(key), CheckNotNull(value, "value")});
  }
  Status st = CopyIntoString(read.db(), read.ro(), read.cf(), key, value);
  if (!st.ok()) value->clear();
  return st;
}

// string_copy into this thread's scratch string (GetString's 1 copy), then
// visit reads it in place.
Status Store::GetStringVisit(const ReadOptions& options, std::string_view key,
                             ValueVisitor visit, void* context) {
  Read read(*this);
  if (!KeyOk(key) || visit == nullptr || !read.Begin(options)) {
    return read.Start(options, {CheckKey(key), CheckNotNull(visit, "visit")});
  }
  ScratchLease scratch(1);
  std::string* text = scratch.text();
  Status st = CopyIntoString(read.db(), read.ro(), read.cf(), key, text);
  if (!st.ok()) return st;
  visit(context, *text);
  return Status::OK();
}

// P copies into a scratch PinnableSlice, then visit reads it in place. The
// read (and its pin) ends before the call leaves the gate, so Close can
// release the database.
Status Store::GetVisit(const ReadOptions& options, std::string_view key,
                       ValueVisitor visit, void* context) {
  Read read(*this);
  if (!KeyOk(key) || visit == nullptr || !read.Begin(options)) {
    return read.Start(options, {CheckKey(key), CheckNotNull(visit, "visit")});
  }
  return VisitValue(read.db(), read.ro(), read.cf(), key, visit, context);
}

// buffer_copy (and direct_copy): GetVisit's read (P copies) with CopyOut (1
// copy into the caller's buffer): P + 1 copies.
Status Store::GetInto(const ReadOptions& options, std::string_view key,
                      char* buffer, size_t capacity, size_t* value_size) {
  if (value_size != nullptr) *value_size = 0;
  Read read(*this);
  const bool valid =
      KeyOk(key) && BufferOk(buffer, capacity) && value_size != nullptr;
  if (!valid || !read.Begin(options)) {
    return read.Start(options,
                      {CheckKey(key), CheckBuffer(buffer, capacity, "buffer"),
                       CheckNotNull(value_size, "value_size")});
  }
  CopyOutTarget target{buffer, capacity, value_size};
  return VisitValue(read.db(), read.ro(), read.cf(), key, &CopyOutVisit,
                    &target);
}

// pinned_view: P copies. A block-cache value stays pinned in place until
// value->Release() or the next GetPinned into the same object.
// pin_memtable's probe: the key's live value in a memtable, pinned in
// *value (no copy), and *found; else nothing held and *found false. The
// probe's iterator is made on first use (and again for another column family
// or snapshot); without a snapshot it is refreshed before each get, so that
// it sees the latest writes.
Status Store::PinFromMemtable(rocksdb::DB* db, const rocksdb::ReadOptions& ro,
                              rocksdb::ColumnFamilyHandle* cf,
                              std::string_view key, PinnedValue* value,
                              bool* found) {
  std::unique_ptr<PinnedValue::MemtableProbe>& probe = value->probe_;
  if (probe == nullptr) probe.reset(new PinnedValue::MemtableProbe());
  PinnedValue::MemtableProbe& p = *probe;
  // A snapshot is compared by its sequence too: a released snapshot's
  // address may come back as another's.
  const rocksdb::SequenceNumber seq =
      ro.snapshot == nullptr ? 0 : ro.snapshot->GetSequenceNumber();
  if (p.it == nullptr || p.cf != cf || p.ro.snapshot != ro.snapshot ||
      p.seq != seq) {
    p.ro = rocksdb::ReadOptions();
    p.ro.read_tier = rocksdb::kMemtableTier;
    p.ro.pin_data = true;
    p.ro.snapshot = ro.snapshot;
    p.ro.iterate_upper_bound = &p.bound_slice;
    p.it.reset(db->NewIterator(p.ro, cf));
    p.cf = cf;
    p.seq = seq;
  } else if (ro.snapshot == nullptr) {
    // To the latest writes. (As of a snapshot, the iterator made with it
    // already reads all it may see.)
    rocksdb::Status s = p.it->Refresh();
    if (!s.ok()) {
      p.it.reset();
      return FromRocksDB(s);
    }
  }
  p.bound.assign(key);
  p.bound.push_back('\0');
  p.bound_slice = rocksdb::Slice(p.bound);
  p.it->Seek(ToSlice(key));
  if (!p.it->status().ok()) return FromRocksDB(p.it->status());
  if (!p.it->Valid() || View(p.it->key()) != key) {
    if (!engine_->owned) probe.reset();  // as Unpin: nothing kept of it idle
    return Status::OK();
  }
  // The memtable keeps the bytes while the iterator holds its version: no
  // cleanup to run, and nothing copied.
  value->slice_.PinSlice(p.it->value(), nullptr);
  value->held_ = true;
  *found = true;
  return Status::OK();
}

Status Store::GetPinned(const ReadOptions& options, std::string_view key,
                        PinnedValue* value) {
  // The common call, with valid arguments, no memtable probe to run, into a
  // handle that already reads this store, takes fewer steps (2% of a 128-byte
  // get from the block cache: docs/benchmarks.md, "The C++ wrapper's cost,
  // profiled"); every other one is GetPinnedOrCopy's.
  if (value != nullptr && !options.pin_memtable && KeyOk(key) &&
      !(value->held_ && Overlaps(key, value->view()))) [[likely]] {
    value->Unpin();
    Read read(*this);
    if (!read.Begin(options)) {
      value->Release();
      return read.Start(options, {});  // the arguments are checked above
    }
    // Inside the gate, engine_ stays this store's until the call returns.
    if (value->engine_ == engine_) [[likely]] {
      Status st = PinInto(read.db(), read.ro(), read.cf(), key, &value->slice_);
      value->held_ = st.ok();
      return st;
    }
  }
  size_t copied;
  return GetPinnedOrCopy(options, key, value, nullptr, 0, &copied);
}

Status Store::GetPinnedOrCopy(const ReadOptions& options, std::string_view key,
                              PinnedValue* value, char* buffer, size_t capacity,
                              size_t* copied) {
  *copied = kNotCopied;
  if (value == nullptr || !KeyOk(key)) [[unlikely]] {
    Read read(*this);  // the contract's order: a closed store first
    Status st =
        read.Start(options, {CheckKey(key), CheckNotNull(value, "value")});
    if (value != nullptr) value->Release();
    return st;
  }
  if (value->holds_value() && Overlaps(key, value->view())) [[unlikely]] {
    // A key in the bytes *value holds would go with its pin: it is copied
    // first (one counted key copy).
    const std::string own_key(key);
    RecordKeyCopy();
    return GetPinnedOrCopy(options, own_key, value, buffer, capacity, copied);
  }
  value->Unpin();
  Read read(*this);
  if (!read.Begin(options)) {
    value->Release();
    return read.Start(options, {});  // the arguments are checked above
  }
  Status st;
  // Another database's handle lets go of it (and of its probe) here. Until
  // the call returns, the gate keeps this store's engine alive.
  if (value->engine_ != nullptr && value->engine_ != engine_) {
    value->probe_.reset();
    value->engine_.reset();
  }
  bool found = false;
  if (options.pin_memtable &&
      !engine_->values_computed[options.column_family]) {
    st = PinFromMemtable(read.db(), read.ro(), read.cf(), key, value, &found);
  }
  rocksdb::PinnableSlice& slice = value->slice_;
  if (st.ok() && !found) {
    st = PinInto(read.db(), read.ro(), read.cf(), key, &slice);
  }
  if (st.ok() && capacity > 0 && slice.size() <= capacity) {
    if (slice.size() > 0) std::memcpy(buffer, slice.data(), slice.size());
    RecordValueCopy(slice.size());
    *copied = slice.size();
    value->Unpin();
  } else if (st.ok()) {
    value->held_ = true;
  }
  // What *value keeps past the call (its pin, its probe's memtables) keeps
  // the database open: it takes the engine, or keeps nothing. A handle read
  // through GetPinned keeps its probe for the next read, a miss included; a
  // copying read keeps nothing it need not.
  if (value->engine_ == nullptr) {
    if (value->held_ || (capacity == 0 && value->probe_ != nullptr)) {
      value->engine_ = engine_;
    } else {
      value->probe_.reset();
    }
  }
  return st;
}

// Batched GetVisit: VisitValues (P copies per key).
Status Store::MultiGetVisit(const ReadOptions& options, size_t count,
                            const std::string_view* keys, BatchVisitor visit,
                            void* context) {
  Read read(*this);
  Status st = read.Start(
      options, {CheckKeys(count, keys), CheckNotNull(visit, "visit")});
  if (!st.ok()) return st;
  return VisitValues(read.db(), read.ro(), read.cf(), count, keys, visit,
                     context);
}

// Batched buffer_copy: VisitValues (P copies per key) with CopyOut (1 copy
// into buffers[i]): P + 1 copies per found key, as GetInto.
Status Store::MultiGetInto(const ReadOptions& options, size_t count,
                           const std::string_view* keys, const Buffer* buffers,
                           size_t* value_sizes, Status* statuses) {
  // What a key that is never read reports.
  if (value_sizes != nullptr) std::fill(value_sizes, value_sizes + count, 0);
  if (statuses != nullptr) {
    std::fill(statuses, statuses + count, Status::NotFound());
  }
  Read read(*this);
  Status st = read.Start(
      options, {CheckKeys(count, keys), CheckArray(count, buffers, "buffers"),
                CheckBuffers(count, buffers),
                CheckArray(count, value_sizes, "value_sizes"),
                CheckArray(count, statuses, "statuses")});
  if (!st.ok()) return st;
  MultiCopyOutTarget target{buffers, value_sizes, statuses};
  return VisitValues(read.db(), read.ro(), read.cf(), count, keys,
                     &MultiCopyOutVisit, &target);
}

// Batched pinned_view: per key, P copies; the pins live in *values.
Status Store::MultiGetPinned(const ReadOptions& options, size_t count,
                             const std::string_view* keys,
                             PinnedBatch* values) {
  if (values != nullptr) values->Release();
  Read read(*this);
  Status st = read.Start(
      options, {CheckKeys(count, keys), CheckNotNull(values, "values")});
  if (!st.ok() || count == 0) return st;
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
  st = ChunkedMultiGet(
      read.db(), read.ro(), read.cf(), count, keys,
      [&](size_t begin) { return slices + begin; },
      [&](size_t begin, size_t n, const rocksdb::Status* statuses) {
        for (size_t i = 0; i < n; ++i) {
          values->statuses_[begin + i] = FromRocksDB(statuses[i]);
        }
      });
  values->size_ = count;
  return st;
}

// A cursor: the read options checked as every read's are; then the cursor
// reads through its own iterator, outside the gate (it holds the engine).
Status Store::NewCursor(const CursorOptions& options,
                        std::unique_ptr<Cursor>* cursor) {
  if (cursor != nullptr) cursor->reset();
  Read read(*this);
  Status st = read.Start(options.read, {CheckNotNull(cursor, "cursor")});
  if (!st.ok()) return st;
  return Cursor::Make(engine_, read.ro(), read.cf(),
                      engine_->values_computed[options.read.column_family],
                      options, cursor);
}

}  // namespace pinget
