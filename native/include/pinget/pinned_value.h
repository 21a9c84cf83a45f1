// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// pinned_view: a value read without copying it out of RocksDB.

#ifndef PINGET_PINNED_VALUE_H_
#define PINGET_PINNED_VALUE_H_

#include <rocksdb/slice.h>

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include "pinget/export.h"
#include "pinget/status.h"

namespace pinget {

namespace internal {
class Engine;
class StoreBinding;  // pinget/binding/store_binding.h (not installed)
}  // namespace internal

// A value held in place. While a PinnedValue holds a value, the RocksDB block
// (or memtable copy) behind view() stays alive, and so does the database it
// came from, even if its Store is closed: the last pin to go closes it.
//
// Reusable: Store::GetPinned releases the previous pin and pins the next value
// in the same call, without allocating once its buffer for a memtable copy
// has held a value that large. Not thread-safe: one thread at a time.
class PINGET_EXPORT PinnedValue {
 public:
  PinnedValue();
  ~PinnedValue();
  // Moving transfers the pin; the source is left empty.
  PinnedValue(PinnedValue&& other) noexcept;
  PinnedValue& operator=(PinnedValue&& other) noexcept;
  PinnedValue(const PinnedValue&) = delete;
  PinnedValue& operator=(const PinnedValue&) = delete;

  // The value's bytes. Valid until Release(), the next GetPinned into this
  // object, or its destruction; empty when nothing is held. Read-only.
  std::string_view view() const { return {slice_.data(), slice_.size()}; }
  const char* data() const { return slice_.data(); }
  size_t size() const { return slice_.size(); }

  // True while a value is held.
  bool holds_value() const { return held_; }

  // True if the bytes are RocksDB's own memory (P = 0): a block-cache block,
  // or with ReadOptions::pin_memtable a memtable; false if RocksDB copied
  // them into this object (a memtable hit without pin_memtable, P = 1) or
  // nothing is held.
  bool pinned_in_cache() const { return held_ && slice_.IsPinned(); }

  // Drops the pin (idempotent), and the memtable iterator of pin_memtable
  // with it. While the store is open, keeps the reference to the database
  // so that the next GetPinned from the same store does not touch its
  // refcount; once the store is closed, lets the database go.
  void Release();

 private:
  friend class Store;
  friend class PinnedBatch;
  friend class internal::StoreBinding;
  struct MemtableProbe;  // get.cc

  // Drops the pin only (GetPinned's first step): the memtable iterator is
  // kept for the next get, unless the database is borrowed.
  void Unpin();

  // engine_ is declared first so that it is destroyed last: the pin's cleanup
  // releases a block-cache handle owned by the engine, and the probe's
  // iterator belongs to its database.
  std::shared_ptr<internal::Engine> engine_;
  std::unique_ptr<MemtableProbe> probe_;
  rocksdb::PinnableSlice slice_;
  bool held_ = false;
};

// A reusable set of pinned values for Store::MultiGetPinned. Not thread-safe.
class PINGET_EXPORT PinnedBatch {
 public:
  PinnedBatch() = default;
  PinnedBatch(const PinnedBatch&) = delete;
  PinnedBatch& operator=(const PinnedBatch&) = delete;

  // Number of keys of the last MultiGetPinned (0 after Release()).
  size_t size() const { return size_; }
  // Key i's status, its value's bytes (empty unless status(i) is OK) and
  // whether they are RocksDB's block-cache memory (P = 0). Any i is allowed:
  // past size(), NotFound, empty and false. Valid until Release(), the next
  // MultiGetPinned into this batch, or its destruction.
  const Status& status(size_t i) const;
  std::string_view view(size_t i) const;
  bool pinned_in_cache(size_t i) const;

  // Drops every pin (idempotent).
  void Release();

 private:
  friend class Store;
  friend class internal::StoreBinding;

  std::shared_ptr<internal::Engine> engine_;  // outlives the pins, as above
  std::vector<rocksdb::PinnableSlice> slices_;
  std::vector<Status> statuses_;
  size_t size_ = 0;
};

}  // namespace pinget

#endif  // PINGET_PINNED_VALUE_H_
