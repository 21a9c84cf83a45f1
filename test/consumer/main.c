/* Reads a value back through an installed pinget's C API, from C11: a
 * block-cache resident value, so the reused pinned value makes 0 copies. */
#include <pinget/c.h>
#include <stdio.h>
#include <string.h>

#define CHECK(cond)                                       \
  do {                                                    \
    if (!(cond)) {                                        \
      fprintf(stderr, "consumer_c: failed: %s\n", #cond); \
      return 1;                                           \
    }                                                     \
  } while (0)

int main(int argc, char** argv) {
  CHECK(argc == 2);
  pinget_store* store = NULL;
  char* message = NULL;
  if (pinget_open(argv[1], NULL, &store, &message) != PINGET_OK) {
    fprintf(stderr, "consumer_c: %s\n", message);
    pinget_free(message);
    return 1;
  }
  char value[4096];
  memset(value, 'c', sizeof value);
  CHECK(pinget_put(store, NULL, 0, "key", 3, value, sizeof value, NULL) ==
        PINGET_OK);
  CHECK(pinget_flush(store, 0, NULL) == PINGET_OK);

  pinget_pinned* pinned = NULL;
  CHECK(pinget_pinned_create(&pinned, NULL) == PINGET_OK);
  CHECK(pinget_pinned_view(store, NULL, "key", 3, pinned, NULL, NULL, NULL) ==
        PINGET_OK);
  pinget_copy_stats_reset();
  CHECK(pinget_pinned_view(store, NULL, "key", 3, pinned, NULL, NULL, NULL) ==
        PINGET_OK);
  size_t size = 0;
  const char* data = pinget_pinned_value(pinned, &size);
  CHECK(size == sizeof value && memcmp(data, value, size) == 0);
  pinget_copy_stats stats;
  CHECK(pinget_copy_stats_get(&stats, NULL) == PINGET_OK);
  CHECK(stats.value_copies == 0);
  CHECK(pinget_pinned_view(store, NULL, "missing", 7, pinned, NULL, NULL,
                           NULL) == PINGET_NOT_FOUND);

  pinget_pinned_destroy(pinned);
  CHECK(pinget_close(store, NULL) == PINGET_OK);
  pinget_store_destroy(store);
  printf("consumer_c: ok (RocksDB %s)\n", pinget_rocksdb_version());
  return 0;
}
