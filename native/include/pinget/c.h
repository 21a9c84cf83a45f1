/* Copyright pinget authors. Licensed under the Apache License 2.0.
 *
 * pinget's C API: the C++ API (pinget/store.h) behind a C ABI, for C programs
 * and for bindings (Java's FFM, Python's ctypes, Rust, Go, .NET). It is a thin
 * layer: every function calls the C++ API, and behaves as its C++ twin does.
 *
 * Conventions, for every function below:
 * - Handles are opaque. Each kind has one constructor and one destructor
 *   (..._create or pinget_open, and ..._destroy). A destructor accepts NULL
 *   and returns nothing; using a handle after its destructor, or destroying it
 *   twice, is undefined (as free() is). Every other misuse is a status:
 *   a NULL handle, a NULL array or buffer with a non-zero length, a closed
 *   store, a second pinget_close.
 * - Functions that can fail return a pinget_code and take, last, an optional
 *   `char** message`. If message is not NULL, *message is set on every call:
 *   to NULL when the code is PINGET_OK or PINGET_NOT_FOUND, else to a
 *   NUL-terminated, printable-ASCII description that the caller owns and
 *   frees with pinget_free. No C++ exception crosses this API: an allocation
 *   failure inside pinget is reported as PINGET_UNKNOWN.
 * - Keys and values are (pointer, length) pairs and may hold any bytes. A key
 *   must be non-empty. pinget never keeps a pointer it was given beyond the
 *   call, except where a function says so.
 * - Thread safety: a store, and a snapshot, may be used from any number of
 *   threads at once, pinget_close included (it waits for calls in flight,
 *   and later calls return PINGET_CLOSED). Options, read and write options,
 *   write batches, pinned values and pinned batches are for one thread at a
 *   time. Destroying a store while another thread still calls it is
 *   undefined: close it, join the threads, then destroy it.
 * - Copies: each get says how many copies of the value it makes (P is
 *   RocksDB's own: 0 if the value sits in a block-cache block, 1 if RocksDB
 *   copied it, e.g. from the memtable). pinget_copy_stats counts them, per
 *   thread.
 */

#ifndef PINGET_C_H_
#define PINGET_C_H_

#include <stddef.h>
#include <stdint.h>

#include "pinget/export.h"

/* PINGET_C_EXPORTS: c.cc compiled into a shared library that exports the C
 * API itself (the JNI library, for the Java FFM binding). */
#if defined(PINGET_C_EXPORTS) && defined(_WIN32)
#define PINGET_C_API __declspec(dllexport)
#elif defined(PINGET_C_EXPORTS)
#define PINGET_C_API __attribute__((visibility("default")))
#else
#define PINGET_C_API PINGET_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The result of a call. The values are those of pinget::Status::Code. */
typedef enum pinget_code {
  PINGET_OK = 0,
  PINGET_NOT_FOUND = 1,
  PINGET_CORRUPTION = 2,
  PINGET_NOT_SUPPORTED = 3,
  PINGET_INVALID_ARGUMENT = 4,
  PINGET_IO_ERROR = 5,
  PINGET_CLOSED = 6, /* the store (or the store a handle came from) is closed */
  PINGET_BUSY = 7,
  PINGET_UNKNOWN = 8
} pinget_code;

typedef struct pinget_options pinget_options;
typedef struct pinget_read_options pinget_read_options;
typedef struct pinget_write_options pinget_write_options;
typedef struct pinget_store pinget_store;
typedef struct pinget_snapshot pinget_snapshot;
typedef struct pinget_write_batch pinget_write_batch;
typedef struct pinget_pinned pinget_pinned;
typedef struct pinget_pinned_batch pinget_pinned_batch;
typedef struct pinget_cursor pinget_cursor;

/* ---- Library ---- */

/* "OK", "NotFound", "InvalidArgument", ...; "Unknown" for a value that is not
 * a pinget_code. Static storage. */
