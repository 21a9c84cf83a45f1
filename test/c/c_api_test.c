/* Copyright pinget authors. Licensed under the Apache License 2.0.
 *
 * The C API from C11: every function of pinget/c.h, the strategies' copy
 * counts, and misuse (null handles, null buffers with a non-zero length, a
 * closed store, a second close), each of which must return a status.
 * Usage: c_api_test DIR (an empty folder; the databases are left in it).
 */
#include <pinget/c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                      \
  do {                                                                   \
    if (!(cond)) {                                                       \
      fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
      ++failures;                                                        \
    }                                                                    \
  } while (0)

/* A call's code must be want; its message must be set exactly when the code
 * is an error, and mention `mention` (if not NULL). */
static void expect(pinget_code got, char* message, pinget_code want,
                   const char* mention, int line) {
  int bad = got != want;
  if (got == PINGET_OK || got == PINGET_NOT_FOUND) {
    bad |= message != NULL;
  } else {
    bad |= message == NULL;
    if (message != NULL && mention != NULL) {
      bad |= strstr(message, mention) == NULL;
    }
  }
  if (bad) {
    fprintf(stderr, "%s:%d: got %s (%s), want %s (mentioning %s)\n", __FILE__,
            line, pinget_code_name(got), message ? message : "no message",
            pinget_code_name(want), mention ? mention : "-");
    ++failures;
  }
  pinget_free(message);
}

/* Runs call (which takes &msg last) and checks its code and message. */
#define EXPECT(want, mention, call)                         \
  do {                                                      \
    char* msg = (char*)"not set"; /* must be overwritten */ \
    pinget_code got_ = (call);                              \
    expect(got_, msg, (want), (mention), __LINE__);         \
  } while (0)
#define OK(call) EXPECT(PINGET_OK, NULL, call)
/* Sets options from text (pinget_options_set), which must succeed. */
#define SET(options, text) \
  OK(pinget_options_set((options), (text), strlen(text), &msg))

static pinget_copy_stats stats(void) {
  pinget_copy_stats s;
  memset(&s, 0xff, sizeof s);
  OK(pinget_copy_stats_get(&s, &msg));
  return s;
}

static const char kKey[] = "key";
#define KEY kKey, sizeof kKey - 1

struct seen {
  int calls;
  size_t size;
  char first;
};

static void visit(void* context, const char* value, size_t size) {
  struct seen* s = (struct seen*)context;
  s->calls++;
  s->size = size;
  s->first = size > 0 ? value[0] : 0;
}

