// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Store: a RocksDB database opened for reading values with a known number of
// copies. Every method is thread-safe, Close() included: a Close that races
// with reads waits for them, and later calls return a Closed status.
//
// The get strategies (docs/strategies.md tokens; P = 1 if RocksDB copied the
// value into a PinnableSlice, i.e. not block-cache resident, else 0):
//   string_copy  GetString       1 copy into a std::string
//   buffer_copy  GetInto         P + 1 copies into the caller's buffer
//   (direct_copy is buffer_copy into a Java direct ByteBuffer: same C++ call)
//   pinned_view  GetPinned       P copies; the caller reads pinned memory
//                GetVisit        P copies; the caller's visitor reads the held
//                                value and counts the copies it makes
//   (pinnable_copy is GetVisit with a visitor that copies into a new Java
//   byte[]: P + 1 copies, 1 allocation)
// Keys are never copied.
//
// The contract every method keeps (docs/design.md, "Errors"):
// - Checks come in one order: a closed store first (Closed), then the
//   arguments in the order of the signature (keys, buffers, out-parameters,
//   callbacks), then the read or write options (column family, snapshot):
//   each failure an InvalidArgument that names the argument. An array of
//   count elements may be null only when count is 0; an out-object or a
//   callback never. A batch of 0 keys gets every check a batch of 1 gets,
//   then reads nothing.
// - Not found is Status::NotFound(), never a sentinel.
// - A batched call reads every key of the batch and reports each key's status
//   (statuses[i], or the visitor's status); it then returns the first per-key
//   error other than NotFound, in key order, or OK. A failure of the checks
//   above returns before any key is read.

#ifndef PINGET_STORE_H_
#define PINGET_STORE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "pinget/cursor.h"
#include "pinget/export.h"
#include "pinget/options.h"
#include "pinget/pinned_value.h"
#include "pinget/status.h"
#include "pinget/write_batch.h"

namespace rocksdb {
class ColumnFamilyHandle;
class DB;
class Snapshot;
struct ReadOptions;
}  // namespace rocksdb

namespace pinget {

namespace internal {
class Gate;
class StoreBinding;  // pinget/binding/store_binding.h (not installed)
}  // namespace internal

// A consistent read view. Keeps its database open (as a PinnedValue does)
// until destroyed. Thread-safe.
class PINGET_EXPORT Snapshot {
 public:
  ~Snapshot();
  Snapshot(const Snapshot&) = delete;
  Snapshot& operator=(const Snapshot&) = delete;

 private:
  friend class Store;
  Snapshot() = default;
  std::shared_ptr<internal::Engine> engine_;
  // Released by ~Snapshot unless borrowed (Store::BorrowSnapshot).
  const rocksdb::Snapshot* snapshot_ = nullptr;
  bool borrowed_ = false;
};

// A caller's buffer for MultiGetInto.
struct Buffer {
  char* data = nullptr;
  size_t capacity = 0;
};

// Called by GetVisit with the value's bytes. value is valid only during the
// call; copies made from it are the visitor's to count (RecordValueCopy).
using ValueVisitor = void (*)(void* context, std::string_view value);

// Called by MultiGetVisit once per key, in key order, with the key's index and
// status. value is empty unless status is OK, and valid only during the call.
using BatchVisitor = void (*)(void* context, size_t index, const Status& status,
                              std::string_view value);

class PINGET_EXPORT Store {
 public:
  // Opens (or creates, per options) the database at path.
  static Status Open(const std::string& path, const Options& options,
                     std::unique_ptr<Store>* store);

  // A Store over a database that another library opened and owns (RocksJava:
  // its RocksDB and ColumnFamilyHandle objects' native handles). Reads use
  // pinget's strategies and copy accounting on that same instance. Column
  // family 0 is db's default; families[i] gets id i + 1. Close() and the last
  // pin or snapshot let go of db without closing it.
  // REQUIRES: pinget and the owner were built from the same RocksDB release
  // (the classes are shared across the two builds); db and every handle in
  // families belong together and outlive this Store and everything taken
  // from it (PinnedValue, PinnedBatch, Snapshot).
  static Status Borrow(
      rocksdb::DB* db,
      const std::vector<rocksdb::ColumnFamilyHandle*>& families,
      std::unique_ptr<Store>* store);

  // A Snapshot over a snapshot that the owner of a borrowed database took;
  // ~Snapshot does not release it. REQUIRES: snapshot was taken from this
  // store's database and stays unreleased while the Snapshot is used.
  Status BorrowSnapshot(const rocksdb::Snapshot* snapshot,
                        std::unique_ptr<Snapshot>* out);

  // Closes if not yet closed.
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // Waits for calls in flight, then releases the database; pinned values and
  // snapshots still alive keep it open (and its files locked) until they go.
  // Idempotent: a second Close returns OK.
  Status Close();
  bool closed() const;

  // The id of a column family given in Options::column_families ("default"
  // is 0). NotFound if the store has no such family.
  Status ColumnFamilyId(std::string_view name, uint32_t* id) const;

  Status Put(const WriteOptions& options, uint32_t column_family,
             std::string_view key, std::string_view value);
  Status Put(std::string_view key, std::string_view value) {
    return Put(WriteOptions(), 0, key, value);
  }
  Status Delete(const WriteOptions& options, uint32_t column_family,
                std::string_view key);
  Status Delete(std::string_view key) { return Delete(WriteOptions(), 0, key); }
  Status Write(const WriteOptions& options, const WriteBatch& batch);
  // Writes the column family's memtable to an SST file and waits for it.
  Status Flush(uint32_t column_family = 0);
  // Compacts the column family's whole key range and waits for it.
  Status Compact(uint32_t column_family = 0);