PINGET_C_API const char* pinget_code_name(int code);
/* The RocksDB release pinget was built with ("11.8.1"). Static storage. */
PINGET_C_API const char* pinget_rocksdb_version(void);
/* Frees a message or a value that pinget allocated for the caller. NULL is
 * allowed. */
PINGET_C_API void pinget_free(void* p);

/* ---- Options for pinget_open (pinget::Options: the same defaults) ---- */

PINGET_C_API pinget_code pinget_options_create(pinget_options** out,
                                               char** message);
PINGET_C_API void pinget_options_destroy(pinget_options* options);
/* Sets the options named in text[0, text_size): "name=value" pairs joined by
 * ';', named as pinget::Options' fields (pinget/options.h, ParseOptions:
 * block_cache_bytes=1048576;compression=zstd;max_open_files=500); booleans
 * are true or false, block_cache_kind lru or hyper_clock, compression none,
 * snappy, lz4, zstd, zlib or bzip2. The one way to set them, and the format
 * every binding passes options in. PINGET_INVALID_ARGUMENT names an unknown
 * option or a value that is not of its kind, and sets nothing. Ranges: at
 * pinget_open, which names a bad value. */
PINGET_C_API pinget_code pinget_options_set(pinget_options* options,
                                            const char* text, size_t text_size,
                                            char** message);
/* Adds a column family besides "default" (created if missing); the first one
 * added gets id 1, the next 2, ... The name is copied. */
PINGET_C_API pinget_code
pinget_options_add_column_family(pinget_options* options, const char* name,
                                 size_t name_size, char** message);

/* ---- Read and write options. A NULL one means the defaults. ---- */

PINGET_C_API pinget_code pinget_read_options_create(pinget_read_options** out,
                                                    char** message);
PINGET_C_API void pinget_read_options_destroy(pinget_read_options* options);
/* Flag bits of pinget_read_options_set, one per pinget::ReadOptions boolean
 * (pinget/options.h). PINGET_READ_DEFAULTS is what a new (or NULL) read
 * options object reads with. */
#define PINGET_READ_FILL_CACHE 1u
/* Without it, blocks read from files are not checked: only for files you
 * trust (and such blocks do not enter the block cache). */
#define PINGET_READ_VERIFY_CHECKSUMS 2u
/* pinget_pinned_view pins memtable hits too (ReadOptions::pin_memtable). */
#define PINGET_READ_PIN_MEMTABLE 4u
#define PINGET_READ_DEFAULTS \
  (PINGET_READ_FILL_CACHE | PINGET_READ_VERIFY_CHECKSUMS)
/* Sets every read option at once, the one way to set them: reads as of
 * snapshot (NULL: latest), from column_family, with the PINGET_READ_* bits of
 * flags. The read options keep the snapshot pointer: it must outlive every
 * read made with them and belong to the store read (else that read returns
 * PINGET_INVALID_ARGUMENT), as must the column family. Unknown bits:
 * PINGET_INVALID_ARGUMENT, and options unchanged. */
PINGET_C_API pinget_code pinget_read_options_set(
    pinget_read_options* options, const pinget_snapshot* snapshot,
    uint32_t column_family, uint32_t flags, char** message);

PINGET_C_API pinget_code pinget_write_options_create(pinget_write_options** out,
                                                     char** message);
PINGET_C_API void pinget_write_options_destroy(pinget_write_options* options);
/* Flag bits of pinget_write_options_set (pinget::WriteOptions); none is
 * the default. */
#define PINGET_WRITE_SYNC 1u
/* Skips the WAL: the write is lost on a crash before the next flush. */
#define PINGET_WRITE_DISABLE_WAL 2u
/* Sets every write option at once. Unknown bits: PINGET_INVALID_ARGUMENT,
 * and options unchanged. */
PINGET_C_API pinget_code pinget_write_options_set(pinget_write_options* options,
                                                  uint32_t flags,
                                                  char** message);

/* ---- Store ----
 * A Java io.pinget.Store's nativeHandle() is a pinget_store* too: native code
 * in the same process (a JNI library of the application's, an FFM downcall)
 * may call this API on it while the Java Store is reachable, and never
 * destroys it (the Java Store's Cleaner does). After the Java close(), calls
 * return PINGET_CLOSED. */

