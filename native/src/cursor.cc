// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// Cursor: batches of entries read through a RocksDB iterator with pin_data,
// so that values stay where RocksDB keeps them until the batch moves on.

#include "pinget/cursor.h"

#include <rocksdb/db.h>
#include <rocksdb/iterator.h>
#include <rocksdb/options.h>

#include <algorithm>
#include <utility>

#include "checks.h"
#include "convert.h"
#include "engine.h"
#include "pinget/copy_stats.h"
#include "scratch.h"

namespace pinget {

using internal::CheckKey;
using internal::FromRocksDB;
using internal::ToSlice;

namespace {

// The first key after every key that starts with prefix; empty if there is
// none (prefix is all 0xff).
std::string PrefixEnd(std::string_view prefix) {
  std::string end(prefix);
  while (!end.empty()) {
    unsigned char last = static_cast<unsigned char>(end.back());
    if (last != 0xff) {
      end.back() = static_cast<char>(last + 1);
      return end;
    }
    end.pop_back();
  }
  return end;
}

}  // namespace

struct Cursor::Impl {
  rocksdb::ReadOptions ro;
  rocksdb::ColumnFamilyHandle* cf = nullptr;
  std::unique_ptr<rocksdb::Iterator> it;
  // The snapshot the cursor took for itself (released by it), if the caller
  // gave none.
  const rocksdb::Snapshot* own_snapshot = nullptr;
  std::string lower, upper;  // the bounds' storage; empty: none
  rocksdb::Slice lower_slice, upper_slice;
  // True where RocksDB may compute a value (a merge operator or blob files):
  // each value's pinning is then asked of the iterator.
  bool ask_pinned = false;
  bool positioned = false;  // a seek was made and the range not yet left
  size_t lent_bytes = 0;    // by this iterator, since it was made
  // This batch's copies: keys always, values RocksDB did not pin. Views into
  // them are made once the batch is complete (the strings may move while it
  // grows).
  std::string copied;
  std::vector<size_t> key_ends;                        // into copied
  std::vector<std::pair<size_t, size_t>> value_spans;  // into copied, or -1
  std::string property;
};

Cursor::Cursor() : impl_(new Impl) {}

Cursor::~Cursor() { Close(); }

Status Cursor::Make(std::shared_ptr<internal::Engine> engine,
                    const rocksdb::ReadOptions& ro,
                    rocksdb::ColumnFamilyHandle* cf, bool values_computed,
                    const CursorOptions& options,
                    std::unique_ptr<Cursor>* cursor) {
  std::unique_ptr<Cursor> c(new Cursor());
  Impl& impl = *c->impl_;
  impl.ro = ro;
  impl.cf = cf;
  impl.ask_pinned = values_computed;
  impl.ro.pin_data = true;
  if (impl.ro.snapshot == nullptr) {
    impl.own_snapshot = engine->db->GetSnapshot();
    impl.ro.snapshot = impl.own_snapshot;
  }
  impl.lower = options.lower_bound;
  impl.upper = options.upper_bound;
  if (!options.prefix.empty()) {
    impl.lower = std::max(impl.lower, options.prefix);
    std::string end = PrefixEnd(options.prefix);
    if (!end.empty() && (impl.upper.empty() || end < impl.upper)) {
      impl.upper = std::move(end);
    }
  }
  if (!impl.lower.empty()) {
    impl.lower_slice = rocksdb::Slice(impl.lower);
    impl.ro.iterate_lower_bound = &impl.lower_slice;
  }
  if (!impl.upper.empty()) {
    impl.upper_slice = rocksdb::Slice(impl.upper);
    impl.ro.iterate_upper_bound = &impl.upper_slice;
  }
  c->engine_ = std::move(engine);
  Status st = c->MakeIterator();
  if (!st.ok()) return st;
  *cursor = std::move(c);
  return Status::OK();
}

Status Cursor::MakeIterator() {
  impl_->it.reset(engine_->db->NewIterator(impl_->ro, impl_->cf));
  impl_->lent_bytes = 0;
  return FromRocksDB(impl_->it->status());
}

// The check before every seek and batch: a closed cursor or store.
Status Cursor::Start() {
  if (engine_ == nullptr) return Status::Closed("cursor is closed");
  if (engine_->store_closed.load(std::memory_order_acquire)) {
    Close();
    return Status::Closed("store is closed");
  }
  return Status::OK();
}

void Cursor::DropBatch() {
  keys_.clear();
  values_.clear();
  pinned_.clear();
  impl_->key_ends.clear();
  impl_->value_spans.clear();
  impl_->copied.clear();
  internal::Trim(&impl_->copied);
}

Status Cursor::Position(Direction direction, std::string_view key, bool edge) {
  Status st = Start();
  if (!st.ok()) return st;
  if (!edge) {
    st = CheckKey(key);
    if (!st.ok()) return st;
  }
  DropBatch();
  if (impl_->lent_bytes >= kRecycleBytes) {
    st = MakeIterator();  // drops what the old iterator pinned
    if (!st.ok()) return st;
  }
  rocksdb::Iterator& it = *impl_->it;
  if (edge) {
    direction == Direction::kForward ? it.SeekToFirst() : it.SeekToLast();
  } else {
    direction == Direction::kForward ? it.Seek(ToSlice(key))
                                     : it.SeekForPrev(ToSlice(key));
  }
  impl_->positioned = true;
  return FromRocksDB(it.status());
}

Status Cursor::SeekToFirst() { return Position(Direction::kForward, {}, true); }
Status Cursor::SeekToLast() { return Position(Direction::kBackward, {}, true); }
Status Cursor::Seek(std::string_view key) {
  return Position(Direction::kForward, key, false);
}
Status Cursor::SeekForPrev(std::string_view key) {
  return Position(Direction::kBackward, key, false);
}

Status Cursor::Next(size_t max) { return Lend(max, Direction::kForward); }
Status Cursor::Prev(size_t max) { return Lend(max, Direction::kBackward); }

Status Cursor::Lend(size_t max, Direction direction) {
  Status st = Start();
  if (!st.ok()) return st;
  if (max == 0) return Status::InvalidArgument("max is 0");
  DropBatch();
  Impl& impl = *impl_;
  if (!impl.positioned) return Status::OK();
  if (impl.lent_bytes >= kRecycleBytes) {
    // A new iterator at the entry the old one stands on: the old one's pins,
    // which the dropped batch was the last to need, go with it.
    if (!impl.it->Valid()) {
      impl.positioned = false;
      return FromRocksDB(impl.it->status());
    }
    std::string resume = impl.it->key().ToString();
    st = MakeIterator();
    if (!st.ok()) return st;
    direction == Direction::kForward ? impl.it->Seek(resume)
                                     : impl.it->SeekForPrev(resume);
  }
  rocksdb::Iterator& it = *impl.it;
  // The batch's key copies counted at once, on every way out (a bad_alloc
  // included): one access to this thread's counters (through a shared
  // library, a TLS lookup) instead of one for each key.
  struct KeyCount {
    size_t n = 0;
    ~KeyCount() { RecordKeyCopy(n); }
  } copies;
  while (copies.n < max && it.Valid()) {
    const rocksdb::Slice key = it.key();
    const rocksdb::Slice value = it.value();
    impl.copied.append(key.data(), key.size());
    impl.key_ends.push_back(impl.copied.size());
    ++copies.n;
    bool pinned = true;
    if (impl.ask_pinned) {
      pinned =
          it.GetProperty("rocksdb.iterator.is-value-pinned", &impl.property)
              .ok() &&
          impl.property == "1";
    }
    if (pinned) {
      values_.emplace_back(value.data(), value.size());
      impl.value_spans.emplace_back(SIZE_MAX, 0);
    } else {
      impl.value_spans.emplace_back(impl.copied.size(), value.size());
      impl.copied.append(value.data(), value.size());
      values_.emplace_back();
      RecordValueCopy(value.size());
    }
    pinned_.push_back(pinned);
    impl.lent_bytes += key.size() + value.size();
    direction == Direction::kForward ? it.Next() : it.Prev();
  }
  // Views into the copies, now that they stop moving.
  size_t begin = 0;
  for (size_t i = 0; i < impl.key_ends.size(); ++i) {
    keys_.emplace_back(impl.copied.data() + begin, impl.key_ends[i] - begin);
    begin = impl.key_ends[i];
    if (impl.value_spans[i].first != SIZE_MAX) {
      values_[i] =
          std::string_view(impl.copied.data() + impl.value_spans[i].first,
                           impl.value_spans[i].second);
    }
  }
  return FromRocksDB(it.status());
}

std::string_view Cursor::key(size_t i) const {
  return i < keys_.size() ? keys_[i] : std::string_view();
}

std::string_view Cursor::value(size_t i) const {
  return i < values_.size() ? values_[i] : std::string_view();
}

bool Cursor::value_pinned(size_t i) const {
  return i < pinned_.size() && pinned_[i];
}

void Cursor::Close() {
  if (engine_ == nullptr) return;
  DropBatch();
  impl_->it.reset();
  if (impl_->own_snapshot != nullptr) {
    engine_->db->ReleaseSnapshot(impl_->own_snapshot);
    impl_->own_snapshot = nullptr;
  }
  engine_.reset();
}

}  // namespace pinget
