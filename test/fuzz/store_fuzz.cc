// Copyright pinget authors. Licensed under the Apache License 2.0.
//
// libFuzzer target: each input is a program of operations on one Store —
// put, delete, write batch, flush, compact, every get strategy, pins held
// across other operations, snapshots, close and reopen — and every read is
// checked against an in-memory model. A mismatch aborts.

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pinget/pinget.h"

namespace {

using Model = std::map<std::string, std::string>;

#define FUZZ_CHECK(cond)                                                \
  do {                                                                  \
    if (!(cond)) {                                                      \
      std::fprintf(stderr, "store_fuzz: check failed at line %d: %s\n", \
                   __LINE__, #cond);                                    \
      std::abort();                                                     \
    }                                                                   \
  } while (0)

// Reads the input front to back; past its end every read yields 0.
class Input {
 public:
  Input(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  bool done() const { return p_ >= end_; }
  uint8_t Byte() { return p_ < end_ ? *p_++ : 0; }
  uint16_t Short() { return static_cast<uint16_t>(Byte() << 8 | Byte()); }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

// Sixteen keys, some with zero bytes inside, so that reads hit and miss.
std::string Key(uint8_t id) {
  id %= 16;
  std::string k = "k";
  k.push_back(static_cast<char>(id));
  if (id % 3 == 0) k += std::string("\0z", 2);
  return k;
}

std::string Value(uint16_t size, uint8_t seed) {
  std::string v(size % 5000, '\0');
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = static_cast<char>(seed + i * 31);
  }
  return v;
}

std::optional<std::string> Expected(const Model& m, const std::string& key) {
  auto it = m.find(key);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

void CheckRead(const pinget::Status& st, std::string_view got,
               const std::optional<std::string>& want) {
  if (want) {
    FUZZ_CHECK(st.ok());
    FUZZ_CHECK(got == *want);
  } else {
    FUZZ_CHECK(st.IsNotFound());
  }
}

struct Held {
  pinget::PinnedValue value;
  std::string expected;
};

struct Snap {
  std::unique_ptr<pinget::Snapshot> snapshot;
  Model model;
};

// Reads key with strategy s, as of snap (or latest), and checks the bytes.
void Read(pinget::Store& store, uint8_t s, uint8_t cap, const std::string& key,
          const Snap* snap, const Model& model) {
  pinget::ReadOptions ro;
  ro.snapshot = snap ? snap->snapshot.get() : nullptr;
  ro.fill_cache = s & 0x10;
  const std::optional<std::string> want =
      Expected(snap ? snap->model : model, key);
  switch (s % 5) {
    case 0: {
      std::string v;
      CheckRead(store.GetString(ro, key, &v), v, want);
      break;
    }
    case 1: {  // buffer_copy into a buffer of any capacity, guard checked
      const size_t capacity = cap * 40;
      std::vector<char> buf(capacity + 8, '\x5a');
      size_t size = 0;
      pinget::Status st = store.GetInto(ro, key, buf.data(), capacity, &size);
      if (want) {
        FUZZ_CHECK(st.ok() && size == want->size());
        const size_t n = std::min(size, capacity);
        FUZZ_CHECK(std::string_view(buf.data(), n) == want->substr(0, n));
      } else {
        FUZZ_CHECK(st.IsNotFound());
      }
      for (size_t i = capacity; i < buf.size(); ++i) {
        FUZZ_CHECK(buf[i] == '\x5a');
      }
      break;
    }
    case 2: {
      pinget::PinnedValue v;
      pinget::Status st = store.GetPinned(ro, key, &v);
      CheckRead(st, v.view(), want);
      break;
    }
    case 3: {  // batched buffer_copy: the key, a neighbour, the key again
      const std::string keys_s[3] = {key, Key(key[1] + 1), key};
      std::string_view keys[3] = {keys_s[0], keys_s[1], keys_s[2]};
      std::vector<char> storage(3 * 5000);
      pinget::Buffer bufs[3];
      for (int i = 0; i < 3; ++i) bufs[i] = {storage.data() + i * 5000, 5000};
      size_t sizes[3];
      pinget::Status sts[3];
      FUZZ_CHECK(store.MultiGetInto(ro, 3, keys, bufs, sizes, sts).ok());
      for (int i = 0; i < 3; ++i) {
        CheckRead(sts[i], std::string_view(bufs[i].data, sizes[i]),
                  Expected(snap ? snap->model : model, keys_s[i]));
      }
      break;
    }
    case 4: {
      const std::string keys_s[2] = {key, Key(key[1] + 5)};
      std::string_view keys[2] = {keys_s[0], keys_s[1]};
      pinget::PinnedBatch batch;
      FUZZ_CHECK(store.MultiGetPinned(ro, 2, keys, &batch).ok());
      FUZZ_CHECK(batch.size() == 2);
      for (int i = 0; i < 2; ++i) {
        CheckRead(batch.status(i), batch.view(i),
                  Expected(snap ? snap->model : model, keys_s[i]));
      }
      break;
    }
  }
}

// The WAL is off: its preallocation dominated the run time, and a clean
// Close() still flushes what it would have held.
const pinget::WriteOptions kNoWal = [] {
  pinget::WriteOptions o;
  o.disable_wal = true;
  return o;
}();

std::string DbPath() {
  static const std::string path = [] {
    const char* shm = "/dev/shm";
    std::string base = std::filesystem::exists(shm)
                           ? shm
                           : std::filesystem::temp_directory_path().string();
    return base + "/pinget_fuzz_" + std::to_string(getpid());
  }();
  return path;
}

pinget::Options FuzzOptions(uint8_t b) {
  pinget::Options o;
  o.block_cache_bytes = (b & 1) ? size_t{8} << 20 : 0;
  o.compression =
      (b & 2) ? pinget::Compression::kLz4 : pinget::Compression::kNone;
  o.write_buffer_bytes = size_t{8} << 20;
  return o;
}

}  // namespace

// The store outlives single inputs (opening one per input would cost more
// than the input); each input starts by deleting what the previous one left.
struct Session {
  std::unique_ptr<pinget::Store> store;
  pinget::Options options = FuzzOptions(1);
};

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Session* session = [] {
    auto* s = new Session();
    std::filesystem::remove_all(DbPath());
    FUZZ_CHECK(pinget::Store::Open(DbPath(), s->options, &s->store).ok());
    return s;
  }();
  std::unique_ptr<pinget::Store>& store = session->store;
  const std::string path = DbPath();
  for (int id = 0; id < 16; ++id)
    FUZZ_CHECK(store->Delete(kNoWal, 0, Key(id)).ok());

  Input in(data, size);
  Model model;
  std::vector<Held> held(4);
  std::vector<Snap> snaps(2);
  for (int steps = 0; !in.done() && steps < 200; ++steps) {
    const uint8_t op = in.Byte();
    switch (op % 12) {
      case 0: {
        const std::string k = Key(in.Byte());
        const std::string v = Value(in.Short(), in.Byte());
        FUZZ_CHECK(store->Put(kNoWal, 0, k, v).ok());
        model[k] = v;
        break;
      }
      case 1: {
        const std::string k = Key(in.Byte());
        FUZZ_CHECK(store->Delete(kNoWal, 0, k).ok());
        model.erase(k);
        break;
      }
      case 2: {
        pinget::WriteBatch batch;
        Model next = model;
        for (int i = in.Byte() % 4; i >= 0; --i) {
          const std::string k = Key(in.Byte());
          if (in.Byte() & 1) {
            const std::string v = Value(in.Short(), in.Byte());
            batch.Put(k, v);
            next[k] = v;
          } else {
            batch.Delete(k);
            next.erase(k);
          }
        }
        FUZZ_CHECK(store->Write(kNoWal, batch).ok());
        model = std::move(next);
        break;
      }
      case 3:
        FUZZ_CHECK(store->Flush().ok());
        break;
      case 4:
        FUZZ_CHECK(store->Compact().ok());
        break;
      case 5:
      case 6: {
        const uint8_t s = in.Byte();
        const uint8_t cap = in.Byte();
        const std::string k = Key(in.Byte());
        Snap* snap = nullptr;
        if (op % 12 == 6) {
          Snap& candidate = snaps[in.Byte() % snaps.size()];
          if (candidate.snapshot) snap = &candidate;
        }
        Read(*store, s, cap, k, snap, model);
        break;
      }
      case 7: {  // pin into a slot, reusing the handle
        Held& h = held[in.Byte() % held.size()];
        const std::string k = Key(in.Byte());
        pinget::Status st =
            store->GetPinned(pinget::ReadOptions(), k, &h.value);
        const std::optional<std::string> want = Expected(model, k);
        CheckRead(st, h.value.view(), want);
        h.expected = want.value_or("");
        break;
      }
      case 8: {
        Held& h = held[in.Byte() % held.size()];
        h.value.Release();
        FUZZ_CHECK(!h.value.holds_value() && h.value.size() == 0);
        break;
      }
      case 9: {
        Snap& s = snaps[in.Byte() % snaps.size()];
        FUZZ_CHECK(store->GetSnapshot(&s.snapshot).ok());
        s.model = model;
        break;
      }
      case 10:
        snaps[in.Byte() % snaps.size()].snapshot.reset();
        break;
      case 11: {  // close with pins held: they stay valid; then reopen
        const uint8_t next_options = in.Byte();
        FUZZ_CHECK(store->Close().ok());
        FUZZ_CHECK(store->Put("k", "v").IsClosed());
        for (Held& h : held) {
          if (h.value.holds_value()) FUZZ_CHECK(h.value.view() == h.expected);
          h.value.Release();
        }
        for (Snap& s : snaps) s.snapshot.reset();
        store.reset();
        session->options = FuzzOptions(next_options);
        FUZZ_CHECK(pinget::Store::Open(path, session->options, &store).ok());
        break;
      }
    }
    for (Held& h : held) {  // pins never change under writes and compactions
      if (h.value.holds_value()) FUZZ_CHECK(h.value.view() == h.expected);
    }
  }
  return 0;  // pins and snapshots are released as they go out of scope
}