/* Opens (or creates, per options; NULL: the defaults) the database at path, a
 * NUL-terminated string. On failure *out is NULL. */
PINGET_C_API pinget_code pinget_open(const char* path,
                                     const pinget_options* options,
                                     pinget_store** out, char** message);
/* Waits for calls in flight, then releases the database; pinned values and
 * snapshots still alive keep it open until they go. Later calls on the store
 * return PINGET_CLOSED. A second close returns PINGET_OK. */
PINGET_C_API pinget_code pinget_close(pinget_store* store, char** message);
/* Closes if still open, then frees the handle. */
PINGET_C_API void pinget_store_destroy(pinget_store* store);

/* The id of a column family given to pinget_options_add_column_family
 * ("default" is 0); PINGET_NOT_FOUND if the store has none of that name. */
PINGET_C_API pinget_code pinget_column_family_id(const pinget_store* store,
                                                 const char* name,
                                                 size_t name_size, uint32_t* id,
                                                 char** message);

PINGET_C_API pinget_code pinget_put(pinget_store* store,
                                    const pinget_write_options* options,
                                    uint32_t column_family, const char* key,
                                    size_t key_size, const char* value,
                                    size_t value_size, char** message);
PINGET_C_API pinget_code pinget_delete(pinget_store* store,
                                       const pinget_write_options* options,
                                       uint32_t column_family, const char* key,
                                       size_t key_size, char** message);
/* Applies every operation of batch atomically, or none of them. */
PINGET_C_API pinget_code pinget_write(pinget_store* store,
                                      const pinget_write_options* options,
                                      const pinget_write_batch* batch,
                                      char** message);
/* Writes the column family's memtable to an SST file and waits for it. */
PINGET_C_API pinget_code pinget_flush(pinget_store* store,
                                      uint32_t column_family, char** message);
/* Compacts the column family's whole key range and waits for it. */
PINGET_C_API pinget_code pinget_compact(pinget_store* store,
                                        uint32_t column_family, char** message);
/* A RocksDB property ("rocksdb.stats", ...) as a NUL-terminated string that
 * the caller frees with pinget_free; *value_size excludes the NUL. */
PINGET_C_API pinget_code pinget_get_property(
    pinget_store* store, uint32_t column_family, const char* property,
    size_t property_size, char** value, size_t* value_size, char** message);

/* ---- Write batches: puts and deletes, copied into the batch ---- */

PINGET_C_API pinget_code pinget_write_batch_create(pinget_write_batch** out,
                                                   char** message);
PINGET_C_API void pinget_write_batch_destroy(pinget_write_batch* batch);
/* Arguments are checked by pinget_write, which then applies nothing. */
PINGET_C_API pinget_code pinget_write_batch_put(
    pinget_write_batch* batch, uint32_t column_family, const char* key,
    size_t key_size, const char* value, size_t value_size, char** message);
PINGET_C_API pinget_code pinget_write_batch_delete(pinget_write_batch* batch,
                                                   uint32_t column_family,
                                                   const char* key,
                                                   size_t key_size,
                                                   char** message);
PINGET_C_API pinget_code pinget_write_batch_clear(pinget_write_batch* batch,
                                                  char** message);
/* Operations in the batch; 0 for a NULL batch. */
PINGET_C_API size_t pinget_write_batch_count(const pinget_write_batch* batch);

/* ---- Snapshots: a consistent read view (set it in read options) ---- */

/* The snapshot keeps the database open until destroyed, as a pin does. A Java
 * Store's snapshots are pinget_snapshot* too (the FFM binding reads with
 * them); as with its store, the Java side frees those, never native code. */
PINGET_C_API pinget_code pinget_snapshot_create(pinget_store* store,
                                                pinget_snapshot** out,
                                                char** message);
PINGET_C_API void pinget_snapshot_destroy(pinget_snapshot* snapshot);

/* ---- Gets, each named after its strategy (pinget's docs/strategies.md).
 * PINGET_NOT_FOUND when the key has no value. ---- */

