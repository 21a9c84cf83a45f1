// Reads a value back through an installed pinget and checks the counters:
// block-cache resident, so pinned_view makes 0 copies and buffer_copy 1.
#include <pinget/pinget.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#define CHECK(cond)                                          \
  do {                                                       \
    if (!(cond)) {                                           \
      std::fprintf(stderr, "consumer: failed: %s\n", #cond); \
      return 1;                                              \
    }                                                        \
  } while (0)

int main(int argc, char** argv) {
  CHECK(argc == 2);
  std::unique_ptr<pinget::Store> store;
  CHECK(pinget::Store::Open(argv[1], pinget::Options(), &store).ok());
  const std::string value(4096, 'v');
  CHECK(store->Put("key", value).ok());
  CHECK(store->Flush().ok());

  pinget::PinnedValue pinned;
  CHECK(store->GetPinned({}, "key", &pinned).ok());  // fills the cache
  pinget::ResetCopyStats();
  CHECK(store->GetPinned({}, "key", &pinned).ok());
  CHECK(pinned.view() == value);
  pinget::CopyStats stats = pinget::GetCopyStats();
  CHECK(stats.value_copies == 0 && stats.value_bytes_copied == 0);

  char buffer[4096];
  size_t size = 0;
  pinget::ResetCopyStats();
  CHECK(store->GetInto({}, "key", buffer, sizeof buffer, &size).ok());
  CHECK(size == value.size() && std::string(buffer, size) == value);
  stats = pinget::GetCopyStats();
  CHECK(stats.value_copies == 1 && stats.value_bytes_copied == value.size());

  CHECK(store->GetPinned({}, "missing", &pinned).IsNotFound());
  CHECK(store->Close().ok());
  std::printf("consumer: ok (RocksDB %s)\n", pinget::RocksDBVersion());
  return 0;
}
