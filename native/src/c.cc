// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// The C API (pinget/c.h): each function checks the handles C adds, then calls
// its C++ twin. Copy counts are the C++ API's, plus the one copy and
// allocation of pinget_pinnable_copy, which this file makes and records.
// pinget_string_copy is GetString into a string this file lends per thread.

#include "pinget/c.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "checks.h"
#include "pinget/binding/batch_buffers.h"
#include "pinget/binding/store_binding.h"
#include "pinget/binding/wire_options.h"
#include "pinget/copy_stats.h"
#include "pinget/options.h"
#include "pinget/pinned_value.h"
#include "pinget/status.h"
#include "pinget/store.h"
#include "pinget/write_batch.h"
#include "scratch.h"

struct pinget_options {
  pinget::Options options;
};
struct pinget_read_options {
  pinget::ReadOptions options;
};
struct pinget_write_options {
  pinget::WriteOptions options;
};
struct pinget_write_batch {
  pinget::WriteBatch batch;
};
struct pinget_pinned {
  pinget::PinnedValue value;
};
struct pinget_pinned_batch {
  pinget::PinnedBatch batch;
};
struct pinget_cursor {
  std::unique_ptr<pinget::Cursor> cursor;
};

namespace {

using pinget::Status;

const pinget::ReadOptions kDefaultRead;
const pinget::WriteOptions kDefaultWrite;

// A malloc'd NUL-terminated copy of s, or null if malloc fails.
char* CopyString(const std::string& s) {
  char* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (p != nullptr) std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

// Sets *message as c.h says and returns st's code.
pinget_code Finish(const Status& st, char** message) {
  if (message != nullptr) {
    *message = st.ok() || st.IsNotFound() ? nullptr : CopyString(st.ToString());
  }
  return static_cast<pinget_code>(st.code());
}

Status Null(const char* what) {
  return Status::InvalidArgument(std::string(what) + " is null");
}

Status UnknownFlags(const char* kind, uint32_t bits) {
  return Status::InvalidArgument("unknown " + std::string(kind) +
                                 " option flags " + std::to_string(bits));
}

// Runs body (returning a Status) with no exception escaping: an allocation
// failure is PINGET_UNKNOWN.
template <typename Body>
pinget_code Guard(char** message, Body body) {
  try {
    return Finish(body(), message);
  } catch (const std::bad_alloc&) {
    if (message != nullptr) *message = nullptr;
    return PINGET_UNKNOWN;
  } catch (...) {
    return Finish(Status::Unknown("unexpected C++ exception"), message);
  }
}

template <typename Handle>
pinget_code Create(Handle** out, char** message) {
  return Guard(message, [&] {
    if (out == nullptr) return Null("out");
    *out = new Handle();
    return Status::OK();
  });
}

const pinget::ReadOptions& Read(const pinget_read_options* o) {
  return o == nullptr ? kDefaultRead : o->options;
}
const pinget::WriteOptions& Write(const pinget_write_options* o) {
  return o == nullptr ? kDefaultWrite : o->options;
}

// A pinget_store* is the pinget::Store* itself (c.h), the same pointer as a
// Java Store's handle: no wrapper to allocate or to follow on each call.
pinget::Store* Unwrap(pinget_store* store) {
  return reinterpret_cast<pinget::Store*>(store);
}
const pinget::Store* Unwrap(const pinget_store* store) {
  return reinterpret_cast<const pinget::Store*>(store);
}
// Likewise a pinget_snapshot* is the pinget::Snapshot*, a Java snapshot's.
const pinget::Snapshot* Unwrap(const pinget_snapshot* snapshot) {
  return reinterpret_cast<const pinget::Snapshot*>(snapshot);
}

// Runs body with the store's C++ object, once the handle is known non-null.
template <typename Body>
pinget_code WithStore(pinget_store* store, char** message, Body body) {
  return Guard(message, [&] {
    if (store == nullptr) return Null("store");
    return body(*Unwrap(store));
  });
}

// A (pointer, size) pair as a view. A null pointer stays null, whatever the
// size, so that the C++ checks name it (a null key is refused).
std::string_view Bytes(const char* data, size_t size) {
  return data == nullptr ? std::string_view() : std::string_view(data, size);
}

// pinget_string_copy's string: lent until this thread's next call, so it is
// trimmed (scratch.h's rule) before a get rather than after. One a thread
// (scratch.h's ThisThreads).
struct LentString {
  std::string text;
};

// A get that returns its value through (value, value_size): both cleared
// first; a NULL one refused after the store's state and the key (the C++
// checks, which body makes: checks.h's KeyOk is their rule); then
// body(store).
template <typename Out, typename Body>
pinget_code WithValueOut(pinget_store* store, const char* key, size_t key_size,
                         Out* value, size_t* value_size, char** message,
                         Body body) {
  if (value != nullptr) *value = nullptr;
  if (value_size != nullptr) *value_size = 0;
  return WithStore(store, message, [&](pinget::Store& s) {
    if (!s.closed() && pinget::internal::KeyOk(Bytes(key, key_size))) {
      if (value == nullptr) return Null("value");
      if (value_size == nullptr) return Null("value_size");
    }
    return body(s);
  });
}

// Fills a batch's key views in this thread's BatchBuffers (no allocation in
// steady state). Checks the C-only arrays after the store's state, so that
// a closed store is reported first, as in C++.
Status BatchKeys(const pinget::Store& store, size_t count,
                 const char* const* keys, const size_t* key_sizes,
                 pinget::BatchBuffers& buffers, const std::string_view** out) {
  buffers.Reset();
  *out = nullptr;
  if (count == 0 || keys == nullptr) return Status::OK();  // C++ checks keys
  if (store.closed()) return Status::OK();                 // C++ reports Closed
  if (key_sizes == nullptr) return Null("key_sizes");
  std::string_view* views = buffers.KeysInPlace(count);
  for (size_t i = 0; i < count; ++i) views[i] = Bytes(keys[i], key_sizes[i]);
  *out = views;
  return Status::OK();
}

}  // namespace

extern "C" {

const char* pinget_code_name(int code) {
  if (code < PINGET_OK || code > PINGET_UNKNOWN) return "Unknown";
  return pinget::StatusCodeName(static_cast<Status::Code>(code));
}

const char* pinget_rocksdb_version(void) { return pinget::RocksDBVersion(); }

void pinget_free(void* p) { std::free(p); }

// ---- Options ----

pinget_code pinget_options_create(pinget_options** out, char** message) {
  return Create(out, message);
}
void pinget_options_destroy(pinget_options* options) { delete options; }

pinget_code pinget_options_set(pinget_options* options, const char* text,
                               size_t text_size, char** message) {
  return Guard(message, [&] {
    if (options == nullptr) return Null("options");
    if (text == nullptr && text_size != 0) return Null("text");
    return pinget::ParseOptions(Bytes(text, text_size), &options->options);
  });
}

pinget_code pinget_options_add_column_family(pinget_options* options,
                                             const char* name, size_t name_size,
                                             char** message) {
  return Guard(message, [&] {
    if (options == nullptr) return Null("options");
    if (name == nullptr && name_size != 0) return Null("name");
    options->options.column_families.emplace_back(Bytes(name, name_size));
    return Status::OK();
  });
}

pinget_code pinget_read_options_create(pinget_read_options** out,
                                       char** message) {
  return Create(out, message);
}
void pinget_read_options_destroy(pinget_read_options* options) {
  delete options;
}
pinget_code pinget_read_options_set(pinget_read_options* options,
                                    const pinget_snapshot* snapshot,
                                    uint32_t column_family, uint32_t flags,
                                    char** message) {
  return Guard(message, [&] {
    if (options == nullptr) return Null("options");
    if ((flags & ~pinget::internal::kReadFlags) != 0) {
      return UnknownFlags("read", flags & ~pinget::internal::kReadFlags);
    }
    options->options = pinget::internal::ReadOptionsFromWire(
        Unwrap(snapshot), column_family, flags);
    return Status::OK();
  });
}

pinget_code pinget_write_options_create(pinget_write_options** out,
                                        char** message) {
  return Create(out, message);
}
void pinget_write_options_destroy(pinget_write_options* options) {
  delete options;
}
pinget_code pinget_write_options_set(pinget_write_options* options,
                                     uint32_t flags, char** message) {
  return Guard(message, [&] {
    if (options == nullptr) return Null("options");
    if ((flags & ~pinget::internal::kWriteFlags) != 0) {
      return UnknownFlags("write", flags & ~pinget::internal::kWriteFlags);
    }
    options->options = pinget::internal::WriteOptionsFromWire(flags);
    return Status::OK();
  });
}

// ---- Store ----

pinget_code pinget_open(const char* path, const pinget_options* options,
                        pinget_store** out, char** message) {
  if (out != nullptr) *out = nullptr;
  return Guard(message, [&] {
    if (path == nullptr) return Null("path");
    if (out == nullptr) return Null("out");
    const pinget::Options defaults;
    std::unique_ptr<pinget::Store> store;
    Status st = pinget::Store::Open(
        path, options == nullptr ? defaults : options->options, &store);
    if (st.ok()) *out = reinterpret_cast<pinget_store*>(store.release());
    return st;
  });
}

pinget_code pinget_close(pinget_store* store, char** message) {
  return WithStore(store, message, [](pinget::Store& s) { return s.Close(); });
}

void pinget_store_destroy(pinget_store* store) { delete Unwrap(store); }

pinget_code pinget_column_family_id(const pinget_store* store, const char* name,
                                    size_t name_size, uint32_t* id,
                                    char** message) {
  return Guard(message, [&] {
    if (store == nullptr) return Null("store");
    // A closed store, then id: the C++ checks.
    if (name == nullptr && name_size != 0 && !Unwrap(store)->closed() &&
        id != nullptr) {
      return Null("name");
    }
    return Unwrap(store)->ColumnFamilyId(Bytes(name, name_size), id);
  });
}

pinget_code pinget_put(pinget_store* store, const pinget_write_options* options,
                       uint32_t column_family, const char* key, size_t key_size,
                       const char* value, size_t value_size, char** message) {
  return WithStore(store, message, [&](pinget::Store& s) {
    // The value as given: Store::Put refuses a null one with a non-zero size.
    return s.Put(Write(options), column_family, Bytes(key, key_size),
                 std::string_view(value, value_size));
  });
}

pinget_code pinget_delete(pinget_store* store,
                          const pinget_write_options* options,
                          uint32_t column_family, const char* key,
                          size_t key_size, char** message) {
  return WithStore(store, message, [&](pinget::Store& s) {
    return s.Delete(Write(options), column_family, Bytes(key, key_size));
  });
}

pinget_code pinget_write(pinget_store* store,
                         const pinget_write_options* options,
                         const pinget_write_batch* batch, char** message) {
  return WithStore(store, message, [&](pinget::Store& s) {
    if (batch == nullptr && !s.closed()) return Null("batch");
    static const pinget::WriteBatch kEmpty;
    return s.Write(Write(options), batch == nullptr ? kEmpty : batch->batch);
  });
}

pinget_code pinget_flush(pinget_store* store, uint32_t column_family,
                         char** message) {
  return WithStore(store, message,
                   [&](pinget::Store& s) { return s.Flush(column_family); });
}

pinget_code pinget_compact(pinget_store* store, uint32_t column_family,
                           char** message) {
  return WithStore(store, message,
                   [&](pinget::Store& s) { return s.Compact(column_family); });
}

pinget_code pinget_get_property(pinget_store* store, uint32_t column_family,
                                const char* property, size_t property_size,
                                char** value, size_t* value_size,
                                char** message) {
  if (value != nullptr) *value = nullptr;
  if (value_size != nullptr) *value_size = 0;
  return WithStore(store, message, [&](pinget::Store& s) {
    std::string text;
    if (!s.closed()) {
      if (property == nullptr && property_size != 0) return Null("property");
      if (value == nullptr) return Null("value");
      if (value_size == nullptr) return Null("value_size");
    }
    Status st =
        s.GetProperty(column_family, Bytes(property, property_size), &text);
    if (!st.ok()) return st;
    char* copy = CopyString(text);
    if (copy == nullptr) throw std::bad_alloc();
    *value = copy;
    *value_size = text.size();
    return st;
  });
}

// ---- Write batches ----

pinget_code pinget_write_batch_create(pinget_write_batch** out,
                                      char** message) {
  return Create(out, message);
}
void pinget_write_batch_destroy(pinget_write_batch* batch) { delete batch; }

pinget_code pinget_write_batch_put(pinget_write_batch* batch,
                                   uint32_t column_family, const char* key,
                                   size_t key_size, const char* value,
                                   size_t value_size, char** message) {
  return Guard(message, [&] {
    if (batch == nullptr) return Null("batch");
    // A null pointer with a non-zero size is kept as such, for Store::Write
    // to refuse the whole batch.
    batch->batch.Put(column_family, std::string_view(key, key_size),
                     std::string_view(value, value_size));
    return Status::OK();
  });
}

pinget_code pinget_write_batch_delete(pinget_write_batch* batch,
                                      uint32_t column_family, const char* key,
                                      size_t key_size, char** message) {
  return Guard(message, [&] {
    if (batch == nullptr) return Null("batch");
    batch->batch.Delete(column_family, std::string_view(key, key_size));
    return Status::OK();
  });
}

pinget_code pinget_write_batch_clear(pinget_write_batch* batch,
                                     char** message) {
  return Guard(message, [&] {
    if (batch == nullptr) return Null("batch");
    batch->batch.Clear();
    return Status::OK();
  });
}

size_t pinget_write_batch_count(const pinget_write_batch* batch) {
  return batch == nullptr ? 0 : batch->batch.Count();
}

// ---- Snapshots ----

pinget_code pinget_snapshot_create(pinget_store* store, pinget_snapshot** out,
                                   char** message) {
  if (out != nullptr) *out = nullptr;
  return WithStore(store, message, [&](pinget::Store& s) {
    if (out == nullptr && !s.closed()) return Null("out");
    std::unique_ptr<pinget::Snapshot> snapshot;
    Status st = s.GetSnapshot(&snapshot);
    if (st.ok()) *out = reinterpret_cast<pinget_snapshot*>(snapshot.release());
    return st;
  });
}

void pinget_snapshot_destroy(pinget_snapshot* snapshot) {
  delete reinterpret_cast<pinget::Snapshot*>(snapshot);
}

// ---- Gets ----

namespace {

struct OwnedCopy {
  char* data = nullptr;
  size_t size = 0;
};

// pinnable_copy's + 1: one new buffer, one copy into it.
void CopyToOwned(void* context, std::string_view value) {
  auto* out = static_cast<OwnedCopy*>(context);
  // malloc(0) may return null: an empty value still gets a valid pointer.
  out->data = static_cast<char*>(std::malloc(value.empty() ? 1 : value.size()));
  if (out->data == nullptr) return;
  pinget::RecordAllocation();
  std::memcpy(out->data, value.data(), value.size());
  pinget::RecordValueCopy(value.size());
  out->size = value.size();
}

struct Visit {
  pinget_value_visitor visitor;
  void* context;
};

void CallVisitor(void* context, std::string_view value) {
  auto* v = static_cast<Visit*>(context);
  v->visitor(v->context, value.data(), value.size());
}

}  // namespace

pinget_code pinget_string_copy(pinget_store* store,
                               const pinget_read_options* options,
                               const char* key, size_t key_size,
                               const char** value, size_t* value_size,
                               char** message) {
  return WithValueOut(
      store, key, key_size, value, value_size, message, [&](pinget::Store& s) {
        LentString* lent = pinget::internal::ThisThreads<LentString>();
        if (lent == nullptr) {
          return Status::NotSupported(
              "pinget_string_copy called in a thread's exit, after the "
              "thread's string was destroyed: it has nothing to lend (use "
              "pinget_pinnable_copy there)");
        }
        pinget::internal::Trim(&lent->text);
        Status st =
            s.GetString(Read(options), Bytes(key, key_size), &lent->text);
        if (st.ok()) {
          *value = lent->text.data();
          *value_size = lent->text.size();
        }
        return st;
      });
}

pinget_code pinget_pinnable_copy(pinget_store* store,
                                 const pinget_read_options* options,
                                 const char* key, size_t key_size, char** value,
                                 size_t* value_size, char** message) {
  return WithValueOut(
      store, key, key_size, value, value_size, message, [&](pinget::Store& s) {
        OwnedCopy copy;
        Status st = s.GetVisit(Read(options), Bytes(key, key_size),
                               &CopyToOwned, &copy);
        if (st.ok()) {
          if (copy.data == nullptr) throw std::bad_alloc();
          *value = copy.data;
          *value_size = copy.size;
        }
        return st;
      });
}

pinget_code pinget_buffer_copy(pinget_store* store,
                               const pinget_read_options* options,
                               const char* key, size_t key_size, char* buffer,
                               size_t capacity, size_t* value_size,
                               char** message) {
  return WithStore(store, message, [&](pinget::Store& s) {
    return s.GetInto(Read(options), Bytes(key, key_size), buffer, capacity,
                     value_size);
  });
}

pinget_code pinget_pinned_visit(pinget_store* store,
                                const pinget_read_options* options,
                                const char* key, size_t key_size,
                                pinget_value_visitor visitor, void* context,
                                char** message) {
  return WithStore(store, message, [&](pinget::Store& s) {
    Visit visit{visitor, context};
    return s.GetVisit(Read(options), Bytes(key, key_size),
                      visitor == nullptr ? nullptr : &CallVisitor, &visit);
  });
}

pinget_code pinget_pinned_create(pinget_pinned** out, char** message) {
  return Create(out, message);
}
void pinget_pinned_destroy(pinget_pinned* pinned) { delete pinned; }

pinget_code pinget_pinned_view(pinget_store* store,
                               const pinget_read_options* options,
                               const char* key, size_t key_size,
                               pinget_pinned* pinned, const char** value,
                               size_t* value_size, char** message) {
  pinget_code code = WithStore(store, message, [&](pinget::Store& s) {
    return s.GetPinned(Read(options), Bytes(key, key_size),
                       pinned == nullptr ? nullptr : &pinned->value);
  });
  if (code == PINGET_OK) {
    size_t size = 0;
    const char* data = pinget_pinned_value(pinned, &size);
    if (value != nullptr) *value = data;
    if (value_size != nullptr) *value_size = size;
  } else {
    if (value != nullptr) *value = nullptr;
    if (value_size != nullptr) *value_size = 0;
  }
  return code;
}

pinget_code pinget_pinned_view_or_copy(pinget_store* store,
                                       const pinget_read_options* options,
                                       const char* key, size_t key_size,
                                       pinget_pinned* pinned, char* buffer,
                                       size_t capacity, const char** value,
                                       size_t* value_size, char** message) {
  using pinget::internal::StoreBinding;
  pinget_code code = WithValueOut(
      store, key, key_size, value, value_size, message, [&](pinget::Store& s) {
        if (!s.closed() && pinget::internal::KeyOk(Bytes(key, key_size))) {
          if (pinned == nullptr) return Null("pinned");
          if (!pinget::internal::BufferOk(buffer, capacity))
            return Null("buffer");
        }
        // A closed store or a bad key: the C++ checks name them.
        if (pinned == nullptr) {
          return s.GetPinned(Read(options), Bytes(key, key_size), nullptr);
        }
        size_t size = 0;
        Status st = StoreBinding::GetCopiedIfSmall(
            s, Read(options), Bytes(key, key_size), buffer, capacity,
            &pinned->value, &size);
        if (st.ok()) {
          const bool copied = capacity > 0 && size <= capacity;
          *value = copied ? buffer : pinned->value.data();
          *value_size = size;
          // A handle that held this store before lets go of it too.
          if (copied) StoreBinding::Detach(&pinned->value);
        }
        return st;
      });
  if (code != PINGET_OK && pinned != nullptr) {
    StoreBinding::Detach(&pinned->value);
  }
  return code;
}

const char* pinget_pinned_value(const pinget_pinned* pinned, size_t* size) {
  const bool held = pinned != nullptr && pinned->value.holds_value();
  if (size != nullptr) *size = held ? pinned->value.size() : 0;
  return held ? pinned->value.data() : nullptr;
}

int pinget_pinned_in_cache(const pinget_pinned* pinned) {
  return pinned != nullptr && pinned->value.pinned_in_cache() ? 1 : 0;
}

void pinget_pinned_release(pinget_pinned* pinned) {
  if (pinned != nullptr) pinned->value.Release();
}

void pinget_pinned_release_detached(pinget_pinned* pinned) {
  if (pinned != nullptr) pinget::internal::StoreBinding::Detach(&pinned->value);
}

pinget_code pinget_multi_buffer_copy(
    pinget_store* store, const pinget_read_options* options, size_t count,
    const char* const* keys, const size_t* key_sizes, char* const* buffers,
    const size_t* capacities, size_t* value_sizes, int* codes, char** message) {
  if (codes != nullptr) {
    for (size_t i = 0; i < count; ++i) codes[i] = PINGET_NOT_FOUND;
  }
  return WithStore(store, message, [&](pinget::Store& s) {
    pinget::BatchBuffers::Lease lease;
    pinget::BatchBuffers& batch = *lease;
    const std::string_view* views = nullptr;
    Status st = BatchKeys(s, count, keys, key_sizes, batch, &views);
    if (!st.ok()) return st;
    const bool own_buffers = count > 0 && buffers != nullptr;
    if (own_buffers && !s.closed()) {
      if (capacities == nullptr) return Null("capacities");
      for (size_t i = 0; i < count; ++i) {
        batch.AddBuffer(buffers[i], capacities[i]);
      }
    }
    batch.ResetResults();
    // Room for count statuses only when the keys were laid out; otherwise the
    // C++ checks fail on the store or the keys before statuses is touched.
    const bool laid_out = count > 0 && batch.size() == count;
    st = s.MultiGetInto(Read(options), count, views,
                        own_buffers ? batch.buffers() : nullptr, value_sizes,
                        laid_out ? batch.statuses() : nullptr);
    if (codes != nullptr && laid_out) {
      for (size_t i = 0; i < count; ++i) {
        codes[i] = static_cast<int>(batch.statuses()[i].code());
      }
    }
    return st;
  });
}

pinget_code pinget_pinned_batch_create(pinget_pinned_batch** out,
                                       char** message) {
  return Create(out, message);
}
void pinget_pinned_batch_destroy(pinget_pinned_batch* batch) { delete batch; }

pinget_code pinget_multi_pinned_view(pinget_store* store,
                                     const pinget_read_options* options,
                                     size_t count, const char* const* keys,
                                     const size_t* key_sizes,
                                     pinget_pinned_batch* batch,
                                     const char** values, size_t* value_sizes,
                                     int* codes, char** message) {
  pinget_code code = WithStore(store, message, [&](pinget::Store& s) {
    pinget::BatchBuffers::Lease lease;
    pinget::BatchBuffers& buffers = *lease;
    const std::string_view* views = nullptr;
    Status st = BatchKeys(s, count, keys, key_sizes, buffers, &views);
    if (!st.ok()) return st;
    return s.MultiGetPinned(Read(options), count, views,
                            batch == nullptr ? nullptr : &batch->batch);
  });
  // What each key got (after a failed check: nothing held, so NotFound).
  for (size_t i = 0; i < count; ++i) {
    size_t size = 0;
    const char* data = pinget_pinned_batch_value(batch, i, &size);
    if (values != nullptr) values[i] = data;
    if (value_sizes != nullptr) value_sizes[i] = size;
    if (codes != nullptr) codes[i] = pinget_pinned_batch_code(batch, i);
  }
  return code;
}

// ---- Cursors ----

pinget_code pinget_cursor_create(pinget_store* store,
                                 const pinget_read_options* options,
                                 const char* lower_bound, size_t lower_size,
                                 const char* upper_bound, size_t upper_size,
                                 const char* prefix, size_t prefix_size,
                                 pinget_cursor** out, char** message) {
  if (out != nullptr) *out = nullptr;
  return WithStore(store, message, [&](pinget::Store& s) {
    if (!s.closed()) {
      if (lower_bound == nullptr && lower_size != 0) return Null("lower_bound");
      if (upper_bound == nullptr && upper_size != 0) return Null("upper_bound");
      if (prefix == nullptr && prefix_size != 0) return Null("prefix");
      if (out == nullptr) return Null("out");
    }
    pinget::CursorOptions o;
    o.read = Read(options);
    o.lower_bound.assign(Bytes(lower_bound, lower_size));
    o.upper_bound.assign(Bytes(upper_bound, upper_size));
    o.prefix.assign(Bytes(prefix, prefix_size));
    std::unique_ptr<pinget::Cursor> cursor;
    Status st = s.NewCursor(o, &cursor);
    if (st.ok()) *out = new pinget_cursor{std::move(cursor)};
    return st;
  });
}

void pinget_cursor_destroy(pinget_cursor* cursor) { delete cursor; }

}  // extern "C"

namespace {

// Runs body with the cursor's C++ object, once the handle is known non-null.
template <typename Body>
pinget_code WithCursor(pinget_cursor* cursor, char** message, Body body) {
  return Guard(message, [&] {
    if (cursor == nullptr) return Null("cursor");
    return body(*cursor->cursor);
  });
}

// One batch, as c.h says; the arrays are filled for every entry lent.
pinget_code Lend(pinget_cursor* cursor, size_t max, bool forward,
                 const char** keys, size_t* key_sizes, const char** values,
                 size_t* value_sizes, size_t* count, char** message) {
  if (count != nullptr) *count = 0;
  return WithCursor(cursor, message, [&](pinget::Cursor& c) {
    if (count == nullptr) return Null("count");
    Status st = forward ? c.Next(max) : c.Prev(max);
    for (size_t i = 0; i < c.count(); ++i) {
      if (keys != nullptr) keys[i] = c.key(i).data();
      if (key_sizes != nullptr) key_sizes[i] = c.key(i).size();
      if (values != nullptr) values[i] = c.value(i).data();
      if (value_sizes != nullptr) value_sizes[i] = c.value(i).size();
    }
    *count = c.count();
    return st;
  });
}

}  // namespace

extern "C" {

pinget_code pinget_cursor_seek_to_first(pinget_cursor* cursor, char** message) {
  return WithCursor(cursor, message,
                    [](pinget::Cursor& c) { return c.SeekToFirst(); });
}

pinget_code pinget_cursor_seek_to_last(pinget_cursor* cursor, char** message) {
  return WithCursor(cursor, message,
                    [](pinget::Cursor& c) { return c.SeekToLast(); });
}

pinget_code pinget_cursor_seek(pinget_cursor* cursor, const char* key,
                               size_t key_size, char** message) {
  return WithCursor(cursor, message, [&](pinget::Cursor& c) {
    return c.Seek(Bytes(key, key_size));
  });
}

pinget_code pinget_cursor_seek_for_prev(pinget_cursor* cursor, const char* key,
                                        size_t key_size, char** message) {
  return WithCursor(cursor, message, [&](pinget::Cursor& c) {
    return c.SeekForPrev(Bytes(key, key_size));
  });
}

pinget_code pinget_cursor_next(pinget_cursor* cursor, size_t max,
                               const char** keys, size_t* key_sizes,
                               const char** values, size_t* value_sizes,
                               size_t* count, char** message) {
  return Lend(cursor, max, true, keys, key_sizes, values, value_sizes, count,
              message);
}

pinget_code pinget_cursor_prev(pinget_cursor* cursor, size_t max,
                               const char** keys, size_t* key_sizes,
                               const char** values, size_t* value_sizes,
                               size_t* count, char** message) {
  return Lend(cursor, max, false, keys, key_sizes, values, value_sizes, count,
              message);
}

size_t pinget_pinned_batch_size(const pinget_pinned_batch* batch) {
  return batch == nullptr ? 0 : batch->batch.size();
}

pinget_code pinget_pinned_batch_code(const pinget_pinned_batch* batch,
                                     size_t i) {
  return batch == nullptr
             ? PINGET_NOT_FOUND
             : static_cast<pinget_code>(batch->batch.status(i).code());
}

const char* pinget_pinned_batch_value(const pinget_pinned_batch* batch,
                                      size_t i, size_t* size) {
  const bool found = batch != nullptr && batch->batch.status(i).ok();
  if (size != nullptr) *size = found ? batch->batch.view(i).size() : 0;
  return found ? batch->batch.view(i).data() : nullptr;
}

void pinget_pinned_batch_release(pinget_pinned_batch* batch) {
  if (batch != nullptr) batch->batch.Release();
}

void pinget_pinned_batch_release_detached(pinget_pinned_batch* batch) {
  if (batch != nullptr) pinget::internal::StoreBinding::Detach(&batch->batch);
}

// ---- Copy counters ----

pinget_code pinget_copy_stats_get(pinget_copy_stats* out, char** message) {
  return Guard(message, [&] {
    if (out == nullptr) return Null("out");
    const pinget::CopyStats s = pinget::GetCopyStats();
    *out = {s.value_copies, s.value_bytes_copied, s.key_copies,
            s.allocations,  s.file_reads,         s.file_bytes_read};
    return Status::OK();
  });
}

void pinget_copy_stats_reset(void) { pinget::ResetCopyStats(); }
void pinget_record_value_copy(size_t bytes) { pinget::RecordValueCopy(bytes); }
void pinget_record_allocation(void) { pinget::RecordAllocation(); }
void pinget_record_key_copy(size_t count) { pinget::RecordKeyCopy(count); }

}  // extern "C"