/* string_copy: DB::Get copies the value into this thread's string (1 copy; no
 * allocation once that string has held a value as large), which is lent:
 * *value (not NUL-terminated; a valid pointer even for an empty value) and
 * *value_size stay valid until this thread's next pinget_string_copy or its
 * exit, and must not be freed. NULL and 0 unless the code is PINGET_OK.
 * PINGET_NOT_SUPPORTED when called in the thread's exit once that string is
 * destroyed (from another thread_local's destructor). */
PINGET_C_API pinget_code pinget_string_copy(pinget_store* store,
                                            const pinget_read_options* options,
                                            const char* key, size_t key_size,
                                            const char** value,
                                            size_t* value_size, char** message);

/* pinnable_copy, a copy the caller owns: *value is set to a new buffer of
 * *value_size bytes (not NUL-terminated; a valid pointer even for an empty
 * value) that the caller frees with pinget_free; NULL unless the code is
 * PINGET_OK. P + 1 copies, 1 allocation. */
PINGET_C_API pinget_code pinget_pinnable_copy(
    pinget_store* store, const pinget_read_options* options, const char* key,
    size_t key_size, char** value, size_t* value_size, char** message);

/* buffer_copy: copies min(size, capacity) bytes of the value into buffer and
 * sets *value_size to the value's full size, so *value_size > capacity means
 * the buffer was too small. Nothing past buffer + capacity is written. P + 1
 * copies, no allocation. buffer may be NULL only with capacity 0 (a size
 * query, P copies). */
PINGET_C_API pinget_code pinget_buffer_copy(pinget_store* store,
                                            const pinget_read_options* options,
                                            const char* key, size_t key_size,
                                            char* buffer, size_t capacity,
                                            size_t* value_size, char** message);

/* Called by pinget_pinned_visit with the value's bytes, valid only during the
 * call. */
typedef void (*pinget_value_visitor)(void* context, const char* value,
                                     size_t value_size);

/* pinned_view as a callback: visitor(context, value, size) is called once,
 * only when the code is PINGET_OK, while the value is pinned. P copies, no
 * allocation in steady state. visitor may call any store but must not close
 * this one (pinget_close would wait for it). */
PINGET_C_API pinget_code pinget_pinned_visit(pinget_store* store,
                                             const pinget_read_options* options,
                                             const char* key, size_t key_size,
                                             pinget_value_visitor visitor,
                                             void* context, char** message);

/* A reusable pinned value (pinned_view): create it once, then each
 * pinget_pinned_view into it releases what it held and pins the next value,
 * with no allocation once its buffer for a memtable copy has held a value
 * that large. While it holds a value, the block behind it, and the
 * database, stay alive, even if the store is closed. */
PINGET_C_API pinget_code pinget_pinned_create(pinget_pinned** out,
                                              char** message);
PINGET_C_API void pinget_pinned_destroy(pinget_pinned* pinned);
/* Releases what pinned held, then pins the value for key: P copies. On any
 * code but PINGET_OK, pinned holds nothing. A key that points into pinned's
 * own bytes is copied first (one counted key copy). value and value_size
 * (each may be NULL) receive what pinget_pinned_value would return, so that
 * a binding needs one call per get; NULL and 0 unless the code is PINGET_OK. */
PINGET_C_API pinget_code pinget_pinned_view(pinget_store* store,
                                            const pinget_read_options* options,
                                            const char* key, size_t key_size,
                                            pinget_pinned* pinned,
                                            const char** value,
                                            size_t* value_size, char** message);
/* The held value's bytes, read-only and valid until the next
 * pinget_pinned_view (or _view_or_copy) into pinned, pinget_pinned_release
 * or _destroy; *size
 * (if size is not NULL) is set to its length. NULL (and 0) when nothing is
 * held or pinned is NULL. */
PINGET_C_API const char* pinget_pinned_value(const pinget_pinned* pinned,
                                             size_t* size);
