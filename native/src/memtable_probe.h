// Copyright pinget authors. Licensed under the Apache License 2.0.
// Internal: what a PinnedValue keeps for ReadOptions::pin_memtable.

#ifndef PINGET_SRC_MEMTABLE_PROBE_H_
#define PINGET_SRC_MEMTABLE_PROBE_H_

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>

#include <memory>
#include <string>

#include "pinget/pinned_value.h"

namespace pinget {

// An iterator over the memtables only (read_tier kMemtableTier, pin_data),
// made once per PinnedValue and refreshed before each get: a Seek to the key,
// bounded above by the key's successor, finds the key's live value in a
// memtable or nothing. The value stays where the memtable keeps it until the
// iterator is refreshed or destroyed (it holds the memtables' version).
struct PinnedValue::MemtableProbe {
  rocksdb::ReadOptions ro;
  std::unique_ptr<rocksdb::Iterator> it;
  rocksdb::ColumnFamilyHandle* cf = nullptr;
  rocksdb::SequenceNumber seq = 0;  // the snapshot's, if any
  std::string bound;  // the key and a zero byte: the key's successor
  rocksdb::Slice bound_slice;
};

}  // namespace pinget

#endif  // PINGET_SRC_MEMTABLE_PROBE_H_