static void library(void) {
  CHECK(strcmp(pinget_code_name(PINGET_OK), "OK") == 0);
  CHECK(strcmp(pinget_code_name(PINGET_INVALID_ARGUMENT), "InvalidArgument") ==
        0);
  CHECK(strcmp(pinget_code_name(PINGET_CLOSED), "Closed") == 0);
  CHECK(strcmp(pinget_code_name(-1), "Unknown") == 0);
  CHECK(strcmp(pinget_code_name(99), "Unknown") == 0);
  CHECK(strlen(pinget_rocksdb_version()) > 0);
  pinget_free(NULL);
  /* Every destructor accepts NULL. */
  pinget_options_destroy(NULL);
  pinget_read_options_destroy(NULL);
  pinget_write_options_destroy(NULL);
  pinget_store_destroy(NULL);
  pinget_snapshot_destroy(NULL);
  pinget_write_batch_destroy(NULL);
  pinget_pinned_destroy(NULL);
  pinget_pinned_batch_destroy(NULL);
  pinget_pinned_release(NULL);
  pinget_pinned_batch_release(NULL);
  /* A null message pointer is allowed everywhere. */
  CHECK(pinget_options_create(NULL, NULL) == PINGET_INVALID_ARGUMENT);
  EXPECT(PINGET_INVALID_ARGUMENT, "out",
         pinget_read_options_create(NULL, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "out", pinget_copy_stats_get(NULL, &msg));
}

static void options_misuse(const char* dir) {
  char path[4096];
  pinget_store* store = (pinget_store*)1;
  snprintf(path, sizeof path, "%s/bad", dir);

  EXPECT(PINGET_INVALID_ARGUMENT, "options",
         pinget_options_set(NULL, "block_size=4096",
                            sizeof "block_size=4096" - 1, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "options",
         pinget_read_options_set(NULL, NULL, 0, PINGET_READ_DEFAULTS, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "options",
         pinget_write_options_set(NULL, PINGET_WRITE_SYNC, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "path",
         pinget_open(NULL, NULL, &store, &msg));
  CHECK(store == NULL);
  EXPECT(PINGET_INVALID_ARGUMENT, "out", pinget_open(path, NULL, NULL, &msg));

  /* Values out of range are refused by pinget_open, which names them. */
  pinget_options* options = NULL;
  OK(pinget_options_create(&options, &msg));
  SET(options, "bloom_bits_per_key=1000");
  store = (pinget_store*)1;
  EXPECT(PINGET_INVALID_ARGUMENT, "bloom_bits_per_key",
         pinget_open(path, options, &store, &msg));
  CHECK(store == NULL);
  SET(options,
      "bloom_bits_per_key=10;allow_mmap_reads=true;use_direct_reads=true");
  EXPECT(PINGET_INVALID_ARGUMENT, "use_direct_reads",
         pinget_open(path, options, &store, &msg));
  SET(options, "use_direct_reads=false;allow_mmap_reads=false");
  EXPECT(PINGET_INVALID_ARGUMENT, "name",
         pinget_options_add_column_family(options, NULL, 3, &msg));
  /* Values not of their kind, and unknown names, are refused by
   * pinget_options_set (which then sets none of the text's options:
   * OptionsTextTest.RefusesUnknownNamesAndBadValuesByName). */
  static const char kBad[] = "block_size=8192;colour=red";
  EXPECT(PINGET_INVALID_ARGUMENT, "unknown option colour",
         pinget_options_set(options, kBad, sizeof kBad - 1, &msg));
  static const char kNoSuchCompression[] = "compression=lzma";
  EXPECT(PINGET_INVALID_ARGUMENT, "compression",
         pinget_options_set(options, kNoSuchCompression,
                            sizeof kNoSuchCompression - 1, &msg));
  static const char kNoSuchCache[] = "block_cache_kind=7";
  EXPECT(
      PINGET_INVALID_ARGUMENT, "block_cache_kind",
      pinget_options_set(options, kNoSuchCache, sizeof kNoSuchCache - 1, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "text",
         pinget_options_set(options, NULL, 3, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "options",
         pinget_options_set(NULL, "", 0, &msg));
  static const char kFewFiles[] = "max_open_files=5";
  OK(pinget_options_set(options, kFewFiles, sizeof kFewFiles - 1, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "max_open_files is 5",
         pinget_open(path, options, &store, &msg));
  static const char kNoCreate[] = "max_open_files=-1;create_if_missing=false";
  OK(pinget_options_set(options, kNoCreate, sizeof kNoCreate - 1, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, NULL,
         pinget_open(path, options, &store, &msg));
  pinget_options_destroy(options);
}

static void strategies(const char* dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/db", dir);
  pinget_options* options = NULL;
  OK(pinget_options_create(&options, &msg));
  SET(options,
      "create_if_missing=true;error_if_exists=true;"
      "block_cache_bytes=8388608;block_cache_kind=hyper_clock;"
      "cache_index_and_filter_blocks=true;"
      "pin_l0_filter_and_index_blocks_in_cache=true;block_size=8192;"
      "data_block_hash_index=true;bloom_bits_per_key=10;"
      "whole_key_filtering=true;write_buffer_bytes=4194304;compression=none");
  OK(pinget_options_add_column_family(options, "other", 5, &msg));

  pinget_store* store = NULL;
  OK(pinget_open(path, options, &store, &msg));
  pinget_options_destroy(options); /* the store does not keep it */
  if (store == NULL) return;

  uint32_t other = 99;
  OK(pinget_column_family_id(store, "other", 5, &other, &msg));
  CHECK(other == 1);
  EXPECT(PINGET_NOT_FOUND, NULL,
         pinget_column_family_id(store, "none", 4, &other, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "id",
         pinget_column_family_id(store, "other", 5, NULL, &msg));

  /* The settings reach RocksDB. */
  char* text = NULL;
  size_t text_size = 0;
  OK(pinget_get_property(store, 0, "rocksdb.block-cache-capacity", 28, &text,
                         &text_size, &msg));
  CHECK(text != NULL && strcmp(text, "8388608") == 0);
  CHECK(text_size == 7);
  pinget_free(text);
  EXPECT(PINGET_NOT_FOUND, NULL,
         pinget_get_property(store, 0, "rocksdb.none", 12, &text, &text_size,
                             &msg));
  CHECK(text == NULL);

  /* Writes: put, delete, a batch, to both families. */
  char value[4096];
  memset(value, 'v', sizeof value);
  pinget_write_options* wo = NULL;
  OK(pinget_write_options_create(&wo, &msg));
  OK(pinget_write_options_set(wo, 0, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "unknown write option flags 4",
         pinget_write_options_set(wo, PINGET_WRITE_DISABLE_WAL | 4, &msg));
  OK(pinget_put(store, wo, 0, KEY, value, sizeof value, &msg));
  OK(pinget_put(store, NULL, 1, "k1", 2, "one", 3, &msg));
  OK(pinget_put(store, NULL, 0, "empty", 5, NULL, 0, &msg));
  OK(pinget_put(store, NULL, 0, "gone", 4, "x", 1, &msg));
  OK(pinget_delete(store, wo, 0, "gone", 4, &msg));
  pinget_write_batch* wb = NULL;
  OK(pinget_write_batch_create(&wb, &msg));
  OK(pinget_write_batch_put(wb, 0, "b1", 2, "batch", 5, &msg));
  OK(pinget_write_batch_put(wb, 1, "b2", 2, "other", 5, &msg));
  OK(pinget_write_batch_delete(wb, 0, "none", 4, &msg));
  CHECK(pinget_write_batch_count(wb) == 3);
  OK(pinget_write(store, wo, wb, &msg));
  OK(pinget_write_batch_clear(wb, &msg));
  CHECK(pinget_write_batch_count(wb) == 0);
  /* A batch with a bad operation applies nothing. */
  OK(pinget_write_batch_put(wb, 0, "b3", 2, "x", 1, &msg));
  OK(pinget_write_batch_put(wb, 0, NULL, 3, "x", 1, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "null", pinget_write(store, NULL, wb, &msg));
  OK(pinget_write_batch_clear(wb, &msg));
  OK(pinget_write_batch_put(wb, 7, "b4", 2, "x", 1, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "column family",
         pinget_write(store, NULL, wb, &msg));
  pinget_write_batch_destroy(wb);
  pinget_write_options_destroy(wo);
  OK(pinget_flush(store, 0, &msg));
  OK(pinget_flush(store, 1, &msg));
  OK(pinget_compact(store, 0, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "column family",
         pinget_flush(store, 9, &msg));

  /* pinget_pinnable_copy (pinnable_copy): block-cache resident after a first
   * read, so P = 0: one copy into the new buffer, one allocation. */
  char* copy = NULL;
  size_t size = 0;
  OK(pinget_pinnable_copy(store, NULL, KEY, &copy, &size, &msg));
  pinget_free(copy);
  pinget_copy_stats_reset();
  OK(pinget_pinnable_copy(store, NULL, KEY, &copy, &size, &msg));
  CHECK(size == sizeof value && copy != NULL && memcmp(copy, value, size) == 0);
  pinget_free(copy);
  pinget_copy_stats s = stats();
  CHECK(s.value_copies == 1 && s.value_bytes_copied == sizeof value);
  CHECK(s.allocations == 1 && s.key_copies == 0 && s.file_reads == 0);
  pinget_record_value_copy(10);
  pinget_record_allocation();
  pinget_record_key_copy(3);
  s = stats();
  CHECK(s.key_copies == 3);
  CHECK(s.value_copies == 2 && s.value_bytes_copied == sizeof value + 10);
  CHECK(s.allocations == 2);
  OK(pinget_pinnable_copy(store, NULL, "empty", 5, &copy, &size, &msg));
  CHECK(copy != NULL && size == 0);
  pinget_free(copy);
  EXPECT(PINGET_NOT_FOUND, NULL,
         pinget_pinnable_copy(store, NULL, "gone", 4, &copy, &size, &msg));
  CHECK(copy == NULL && size == 0);

  /* pinget_string_copy (string_copy): 1 copy into this thread's string, lent
   * until the next call; no allocation once it has held a value as large. */
  const char* lent = NULL;
  OK(pinget_string_copy(store, NULL, KEY, &lent, &size, &msg));
  pinget_copy_stats_reset();
  OK(pinget_string_copy(store, NULL, KEY, &lent, &size, &msg));
  CHECK(size == sizeof value && lent != NULL && memcmp(lent, value, size) == 0);
  s = stats();
  CHECK(s.value_copies == 1 && s.value_bytes_copied == sizeof value);
  CHECK(s.allocations == 0 && s.key_copies == 0);
  OK(pinget_string_copy(store, NULL, "empty", 5, &lent, &size, &msg));
  CHECK(lent != NULL && size == 0);
  EXPECT(PINGET_NOT_FOUND, NULL,
         pinget_string_copy(store, NULL, "gone", 4, &lent, &size, &msg));
  CHECK(lent == NULL && size == 0);
  EXPECT(PINGET_INVALID_ARGUMENT, "value",
         pinget_string_copy(store, NULL, KEY, NULL, &size, &msg));

  /* pinget_buffer_copy (buffer_copy): P + 1 = 1 copy, no allocation; a small
   * buffer gets a prefix and the full size. */
  char buffer[8192];
  pinget_copy_stats_reset();
  OK(pinget_buffer_copy(store, NULL, KEY, buffer, sizeof buffer, &size, &msg));
  CHECK(size == sizeof value && memcmp(buffer, value, size) == 0);
  s = stats();
  CHECK(s.value_copies == 1 && s.allocations == 0);
  memset(buffer, 0, sizeof buffer);
  OK(pinget_buffer_copy(store, NULL, KEY, buffer, 10, &size, &msg));
  CHECK(size == sizeof value && buffer[9] == 'v' && buffer[10] == 0);
  OK(pinget_buffer_copy(store, NULL, KEY, NULL, 0, &size, &msg));
  CHECK(size == sizeof value);

  /* pinget_pinned_visit (pinned_view by callback): 0 copies. */
  struct seen seen = {0, 0, 0};
  pinget_copy_stats_reset();
  OK(pinget_pinned_visit(store, NULL, KEY, visit, &seen, &msg));
  CHECK(seen.calls == 1 && seen.size == sizeof value && seen.first == 'v');
  s = stats();
  CHECK(s.value_copies == 0 && s.allocations == 0);
  EXPECT(PINGET_NOT_FOUND, NULL,
         pinget_pinned_visit(store, NULL, "gone", 4, visit, &seen, &msg));
  CHECK(seen.calls == 1);

  /* pinget_pinned_view (reusable pinned_view): 0 copies from the block cache,
   * P = 1 from the memtable. */
  pinget_pinned* pinned = NULL;
  OK(pinget_pinned_create(&pinned, &msg));
  CHECK(pinget_pinned_value(pinned, &size) == NULL && size == 0);
  pinget_copy_stats_reset();
  const char* out_data = NULL;
  size_t out_size = 0;
  OK(pinget_pinned_view(store, NULL, KEY, pinned, &out_data, &out_size, &msg));
  const char* data = pinget_pinned_value(pinned, &size);
  CHECK(out_data == data && out_size == size);
  CHECK(data != NULL && size == sizeof value && memcmp(data, value, size) == 0);
  CHECK(pinget_pinned_in_cache(pinned) == 1);
  s = stats();
  CHECK(s.value_copies == 0 && s.allocations == 0);
  OK(pinget_put(store, NULL, 0, "fresh", 5, "memtable", 8, &msg));
  pinget_copy_stats_reset();
  OK(pinget_pinned_view(store, NULL, "fresh", 5, pinned, NULL, NULL, &msg));
  data = pinget_pinned_value(pinned, &size);
  CHECK(size == 8 && memcmp(data, "memtable", 8) == 0);
  CHECK(pinget_pinned_in_cache(pinned) == 0);
  s = stats();
  CHECK(s.value_copies == 1 && s.value_bytes_copied == 8);
  EXPECT(PINGET_NOT_FOUND, NULL,
         pinget_pinned_view(store, NULL, "gone", 4, pinned, &out_data,
                            &out_size, &msg));
  CHECK(out_data == NULL && out_size == 0);
  CHECK(pinget_pinned_value(pinned, &size) == NULL && size == 0);
  OK(pinget_pinned_view(store, NULL, KEY, pinned, NULL, NULL, &msg));
  pinget_pinned_release(pinned);
  pinget_pinned_release(pinned);
  CHECK(pinget_pinned_value(pinned, NULL) == NULL);

  /* pinget_pinned_view_or_copy: a value of at most capacity bytes copied into
   * the buffer (P + 1 copies), nothing left pinned; a larger one pinned. */
  char small[16];
  pinget_copy_stats_reset();
  OK(pinget_pinned_view_or_copy(store, NULL, "fresh", 5, pinned, small,
                                sizeof small, &out_data, &out_size, &msg));
  CHECK(out_data == small && out_size == 8 &&
        memcmp(small, "memtable", 8) == 0);
  CHECK(pinget_pinned_value(pinned, NULL) == NULL);
  s = stats();
  CHECK(s.value_copies == 2 && s.value_bytes_copied == 16);
  pinget_copy_stats_reset();
  OK(pinget_pinned_view_or_copy(store, NULL, KEY, pinned, small, sizeof small,
                                &out_data, &out_size, &msg));
  CHECK(out_data == pinget_pinned_value(pinned, &size) && out_data != small);
  CHECK(out_size == sizeof value && size == sizeof value);
  CHECK(memcmp(out_data, value, size) == 0 && pinget_pinned_in_cache(pinned));
  s = stats();
  CHECK(s.value_copies == 0 && s.allocations == 0);
  pinget_pinned_release_detached(pinned);
  OK(pinget_pinned_view_or_copy(store, NULL, "fresh", 5, pinned, NULL, 0,
                                &out_data, &out_size, &msg));
  CHECK(out_data == pinget_pinned_value(pinned, NULL) && out_size == 8);
  EXPECT(PINGET_NOT_FOUND, NULL,
         pinget_pinned_view_or_copy(store, NULL, "gone", 4, pinned, small,
                                    sizeof small, &out_data, &out_size, &msg));
  CHECK(out_data == NULL && out_size == 0);
  CHECK(pinget_pinned_value(pinned, NULL) == NULL);
  EXPECT(PINGET_INVALID_ARGUMENT, "pinned",
         pinget_pinned_view_or_copy(store, NULL, KEY, NULL, small, sizeof small,
                                    &out_data, &out_size, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "buffer",
         pinget_pinned_view_or_copy(store, NULL, KEY, pinned, NULL, 1,
                                    &out_data, &out_size, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "key",
         pinget_pinned_view_or_copy(store, NULL, NULL, 0, NULL, NULL, 1,
                                    &out_data, &out_size, &msg));
  /* An empty key is named before the later arguments, NULL as they are. */
  EXPECT(PINGET_INVALID_ARGUMENT, "key is empty",
         pinget_pinned_view_or_copy(store, NULL, "", 0, NULL, NULL, 1, NULL,
                                    NULL, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "key is empty",
         pinget_pinnable_copy(store, NULL, "", 0, NULL, NULL, &msg));

  /* Read options: column family, fill_cache, verify_checksums, snapshot. */
  pinget_read_options* ro = NULL;
  OK(pinget_read_options_create(&ro, &msg));
  OK(pinget_read_options_set(ro, NULL, 1, PINGET_READ_VERIFY_CHECKSUMS, &msg));
  /* Refused, and the options stay as set: still column family 1. */
  EXPECT(PINGET_INVALID_ARGUMENT, "unknown read option flags 8",
         pinget_read_options_set(ro, NULL, 0, PINGET_READ_DEFAULTS | 8, &msg));
  OK(pinget_buffer_copy(store, ro, "k1", 2, buffer, sizeof buffer, &size,
                        &msg));
  CHECK(size == 3 && memcmp(buffer, "one", 3) == 0);
  EXPECT(
      PINGET_NOT_FOUND, NULL,
      pinget_buffer_copy(store, ro, KEY, buffer, sizeof buffer, &size, &msg));
  OK(pinget_read_options_set(ro, NULL, 5, PINGET_READ_DEFAULTS, &msg));
  EXPECT(
      PINGET_INVALID_ARGUMENT, "column family",
      pinget_buffer_copy(store, ro, KEY, buffer, sizeof buffer, &size, &msg));
  OK(pinget_read_options_set(ro, NULL, 0, PINGET_READ_DEFAULTS, &msg));
  pinget_snapshot* snapshot = NULL;
  OK(pinget_snapshot_create(store, &snapshot, &msg));
  OK(pinget_put(store, NULL, 0, "fresh", 5, "newer", 5, &msg));
  OK(pinget_read_options_set(ro, snapshot, 0, PINGET_READ_DEFAULTS, &msg));
  OK(pinget_buffer_copy(store, ro, "fresh", 5, buffer, sizeof buffer, &size,
                        &msg));
  CHECK(size == 8 && memcmp(buffer, "memtable", 8) == 0);
  OK(pinget_read_options_set(ro, NULL, 0, PINGET_READ_DEFAULTS, &msg));
  OK(pinget_buffer_copy(store, ro, "fresh", 5, buffer, sizeof buffer, &size,
                        &msg));
  CHECK(size == 5 && memcmp(buffer, "newer", 5) == 0);
  /* pin_memtable: the pinned view of a memtable hit without a copy. */
  OK(pinget_read_options_set(
      ro, NULL, 0, PINGET_READ_DEFAULTS | PINGET_READ_PIN_MEMTABLE, &msg));
  pinget_copy_stats_reset();
  OK(pinget_pinned_view(store, ro, "fresh", 5, pinned, &out_data, &out_size,
                        &msg));
  CHECK(out_size == 5 && memcmp(out_data, "newer", 5) == 0);
  s = stats();
  CHECK(s.value_copies == 0 && s.value_bytes_copied == 0);
  pinget_pinned_release(pinned);
  OK(pinget_read_options_set(ro, NULL, 0, PINGET_READ_DEFAULTS, &msg));

  /* Batches: the pinned batch and the copying one, with a missing key. */
  const char* keys[3] = {kKey, "gone", "b1"};
  const size_t key_sizes[3] = {3, 4, 2};
  pinget_pinned_batch* batch = NULL;
  OK(pinget_pinned_batch_create(&batch, &msg));
  OK(pinget_multi_pinned_view(store, NULL, 3, keys, key_sizes, batch, NULL,
                              NULL, NULL, &msg));
  const char* out_values[3] = {NULL, NULL, NULL};
  size_t out_sizes[3] = {9, 9, 9};
  int out_codes[3] = {-1, -1, -1};
  pinget_copy_stats_reset();
  OK(pinget_multi_pinned_view(store, NULL, 3, keys, key_sizes, batch,
                              out_values, out_sizes, out_codes, &msg));
  s = stats();
  CHECK(s.value_copies == 0 && s.allocations == 0);
  CHECK(pinget_pinned_batch_size(batch) == 3);
  CHECK(pinget_pinned_batch_code(batch, 0) == PINGET_OK);
  CHECK(pinget_pinned_batch_code(batch, 1) == PINGET_NOT_FOUND);
  CHECK(pinget_pinned_batch_code(batch, 2) == PINGET_OK);
  CHECK(pinget_pinned_batch_code(batch, 3) == PINGET_NOT_FOUND);
  data = pinget_pinned_batch_value(batch, 0, &size);
  CHECK(data != NULL && size == sizeof value && memcmp(data, value, size) == 0);
  CHECK(pinget_pinned_batch_value(batch, 1, &size) == NULL && size == 0);
  data = pinget_pinned_batch_value(batch, 2, &size);
  CHECK(size == 5 && memcmp(data, "batch", 5) == 0);
  CHECK(pinget_pinned_batch_value(batch, 99, &size) == NULL && size == 0);
  for (int i = 0; i < 3; ++i) {
    CHECK(out_values[i] == pinget_pinned_batch_value(batch, (size_t)i, &size));
    CHECK(out_sizes[i] == size);
    CHECK(out_codes[i] == (int)pinget_pinned_batch_code(batch, (size_t)i));
  }
  pinget_pinned_batch_release(batch);
  CHECK(pinget_pinned_batch_size(batch) == 0);
  OK(pinget_multi_pinned_view(store, NULL, 0, NULL, NULL, batch, NULL, NULL,
                              NULL, &msg));

  char b0[8192], b1[16], b2[2];
  char* const buffers[3] = {b0, b1, b2};
  const size_t capacities[3] = {sizeof b0, sizeof b1, sizeof b2};
  size_t sizes[3] = {9, 9, 9};
  int codes[3] = {-1, -1, -1};
  pinget_copy_stats_reset();
  OK(pinget_multi_buffer_copy(store, NULL, 3, keys, key_sizes, buffers,
                              capacities, sizes, codes, &msg));
  s = stats();
  CHECK(s.value_copies == 2 && s.allocations == 0);
  CHECK(codes[0] == PINGET_OK && codes[1] == PINGET_NOT_FOUND &&
        codes[2] == PINGET_OK);
  CHECK(sizes[0] == sizeof value && sizes[1] == 0 && sizes[2] == 5);
  CHECK(memcmp(b0, value, sizeof value) == 0 && memcmp(b2, "ba", 2) == 0);
  OK(pinget_multi_buffer_copy(store, NULL, 3, keys, key_sizes, buffers,
                              capacities, sizes, NULL, &msg));
  OK(pinget_multi_buffer_copy(store, NULL, 0, NULL, NULL, NULL, NULL, NULL,
                              NULL, &msg));

  /* Misuse on an open store: a status each, nothing read or written. */
  EXPECT(
      PINGET_INVALID_ARGUMENT, "store",
      pinget_buffer_copy(NULL, NULL, KEY, buffer, sizeof buffer, &size, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "key",
         pinget_buffer_copy(store, NULL, NULL, 3, buffer, sizeof buffer, &size,
                            &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "key",
         pinget_buffer_copy(store, NULL, "", 0, buffer, sizeof buffer, &size,
                            &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "buffer",
         pinget_buffer_copy(store, NULL, KEY, NULL, 10, &size, &msg));
  EXPECT(
      PINGET_INVALID_ARGUMENT, "value_size",
      pinget_buffer_copy(store, NULL, KEY, buffer, sizeof buffer, NULL, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "value",
         pinget_pinnable_copy(store, NULL, KEY, NULL, &size, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "visit",
         pinget_pinned_visit(store, NULL, KEY, NULL, NULL, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "value",
         pinget_pinned_view(store, NULL, KEY, NULL, NULL, NULL, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "value",
         pinget_put(store, NULL, 0, "p", 1, NULL, 5, &msg));
  EXPECT(PINGET_NOT_FOUND, NULL,
         pinget_buffer_copy(store, NULL, "p", 1, NULL, 0, &size, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "key",
         pinget_delete(store, NULL, 0, NULL, 1, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "batch",
         pinget_write(store, NULL, NULL, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "keys",
         pinget_multi_pinned_view(store, NULL, 2, NULL, key_sizes, batch, NULL,
                                  NULL, NULL, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "key_sizes",
         pinget_multi_pinned_view(store, NULL, 2, keys, NULL, batch, NULL, NULL,
                                  NULL, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "values",
         pinget_multi_pinned_view(store, NULL, 2, keys, key_sizes, NULL, NULL,
                                  NULL, NULL, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "buffers",
         pinget_multi_buffer_copy(store, NULL, 3, keys, key_sizes, NULL,
                                  capacities, sizes, codes, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "capacities",
         pinget_multi_buffer_copy(store, NULL, 3, keys, key_sizes, buffers,
                                  NULL, sizes, codes, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "value_sizes",
         pinget_multi_buffer_copy(store, NULL, 3, keys, key_sizes, buffers,
                                  capacities, NULL, codes, &msg));
  const char* null_key[2] = {kKey, NULL};
  EXPECT(PINGET_INVALID_ARGUMENT, "keys[1]",
         pinget_multi_buffer_copy(store, NULL, 2, null_key, key_sizes, buffers,
                                  capacities, sizes, codes, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "out",
         pinget_snapshot_create(store, NULL, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "value",
         pinget_get_property(store, 0, "rocksdb.stats", 13, NULL, &text_size,
                             &msg));

  /* Close: pins and snapshots outlive it; every later call is Closed; a second
   * close is OK. */
  OK(pinget_pinned_view(store, NULL, KEY, pinned, NULL, NULL, &msg));
  OK(pinget_close(store, &msg));
  data = pinget_pinned_value(pinned, &size);
  CHECK(data != NULL && size == sizeof value && memcmp(data, value, size) == 0);
  OK(pinget_close(store, &msg));
  EXPECT(
      PINGET_CLOSED, NULL,
      pinget_buffer_copy(store, NULL, KEY, buffer, sizeof buffer, &size, &msg));
  EXPECT(PINGET_CLOSED, NULL,
         pinget_buffer_copy(store, NULL, NULL, 5, NULL, 9, NULL, &msg));
  EXPECT(PINGET_CLOSED, NULL,
         pinget_pinnable_copy(store, NULL, KEY, &copy, &size, &msg));
  EXPECT(PINGET_CLOSED, NULL,
         pinget_string_copy(store, NULL, KEY, &lent, &size, &msg));
  EXPECT(PINGET_CLOSED, NULL,
         pinget_string_copy(store, NULL, KEY, NULL, NULL, &msg));
  EXPECT(PINGET_CLOSED, NULL,
         pinget_pinned_visit(store, NULL, KEY, visit, &seen, &msg));
  EXPECT(PINGET_CLOSED, NULL,
         pinget_pinned_view(store, NULL, KEY, pinned, NULL, NULL, &msg));
  CHECK(pinget_pinned_value(pinned, NULL) == NULL);
  EXPECT(PINGET_CLOSED, NULL,
         pinget_pinned_view_or_copy(store, NULL, NULL, 0, NULL, NULL, 9, NULL,
                                    NULL, &msg));
  EXPECT(PINGET_CLOSED, NULL,
         pinget_multi_pinned_view(store, NULL, 3, keys, key_sizes, batch, NULL,
                                  NULL, NULL, &msg));
  EXPECT(PINGET_CLOSED, NULL,
         pinget_multi_buffer_copy(store, NULL, 3, keys, NULL, NULL, NULL, sizes,
                                  codes, &msg));
  EXPECT(PINGET_CLOSED, NULL, pinget_put(store, NULL, 0, KEY, "x", 1, &msg));
  EXPECT(PINGET_CLOSED, NULL, pinget_delete(store, NULL, 0, KEY, &msg));
  EXPECT(PINGET_CLOSED, NULL, pinget_write(store, NULL, NULL, &msg));
  EXPECT(PINGET_CLOSED, NULL, pinget_flush(store, 0, &msg));
  EXPECT(PINGET_CLOSED, NULL, pinget_compact(store, 0, &msg));
  EXPECT(PINGET_CLOSED, NULL, pinget_snapshot_create(store, NULL, &msg));
  EXPECT(PINGET_CLOSED, NULL,
         pinget_column_family_id(store, "other", 5, NULL, &msg));
  EXPECT(PINGET_CLOSED, NULL,
         pinget_get_property(store, 0, "rocksdb.stats", 13, &text, &text_size,
                             &msg));
  /* A snapshot's read still needs the store open. */
  OK(pinget_read_options_set(ro, snapshot, 0, PINGET_READ_DEFAULTS, &msg));
  EXPECT(
      PINGET_CLOSED, NULL,
      pinget_buffer_copy(store, ro, KEY, buffer, sizeof buffer, &size, &msg));

  pinget_snapshot_destroy(snapshot);
  pinget_read_options_destroy(ro);
  pinget_pinned_batch_destroy(batch);
  pinget_pinned_destroy(pinned); /* the last pin: the database goes here */
  pinget_store_destroy(store);

  /* The data survived: reopen and read. */
  store = NULL;
  OK(pinget_open(path, NULL, &store, &msg));
  if (store != NULL) {
    OK(pinget_buffer_copy(store, NULL, "fresh", 5, buffer, sizeof buffer, &size,
                          &msg));
    CHECK(size == 5 && memcmp(buffer, "newer", 5) == 0);
  }
  pinget_store_destroy(store); /* closes: no pinget_close needed */
}

/* A value read from an SST file whose block is not cached counts F = 1. */
static void file_reads(const char* dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/files", dir);
  pinget_options* options = NULL;
  OK(pinget_options_create(&options, &msg));
  SET(options, "compression=none");
  pinget_store* store = NULL;
  OK(pinget_open(path, options, &store, &msg));
  pinget_options_destroy(options);
  if (store == NULL) return;
  char value[4096];
  memset(value, 'f', sizeof value);
  OK(pinget_put(store, NULL, 0, KEY, value, sizeof value, &msg));
  OK(pinget_flush(store, 0, &msg));
  pinget_read_options* ro = NULL;
  OK(pinget_read_options_create(&ro, &msg));
  OK(pinget_read_options_set(ro, NULL, 0, PINGET_READ_VERIFY_CHECKSUMS, &msg));
  char buffer[4096];
  size_t size = 0;
  OK(pinget_buffer_copy(store, ro, KEY, buffer, sizeof buffer, &size, &msg));
  pinget_copy_stats_reset();
  OK(pinget_buffer_copy(store, ro, KEY, buffer, sizeof buffer, &size, &msg));
  pinget_copy_stats s = stats();
  CHECK(s.file_reads == 1 && s.file_bytes_read >= sizeof value);
  /* Uncached block: F, then RocksDB's copy (P = 1), then the buffer's. */
  CHECK(s.value_copies == 2);
  pinget_read_options_destroy(ro);
  pinget_store_destroy(store);
}

/* A cursor: every entry both ways in batches, values in place (no copy),
 * bounds and prefix, arguments and a closed store. */
static void cursors(const char* dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/cursor", dir);
  pinget_store* store = NULL;
  OK(pinget_open(path, NULL, &store, &msg));
  if (store == NULL) return;
  char key[16];
  for (int i = 0; i < 50; i++) {
    snprintf(key, sizeof key, "c%03d", i);
    OK(pinget_put(store, NULL, 0, key, 4, key, 4, &msg));
  }
  OK(pinget_flush(store, 0, &msg));
  pinget_cursor* cursor = NULL;
  OK(pinget_cursor_create(store, NULL, NULL, 0, NULL, 0, NULL, 0, &cursor,
                          &msg));
  const char* keys[8];
  size_t key_sizes[8];
  const char* values[8];
  size_t value_sizes[8];
  size_t count = 99;
  OK(pinget_cursor_next(cursor, 8, keys, key_sizes, values, value_sizes, &count,
                        &msg));
  CHECK(count == 0); /* no seek yet */
  OK(pinget_cursor_seek_to_first(cursor, &msg));
  pinget_copy_stats before = stats();
  int seen = 0;
  for (;;) {
    OK(pinget_cursor_next(cursor, 8, keys, key_sizes, values, value_sizes,
                          &count, &msg));
    if (count == 0) break;
    for (size_t i = 0; i < count; i++, seen++) {
      snprintf(key, sizeof key, "c%03d", seen);
      CHECK(key_sizes[i] == 4 && memcmp(keys[i], key, 4) == 0);
      CHECK(value_sizes[i] == 4 && memcmp(values[i], key, 4) == 0);
    }
  }
  CHECK(seen == 50);
  CHECK(stats().value_copies == before.value_copies); /* read in place */
  OK(pinget_cursor_seek_for_prev(cursor, "c010x", 5, &msg));
  OK(pinget_cursor_prev(cursor, 3, keys, NULL, NULL, NULL, &count, &msg));
  CHECK(count == 3 && memcmp(keys[0], "c010", 4) == 0 &&
        memcmp(keys[2], "c008", 4) == 0);
  EXPECT(PINGET_INVALID_ARGUMENT, "key is empty",
         pinget_cursor_seek(cursor, "", 0, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "max is 0",
         pinget_cursor_next(cursor, 0, NULL, NULL, NULL, NULL, &count, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "count",
         pinget_cursor_next(cursor, 1, NULL, NULL, NULL, NULL, NULL, &msg));
  EXPECT(PINGET_INVALID_ARGUMENT, "cursor",
         pinget_cursor_seek_to_first(NULL, &msg));
  pinget_cursor_destroy(cursor);
  pinget_cursor_destroy(NULL);

  /* Bounds and a prefix: c020 .. c024, from a prefix "c02" cut at c025. */
  OK(pinget_cursor_create(store, NULL, NULL, 0, "c025", 4, "c02", 3, &cursor,
                          &msg));
  OK(pinget_cursor_seek_to_first(cursor, &msg));
  OK(pinget_cursor_next(cursor, 8, keys, NULL, NULL, NULL, &count, &msg));
  CHECK(count == 5 && memcmp(keys[0], "c020", 4) == 0 &&
        memcmp(keys[4], "c024", 4) == 0);
  pinget_cursor* refused = (pinget_cursor*)1;
  EXPECT(PINGET_INVALID_ARGUMENT, "lower_bound",
         pinget_cursor_create(store, NULL, NULL, 1, NULL, 0, NULL, 0, &refused,
                              &msg));
  CHECK(refused == NULL);
  OK(pinget_close(store, &msg));
  EXPECT(PINGET_CLOSED, NULL, pinget_cursor_seek_to_first(cursor, &msg));
  pinget_cursor* late = (pinget_cursor*)1;
  EXPECT(PINGET_CLOSED, NULL,
         pinget_cursor_create(store, NULL, NULL, 0, NULL, 0, NULL, 0, &late,
                              &msg));
  CHECK(late == NULL);
  pinget_cursor_destroy(cursor);
  pinget_store_destroy(store);
}

/* pinget_pinned_release and pinget_pinned_batch_release keep the database of
 * an open store referenced until the handle is used again; the _detached
 * forms let it go, so a store closed afterwards closes its database (and its
 * LOCK) at once. */
/* Opens the store at path with KEY = "v" and a new handle pinning it (so
 * holding the store); NULL if the open failed. */
static pinget_store* open_holding(const char* path, pinget_pinned** pinned) {
  pinget_store* store = NULL;
  OK(pinget_open(path, NULL, &store, &msg));
  if (store == NULL) return NULL;
  OK(pinget_put(store, NULL, 0, KEY, "v", 1, &msg));
  OK(pinget_pinned_create(pinned, &msg));
  OK(pinget_pinned_view(store, NULL, KEY, *pinned, NULL, NULL, &msg));
  return store;
}

static void release_detached(const char* dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/detached", dir);
  for (int detach = 0; detach <= 1; ++detach) {
    pinget_pinned* pinned = NULL;
    pinget_store* store = open_holding(path, &pinned);
    if (store == NULL) return;
    pinget_pinned_batch* batch = NULL;
    OK(pinget_pinned_batch_create(&batch, &msg));
    const char* keys[] = {kKey};
    const size_t key_sizes[] = {sizeof kKey - 1};
    OK(pinget_multi_pinned_view(store, NULL, 1, keys, key_sizes, batch, NULL,
                                NULL, NULL, &msg));
    if (detach) {
      pinget_pinned_release_detached(pinned);
      pinget_pinned_release_detached(pinned); /* idempotent */
      pinget_pinned_batch_release_detached(batch);
      pinget_pinned_batch_release_detached(batch);
    } else {
      pinget_pinned_release(pinned);
      pinget_pinned_batch_release(batch);
    }
    CHECK(pinget_pinned_value(pinned, NULL) == NULL);
    CHECK(pinget_pinned_batch_size(batch) == 0);
    OK(pinget_close(store, &msg));
    pinget_store* again = NULL;
    if (detach) {
      OK(pinget_open(path, NULL, &again, &msg)); /* the LOCK is free */
    } else {
      EXPECT(PINGET_IO_ERROR, "lock", pinget_open(path, NULL, &again, &msg));
    }
    pinget_store_destroy(again);
    pinget_pinned_destroy(pinned);
    pinget_pinned_batch_destroy(batch); /* the last reference: closes it */
    pinget_store_destroy(store);
  }
  pinget_pinned_release_detached(NULL);
  pinget_pinned_batch_release_detached(NULL);
}

/* pinget_pinned_view_or_copy leaves the handle detached whatever it
 * returns, even one that held the store before: after a copy, an argument
 * error and a miss, closing the store frees its LOCK at once. */
static void view_or_copy_detaches(const char* dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/view_or_copy", dir);
  for (int mode = 0; mode < 3; ++mode) {
    pinget_pinned* pinned = NULL;
    pinget_store* store = open_holding(path, &pinned);
    if (store == NULL) return;
    pinget_pinned_release(pinned); /* released, still holding the store */
    char small[8];
    const char* value = NULL;
    size_t size = 0;
    if (mode == 0) {
      OK(pinget_pinned_view_or_copy(store, NULL, KEY, pinned, small,
                                    sizeof small, &value, &size, &msg));
      CHECK(value == small && size == 1 && small[0] == 'v');
    } else if (mode == 1) {
      EXPECT(PINGET_INVALID_ARGUMENT, "buffer",
             pinget_pinned_view_or_copy(store, NULL, KEY, pinned, NULL, 1,
                                        &value, &size, &msg));
    } else {
      EXPECT(PINGET_NOT_FOUND, NULL,
             pinget_pinned_view_or_copy(store, NULL, "gone", 4, pinned, small,
                                        sizeof small, &value, &size, &msg));
    }
    OK(pinget_close(store, &msg));
    pinget_store* again = NULL;
    OK(pinget_open(path, NULL, &again, &msg)); /* the LOCK is free */
    pinget_store_destroy(again);
    pinget_pinned_destroy(pinned);
    pinget_store_destroy(store);
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  library();
  options_misuse(argv[1]);
  strategies(argv[1]);
  file_reads(argv[1]);
  cursors(argv[1]);
  release_detached(argv[1]);
  view_or_copy_detaches(argv[1]);
  if (failures != 0) {
    fprintf(stderr, "c_api_test: %d failures\n", failures);
    return 1;
  }
  printf("c_api_test: passed\n");
  return 0;
}