/* 1 if the bytes are RocksDB's block-cache memory (P = 0), else 0. */
PINGET_C_API int pinget_pinned_in_cache(const pinget_pinned* pinned);
/* Drops the pin. Idempotent; NULL is allowed. */
PINGET_C_API void pinget_pinned_release(pinget_pinned* pinned);
/* As pinget_pinned_release, and lets go of the database too: a released
 * pinget_pinned otherwise keeps its store's database referenced (so that the
 * next get from the same store costs no reference count) until that store is
 * closed and the handle is released again, got into or destroyed. For a
 * handle reused across stores by one thread (the FFM binding's decoded reads):
 * after it, closing the store closes its database at once. NULL is allowed. */
PINGET_C_API void pinget_pinned_release_detached(pinget_pinned* pinned);
/* pinned_view for a caller that reads the value once and then lets it go
 * (the FFM binding's decoded reads), in one call: a value of at most capacity
 * bytes is copied into buffer (P + 1 copies; *value is buffer) and pinned is
 * left released and detached, so that nothing is held past the call; a
 * larger one is pinned in pinned as pinget_pinned_view does (P copies; *value
 * points into it), for the caller to read and then
 * pinget_pinned_release_detached. On any code but PINGET_OK, pinned is
 * released and detached, *value is NULL and *value_size 0. buffer may be
 * NULL only with capacity 0 (every value then stays pinned). */
PINGET_C_API pinget_code pinget_pinned_view_or_copy(
    pinget_store* store, const pinget_read_options* options, const char* key,
    size_t key_size, pinget_pinned* pinned, char* buffer, size_t capacity,
    const char** value, size_t* value_size, char** message);

/* ---- Batched gets over RocksDB's MultiGet ----
 * keys[i] and key_sizes[i] give key i. Every key of the batch is read and gets
 * its own code; the call returns the first per-key code other than PINGET_OK
 * and PINGET_NOT_FOUND, in key order, or PINGET_OK. A bad argument returns
 * before any key is read. count may be 0 (then arrays may be NULL). */

/* Batched buffer_copy: for each i, as pinget_buffer_copy with buffers[i],
 * capacities[i] and value_sizes[i]; codes[i] (codes may be NULL) gets key
 * i's code. P + 1 copies per found key, no allocation in steady state. */
PINGET_C_API pinget_code pinget_multi_buffer_copy(
    pinget_store* store, const pinget_read_options* options, size_t count,
    const char* const* keys, const size_t* key_sizes, char* const* buffers,
    const size_t* capacities, size_t* value_sizes, int* codes, char** message);

/* A reusable set of pinned values (batched pinned_view). */
PINGET_C_API pinget_code pinget_pinned_batch_create(pinget_pinned_batch** out,
                                                    char** message);
PINGET_C_API void pinget_pinned_batch_destroy(pinget_pinned_batch* batch);
/* Releases what batch held, then pins count values: P copies per found key,
 * no allocation once the batch has held count values. No key may point into
 * batch's own bytes. values, value_sizes and codes (each may be NULL, else
 * count elements) receive, per key, what pinget_pinned_batch_value and
 * pinget_pinned_batch_code would return, so that a binding needs one call per
 * batch. */
PINGET_C_API pinget_code pinget_multi_pinned_view(
    pinget_store* store, const pinget_read_options* options, size_t count,
    const char* const* keys, const size_t* key_sizes,
    pinget_pinned_batch* batch, const char** values, size_t* value_sizes,
    int* codes, char** message);
/* Keys of the last pinget_multi_pinned_view (0 after release, or for NULL). */
PINGET_C_API size_t pinget_pinned_batch_size(const pinget_pinned_batch* batch);
/* Key i's code (PINGET_NOT_FOUND for i past the size, and for a NULL batch). */
PINGET_C_API pinget_code
pinget_pinned_batch_code(const pinget_pinned_batch* batch, size_t i);
/* Key i's value, as pinget_pinned_value: NULL (and 0) unless its code is
 * PINGET_OK. Valid until the batch's next get, release or destroy. */
PINGET_C_API const char* pinget_pinned_batch_value(
    const pinget_pinned_batch* batch, size_t i, size_t* size);