  Status GetSnapshot(std::unique_ptr<Snapshot>* snapshot);

  // string_copy: *value holds a copy of the value (1 copy, counted; one
  // allocation counted when *value's capacity had to grow).
  // NotFound leaves *value empty.
  Status GetString(const ReadOptions& options, std::string_view key,
                   std::string* value);

  // buffer_copy: copies min(size, capacity) bytes of the value into buffer and
  // sets *value_size to the value's full size, so a too-small buffer is
  // detected by *value_size > capacity. Nothing at or past buffer + capacity
  // is written. P + 1 copies (the + 1 counted for any non-null buffer, even
  // of capacity 0), no allocation. buffer may be null iff capacity is 0 (a
  // size query: P copies).
  Status GetInto(const ReadOptions& options, std::string_view key, char* buffer,
                 size_t capacity, size_t* value_size);

  // pinned_view: releases what *value held, then pins the value for key. P
  // copies, no allocation once *value has held a value that large (a copy
  // from the memtable goes into its own buffer, which grows once, counted;
  // pin_memtable pins instead). On any non-OK status *value holds nothing. A
  // key that points into *value's own bytes is copied before they are
  // released (one counted key copy).
  Status GetPinned(const ReadOptions& options, std::string_view key,
                   PinnedValue* value);

  // Reads the value for key into this thread's scratch PinnableSlice (P
  // copies; no allocation once the scratch buffer has held a value that
  // large, up to 1 MiB: larger buffers are freed after the call), calls
  // visit(context, value) once while the value is held, and drops the pin
  // before returning. visit is called only when the status is OK. visit may
  // read or write through any Store, this one included (a nested read gets
  // scratch of its own: 1 allocation, plus P's); Close() of this store from
  // another thread waits until visit returns.
  // REQUIRES: visit does not call Close() on this store (it would wait for
  // itself).
  // This is C++'s decode on read (docs/design.md): decode the value inside
  // visit (a counter, a string, a record) and keep only what it decodes.
  Status GetVisit(const ReadOptions& options, std::string_view key,
                  ValueVisitor visit, void* context);

  // Batched buffer_copy over RocksDB's MultiGet: for each i, as GetInto with
  // buffers[i], value_sizes[i] and statuses[i]. value_sizes and statuses (if
  // not null) are first set to 0 and NotFound, which keys never read keep.
  // Returns as every batched call does (above).
  Status MultiGetInto(const ReadOptions& options, size_t count,
                      const std::string_view* keys, const Buffer* buffers,
                      size_t* value_sizes, Status* statuses);

  // Batched GetVisit over RocksDB's MultiGet: for each i, in order,
  // visit(context, i, status, value) while value i is held; P copies per found
  // key, no allocation in steady state. Keys are read in chunks, and each
  // chunk's pins are dropped before the next chunk is read. Returns as every
  // batched call does (above); visit is not called when the checks fail.
  // REQUIRES: as GetVisit.
  Status MultiGetVisit(const ReadOptions& options, size_t count,
                       const std::string_view* keys, BatchVisitor visit,
                       void* context);

  // Batched pinned_view: releases what *values held, then pins count values
  // (values->status(i) for each). The batch's storage is reused across calls:
  // no allocation once it has held count values. Returns as every batched
  // call does (above). REQUIRES: no key points into *values' bytes.
  Status MultiGetPinned(const ReadOptions& options, size_t count,
                        const std::string_view* keys, PinnedBatch* values);

  // A cursor over the entries of options.read's column family in the range
  // options give (pinget/cursor.h): batches of keys and values lent in place.
  // Checks the read options as every read does. The cursor keeps the
  // database open after Close() until it is closed or destroyed.
  Status NewCursor(const CursorOptions& options,
                   std::unique_ptr<Cursor>* cursor);

  // A RocksDB property of the column family ("rocksdb.stats", ...).
  Status GetProperty(uint32_t column_family, std::string_view property,
                     std::string* value);

 private:
  class Read;  // one read call's entry (get.cc)
  friend class internal::StoreBinding;

  // string_copy for a binding that copies the string again (the JNI layer):
  // GetString into this thread's scratch std::string (1 copy; no allocation
  // once it has held a value that large, up to 1 MiB: a larger buffer is
  // freed after the call), then visit(context, value) while it is held.
  // visit is called only when the status is OK. REQUIRES: as GetVisit.
  Status GetStringVisit(const ReadOptions& options, std::string_view key,
                        ValueVisitor visit, void* context);
  // GetPinned, except that a value of at most capacity bytes (none if
  // capacity is 0) is copied into buffer and released inside the call (P + 1
  // copies, the + 1 counted): *copied is its size, and *value then holds
  // nothing. Otherwise *copied is kNotCopied. A handle that holds no
  // database takes a reference to this one (an atomic write to state every
  // reader of the store shares) only to keep a pin past the call, and
  // otherwise stays detached: a binding's per-thread handle copies small
  // values with no such write.
  static constexpr size_t kNotCopied = static_cast<size_t>(-1);
  Status GetPinnedOrCopy(const ReadOptions& options, std::string_view key,
                         PinnedValue* value, char* buffer, size_t capacity,
                         size_t* copied);
  Status PinFromMemtable(rocksdb::DB* db, const rocksdb::ReadOptions& ro,
                         rocksdb::ColumnFamilyHandle* cf, std::string_view key,
                         PinnedValue* value, bool* found);

  Store();

  std::unique_ptr<internal::Gate> gate_;
  std::shared_ptr<internal::Engine> engine_;  // reset by Close()
};

// The RocksDB release pinget was built against ("11.8.1" when bundled).
PINGET_EXPORT const char* RocksDBVersion();

}  // namespace pinget

#endif  // PINGET_STORE_H_
