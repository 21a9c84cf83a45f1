// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Cursor: a scan of a store's keys in order that lends entries in batches,
// values read in place (no copy from the block cache or the memtable).

#ifndef PINGET_CURSOR_H_
#define PINGET_CURSOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pinget/export.h"
#include "pinget/options.h"
#include "pinget/status.h"

namespace rocksdb {
class ColumnFamilyHandle;
struct ReadOptions;
}  // namespace rocksdb

namespace pinget {

namespace internal {
class Engine;
}  // namespace internal

// Options for Store::NewCursor: those of every read, and the range scanned.
struct CursorOptions {
  // Snapshot, column family, fill_cache, verify_checksums. Without a
  // snapshot the cursor takes its own when it is made: every batch reads the
  // database as it was then.
  ReadOptions read;
  // Keys at or after lower_bound and before upper_bound; empty: unbounded.
  std::string lower_bound;
  std::string upper_bound;
  // Only keys that start with prefix (empty: all): the bounds become the
  // prefix's range, intersected with lower_bound and upper_bound.
  std::string prefix;
};

// Lends a store's entries in key order, forward or backward, in batches: a
// batch's keys and values are views valid until the cursor's next batch or
// seek, Close() or its destruction. Values are read in place (RocksDB's
// pin_data): P = 0 from the block cache and from the memtable, so a batch
// copies no value bytes (one copy per value only where RocksDB computes the
// value: a merge, a blob). Keys are copied into the cursor (one key copy
// each, counted): RocksDB rebuilds an SST file's delta-encoded keys in a
// buffer that moves on.
//
// The cursor reads one consistent view (its snapshot) for its whole life and
// keeps its database open, as a PinnedValue does, after its Store is closed;
// once the store is closed, seeks and batches return Closed and the cursor
// lets go of the database. What it pins: the blocks and memtables its
// iterator has read since it was last made; the cursor makes a new iterator
// (seeking to where the old one stood) once it has lent kRecycleBytes, so a
// long scan holds about that much beyond its current batch. A long-open
// cursor also holds its snapshot and its version's files: compaction cannot
// drop what they see until it closes.
//
// Not thread-safe: one thread at a time. Close() of its Store from another
// thread is safe.
class PINGET_EXPORT Cursor {
 public:
  // Key and value bytes a cursor lends with one iterator before it makes a
  // new one at the next batch.
  static constexpr size_t kRecycleBytes = size_t{4} << 20;

  ~Cursor();
  Cursor(const Cursor&) = delete;
  Cursor& operator=(const Cursor&) = delete;

  // Positions at the first entry of the range, the last, the first at or
  // after key, or the last at or before key. Each drops the batch lent.
  // REQUIRES for Seek, SeekForPrev: key non-empty (else InvalidArgument).
  Status SeekToFirst();
  Status SeekToLast();
  Status Seek(std::string_view key);
  Status SeekForPrev(std::string_view key);

  // Drops the last batch, then lends up to max entries from the position:
  // forward with Next (the entry at the position, then those after it),
  // backward with Prev, and leaves the position past the last one lent. A
  // batch of fewer than max entries (0 included) ends the range in that
  // direction: the next batch would lend 0 (0 also when no seek was made).
  // Errors of RocksDB (corruption, I/O) are returned; the entries lent before
  // the error stay readable. REQUIRES: max > 0.
  Status Next(size_t max);
  Status Prev(size_t max);

  // The last batch: count() entries, key(i), value(i), valid until the next
  // batch, seek, Close() or destruction. Any i is allowed: past count(),
  // empty views and false.
  size_t count() const { return keys_.size(); }
  std::string_view key(size_t i) const;
  std::string_view value(size_t i) const;
  // Whether value i is RocksDB's memory read in place (no copy).
  bool value_pinned(size_t i) const;

  // Drops the batch, the iterator and the snapshot, and lets go of the
  // database. Idempotent; after it, seeks and batches return Closed.
  void Close();

 private:
  friend class Store;
  Cursor();
  // A cursor reading through ro (checked by the Store) in cf; values_computed:
  // RocksDB may compute values there (ask the iterator whether each is
  // pinned).
  static Status Make(std::shared_ptr<internal::Engine> engine,
                     const rocksdb::ReadOptions& ro,
                     rocksdb::ColumnFamilyHandle* cf, bool values_computed,
                     const CursorOptions& options,
                     std::unique_ptr<Cursor>* cursor);

  enum class Direction { kForward, kBackward };
  Status Start();
  void DropBatch();
  Status Lend(size_t max, Direction direction);
  Status MakeIterator();
  Status Position(Direction direction, std::string_view key, bool edge);

  // engine_ is declared first so that it is destroyed last: the iterator and
  // the snapshot belong to its database.
  std::shared_ptr<internal::Engine> engine_;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<std::string_view> keys_;
  std::vector<std::string_view> values_;
  std::vector<bool> pinned_;
};

}  // namespace pinget

#endif  // PINGET_CURSOR_H_