/* Drops every pin. Idempotent; NULL is allowed. */
PINGET_C_API void pinget_pinned_batch_release(pinget_pinned_batch* batch);
/* As pinget_pinned_batch_release, and lets go of the database too (as
 * pinget_pinned_release_detached). NULL is allowed. */
PINGET_C_API void pinget_pinned_batch_release_detached(
    pinget_pinned_batch* batch);

/* ---- Cursors: entries in key order, lent in batches (pinget/cursor.h) ---- */

/* A cursor over the entries of options' column family (NULL options: the
 * defaults) in [lower_bound, upper_bound) and, if prefix_size is not 0,
 * with keys that start with prefix. A bound of size 0 is none. Without a
 * snapshot in options the cursor takes its own. It keeps the database open
 * after pinget_close until destroyed. */
PINGET_C_API pinget_code pinget_cursor_create(
    pinget_store* store, const pinget_read_options* options,
    const char* lower_bound, size_t lower_size, const char* upper_bound,
    size_t upper_size, const char* prefix, size_t prefix_size,
    pinget_cursor** out, char** message);
/* Idempotent on NULL. */
PINGET_C_API void pinget_cursor_destroy(pinget_cursor* cursor);
/* Position at the first entry, the last, the first at or after key, the last
 * at or before key. Each drops the batch lent. PINGET_CLOSED once the store
 * is closed. */
PINGET_C_API pinget_code pinget_cursor_seek_to_first(pinget_cursor* cursor,
                                                     char** message);
PINGET_C_API pinget_code pinget_cursor_seek_to_last(pinget_cursor* cursor,
                                                    char** message);
PINGET_C_API pinget_code pinget_cursor_seek(pinget_cursor* cursor,
                                            const char* key, size_t key_size,
                                            char** message);
PINGET_C_API pinget_code pinget_cursor_seek_for_prev(pinget_cursor* cursor,
                                                     const char* key,
                                                     size_t key_size,
                                                     char** message);
/* Drops the last batch, then lends up to max entries from the position,
 * forward (next) or backward (prev): *count of them, entry i in keys[i],
 * key_sizes[i], values[i], value_sizes[i] (each array max elements; any may
 * be NULL), valid until the cursor's next batch, seek or destroy. Values are
 * RocksDB's memory (no copy); keys are the cursor's copies. *count 0: the
 * range is exhausted that way. One call per batch. */
PINGET_C_API pinget_code pinget_cursor_next(
    pinget_cursor* cursor, size_t max, const char** keys, size_t* key_sizes,
    const char** values, size_t* value_sizes, size_t* count, char** message);
PINGET_C_API pinget_code pinget_cursor_prev(
    pinget_cursor* cursor, size_t max, const char** keys, size_t* key_sizes,
    const char** values, size_t* value_sizes, size_t* count, char** message);

/* ---- Copy counters: this thread's, since its start or its last reset ---- */

typedef struct pinget_copy_stats {
  uint64_t value_copies;       /* copies of value bytes */
  uint64_t value_bytes_copied; /* their bytes */
  uint64_t key_copies;         /* copies of key bytes pinget made */
  uint64_t allocations;        /* buffers allocated to hold a value */
  uint64_t file_reads;         /* reads of SST bytes into memory (F) */
  uint64_t file_bytes_read;    /* their bytes */
} pinget_copy_stats;

PINGET_C_API pinget_code pinget_copy_stats_get(pinget_copy_stats* out,
                                               char** message);
PINGET_C_API void pinget_copy_stats_reset(void);
/* For a binding that copies on pinget's behalf (a copy into its language's
 * own array): counts, on this thread, one value copy of bytes bytes, or one
 * allocation of a buffer that holds a value, or key copies. */
PINGET_C_API void pinget_record_value_copy(size_t bytes);
PINGET_C_API void pinget_record_allocation(void);
/* Counts count key copies on this thread (a key copied into native memory
 * for a call). */
PINGET_C_API void pinget_record_key_copy(size_t count);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PINGET_C_H_ */
