// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;

/**
 * The read contract: every way pinget reads a value, with its copies, for any door onto a database
 * ({@link Store}: one pinget opened, or the one {@code io.pinget.rocksjava.RocksJavaReader} lends
 * over a RocksJava {@code RocksDB}). The FFM binding ({@code io.pinget.ffm.FfmStore}) keeps the
 * same contract over memory segments. Implementations are thread-safe; the handles they make
 * ({@link PinnedView}, {@link PinnedBatch}, {@link PinnedValue}) are single-threaded.
 *
 * <p><b>Strategies.</b> P is RocksDB's own copy into a {@code PinnableSlice}: 0 for a value in the
 * block cache, 1 otherwise (a memtable hit, {@code fill_cache=false}, no block cache); a value read
 * from a file adds one read of its block (F). {@code stringCopy}: 2 copies, a new array. {@code
 * pinnableCopy}: P + 1, a new array. {@code bufferCopy}, {@code directCopy}: P + 1 into memory the
 * caller owns, no allocation. {@code pinnedValue}, {@link PinnedView}, {@link PinnedBatch}: P (the
 * caller reads pinned memory). docs/strategies.md is the table.
 *
 * <p><b>Keys</b> are a byte[] range (copied once into native memory: one key copy) or a direct
 * ByteBuffer from position to limit (read in place; its position is left unchanged). A key is never
 * empty.
 *
 * <p><b>Not found</b>: a byte[] result or a view is null, a size is {@link #NOT_FOUND}; it never
 * throws.
 *
 * <p><b>Order of checks</b>, the same for every method and every door: (1) a closed reader ({@link
 * StoreClosedException}; for a RocksJava database that RocksJava closed, {@link
 * IllegalStateException}); (2) the arguments in the order of the signature, each wholly before the
 * next: null ({@link NullPointerException} naming it), then a range ({@link
 * IndexOutOfBoundsException}), then its value ({@link IllegalArgumentException}: an empty key, a
 * heap buffer where a direct one is needed, arrays of the wrong length; {@link
 * java.nio.ReadOnlyBufferException} for a read-only destination), then, for an array, its elements
 * in index order; (3) the read options' content: a column family or snapshot of another reader
 * ({@link IllegalArgumentException}), a closed snapshot ({@link IllegalStateException}). Then
 * RocksDB's errors: {@link PingetException} with a code. Every exception that comes from a status
 * reads "{@code <Code>: <message>}".
 *
 * <p><b>Batches</b> read every key and fill every key's result (a size, or -1 when the key is not
 * found or its read failed); then, if a key failed with an error other than not-found, they throw
 * the first such error in key order. A batch whose checks fail reads nothing and leaves every
 * element of {@code sizes} at -1. A batch of 0 keys is checked as a batch of 1 is.
 */
public interface Reader extends AutoCloseable {
  /** The size returned for a key that does not exist. */
  int NOT_FOUND = -1;

  // ---- string_copy: into a std::string, then a new byte[]. 2 copies, 1 allocation.

  /**
   * string_copy of key[keyOff, keyOff + keyLen): 2 copies, 1 new array.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @return the value in a new array, or null if the key does not exist
   */
  byte[] stringCopy(ReadOptions options, byte[] key, int keyOff, int keyLen);

  /**
   * string_copy of a key read in place from a direct buffer: 2 copies, 1 new array.
   *
   * @param options not null
   * @param key a direct buffer, not null, not empty
   * @return the value in a new array, or null if the key does not exist
   */
  byte[] stringCopy(ReadOptions options, ByteBuffer key);

  /**
   * string_copy of the whole key with {@link ReadOptions#DEFAULT}.
   *
   * @param key not null, not empty
   * @return the value in a new array, or null if the key does not exist
   */
  default byte[] stringCopy(byte[] key) {
    return stringCopy(ReadOptions.DEFAULT, key, 0, key == null ? 0 : key.length);
  }

  // ---- pinnable_copy: into a PinnableSlice, then a new byte[]. P + 1 copies, 1 allocation.

  /**
   * pinnable_copy of key[keyOff, keyOff + keyLen): P + 1 copies, 1 new array.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @return the value in a new array, or null if the key does not exist
   */
  byte[] pinnableCopy(ReadOptions options, byte[] key, int keyOff, int keyLen);

  /**
   * pinnable_copy of a key read in place from a direct buffer: P + 1 copies, 1 new array.
   *
   * @param options not null
   * @param key a direct buffer, not null, not empty
   * @return the value in a new array, or null if the key does not exist
   */
  byte[] pinnableCopy(ReadOptions options, ByteBuffer key);

  /**
   * pinnable_copy of the whole key with {@link ReadOptions#DEFAULT}.
   *
   * @param key not null, not empty
   * @return the value in a new array, or null if the key does not exist
   */
  default byte[] pinnableCopy(byte[] key) {
    return pinnableCopy(ReadOptions.DEFAULT, key, 0, key == null ? 0 : key.length);
  }

  // ---- buffer_copy: into a PinnableSlice, then dst. P + 1 copies, no allocation.

  /**
   * buffer_copy of key[keyOff, keyOff + keyLen) into dst[off, off + len): copies min(size, len)
   * bytes; nothing outside that range of dst is written. P + 1 copies, no allocation.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @param dst not null
   * @param off where the value goes in dst
   * @param len room in dst (0: a size query)
   * @return the value's full size (more than len: dst was too small), or {@link #NOT_FOUND}
   */
  int bufferCopy(
      ReadOptions options, byte[] key, int keyOff, int keyLen, byte[] dst, int off, int len);

  /**
   * buffer_copy of a key read in place from a direct buffer into dst[off, off + len).
   *
   * @param options not null
   * @param key a direct buffer, not null, not empty
   * @param dst not null
   * @param off where the value goes in dst
   * @param len room in dst
   * @return the value's full size (more than len: dst was too small), or {@link #NOT_FOUND}
   */
  int bufferCopy(ReadOptions options, ByteBuffer key, byte[] dst, int off, int len);

  /**
   * buffer_copy of the whole key with {@link ReadOptions#DEFAULT} into dst[off, off + len).
   *
   * @param key not null, not empty
   * @param dst not null
   * @param off where the value goes in dst
   * @param len room in dst
   * @return the value's full size, or {@link #NOT_FOUND}
   */
  default int bufferCopy(byte[] key, byte[] dst, int off, int len) {
    return bufferCopy(ReadOptions.DEFAULT, key, 0, key == null ? 0 : key.length, dst, off, len);
  }

  // ---- direct_copy: into a PinnableSlice, then dst's memory. P + 1 copies, no allocation.

  /**
   * direct_copy of key[keyOff, keyOff + keyLen) into dst from its position (position and limit
   * unchanged): copies min(size, dst.remaining()) bytes. P + 1 copies, no allocation.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @param dst a direct, writable buffer; not null
   * @return the value's full size (more than dst.remaining(): too small), or {@link #NOT_FOUND}
   */
  int directCopy(ReadOptions options, byte[] key, int keyOff, int keyLen, ByteBuffer dst);

  /**
   * direct_copy of a key read in place from a direct buffer into dst from its position.
   *
   * @param options not null
   * @param key a direct buffer, not null, not empty
   * @param dst a direct, writable buffer; not null
   * @return the value's full size (more than dst.remaining(): too small), or {@link #NOT_FOUND}
   */
  int directCopy(ReadOptions options, ByteBuffer key, ByteBuffer dst);

  /**
   * direct_copy of the whole key with {@link ReadOptions#DEFAULT}.
   *
   * @param key not null, not empty
   * @param dst a direct, writable buffer; not null
   * @return the value's full size, or {@link #NOT_FOUND}
   */
  default int directCopy(byte[] key, ByteBuffer dst) {
    return directCopy(ReadOptions.DEFAULT, key, 0, key == null ? 0 : key.length, dst);
  }

  // ---- pinned_view: the caller reads pinned memory. P copies.

  /**
   * pinned_view, one pin per call, of key[keyOff, keyOff + keyLen): P copies. For many gets, a
   * reused {@link #newPinnedView()} allocates nothing.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @return the value pinned in a new PinnedValue (close it), or null if the key does not exist
   */
  PinnedValue pinnedValue(ReadOptions options, byte[] key, int keyOff, int keyLen);

  /**
   * pinned_view, one pin per call, of a key read in place from a direct buffer: P copies.
   *
   * @param options not null
   * @param key a direct buffer, not null, not empty
   * @return the value pinned in a new PinnedValue (close it), or null if the key does not exist
   */
  PinnedValue pinnedValue(ReadOptions options, ByteBuffer key);

  /**
   * pinned_view of the whole key with {@link ReadOptions#DEFAULT}, one pin per call.
   *
   * @param key not null, not empty
   * @return the value pinned in a new PinnedValue (close it), or null if the key does not exist
   */
  default PinnedValue pinnedValue(byte[] key) {
    return pinnedValue(ReadOptions.DEFAULT, key, 0, key == null ? 0 : key.length);
  }

  /**
   * A reusable pinned_view handle: each get pins the next value in place of the last, with no
   * allocation.
   *
   * @return a new handle; close it when done
   */
  PinnedView newPinnedView();

  /**
   * A reusable batched pinned_view handle.
   *
   * @return a new handle; close it when done
   */
  PinnedBatch newPinnedBatch();

  // ---- scans

  /**
   * A cursor over the entries of the options' column family in their range, lent in batches of
   * read-only views: values read in place (0 copies from the block cache and the memtable), no
   * allocation per entry. See {@link Cursor}.
   *
   * @param options not null
   * @return a new cursor, not yet positioned; close it when done (it holds a snapshot)
   */
  Cursor newCursor(CursorOptions options);

  /**
   * A cursor over every entry of the default column family.
   *
   * @return a new cursor, not yet positioned; close it when done
   */
  default Cursor newCursor() {
    return newCursor(CursorOptions.DEFAULT);
  }

  // ---- batched copies over RocksDB's MultiGet

  /**
   * buffer_copy per key over RocksDB's MultiGet: copies value i into dsts[i] from index 0 and sets
   * sizes[i] to its full size, or -1 (not found or failed). P + 1 copies per found key, no
   * allocation once warm. See the batch rule above.
   *
   * @param options not null
   * @param keys not null, no element null or empty
   * @param dsts not null, as long as keys, no element null
   * @param sizes not null, at least as long as keys
   */
  void multiGetBufferCopy(ReadOptions options, byte[][] keys, byte[][] dsts, int[] sizes);

  /**
   * direct_copy per key over RocksDB's MultiGet: copies value i into dsts[i] at its position
   * (position and limit unchanged) and sets sizes[i] to its full size, or -1 (not found or failed).
   * P + 1 copies per found key, no allocation once warm. See the batch rule above.
   *
   * @param options not null
   * @param keys not null, no element null or empty
   * @param dsts not null, as long as keys, each a direct, writable buffer
   * @param sizes not null, at least as long as keys
   */
  void multiGetDirectCopy(ReadOptions options, byte[][] keys, ByteBuffer[] dsts, int[] sizes);

  // ---- decode on read: the decoder reads the pinned value in place, through a per-thread pin. P
  // copies, no allocation of pinget's (the decoder's own aside).

  /**
   * Gets key[keyOff, keyOff + keyLen) and decodes it in one step: the value is pinned (P copies: 0
   * from the block cache), lent to decoder as a read-only ByteBuffer (position 0, limit its size,
   * big-endian), and the pin is released when decoder returns or throws. No copy and no allocation
   * of pinget's: what the decoder copies or allocates is its own. What decoder may and must not do
   * with the buffer, and what is undefined if it keeps it, is in {@link ValueDecoder}. Checks: this
   * reader, options, the key, decoder (null), then the options' content.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @param decoder not null; not called for a missing key
   * @param <T> what the value becomes
   * @return what decoder returned, or null if the key does not exist
   * @throws RuntimeException whatever decoder throws, unchanged, after the pin is released
   */
  <T> T get(ReadOptions options, byte[] key, int keyOff, int keyLen, ValueDecoder<T> decoder);

  /**
   * As {@link #get(ReadOptions, byte[], int, int, ValueDecoder)}, with a key read in place from a
   * direct buffer (position to limit; the position does not move).
   *
   * @param options not null
   * @param key a direct buffer, not null, not empty
   * @param decoder not null; not called for a missing key
   * @param <T> what the value becomes
   * @return what decoder returned, or null if the key does not exist
   */
  <T> T get(ReadOptions options, ByteBuffer key, ValueDecoder<T> decoder);

  /**
   * As {@link #get(ReadOptions, byte[], int, int, ValueDecoder)}, of the whole key with {@link
   * ReadOptions#DEFAULT}.
   *
   * @param key not null, not empty
   * @param decoder not null; not called for a missing key
   * @param <T> what the value becomes
   * @return what decoder returned, or null if the key does not exist
   */
  default <T> T get(byte[] key, ValueDecoder<T> decoder) {
    return get(ReadOptions.DEFAULT, key, 0, key == null ? 0 : key.length, decoder);
  }

  /**
   * As {@link #get(ReadOptions, byte[], int, int, ValueDecoder)}, decoding to a primitive long (no
   * boxing): a counter read with {@link Decoders#longBE()} allocates nothing.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @param decoder not null; not called for a missing key
   * @param missing what to return for a missing key
   * @return what decoder returned, or missing if the key does not exist
   */
  long getLong(
      ReadOptions options, byte[] key, int keyOff, int keyLen, LongDecoder decoder, long missing);

  /**
   * As {@link #getLong(ReadOptions, byte[], int, int, LongDecoder, long)}, with a key read in place
   * from a direct buffer.
   *
   * @param options not null
   * @param key a direct buffer, not null, not empty
   * @param decoder not null; not called for a missing key
   * @param missing what to return for a missing key
   * @return what decoder returned, or missing if the key does not exist
   */
  long getLong(ReadOptions options, ByteBuffer key, LongDecoder decoder, long missing);

  /**
   * As {@link #getLong(ReadOptions, byte[], int, int, LongDecoder, long)}, of the whole key with
   * {@link ReadOptions#DEFAULT}.
   *
   * @param key not null, not empty
   * @param decoder not null; not called for a missing key
   * @param missing what to return for a missing key
   * @return what decoder returned, or missing if the key does not exist
   */
  default long getLong(byte[] key, LongDecoder decoder, long missing) {
    return getLong(ReadOptions.DEFAULT, key, 0, key == null ? 0 : key.length, decoder, missing);
  }

  /**
   * Batched decode on read over RocksDB's MultiGet: pins every key's value (P copies per found
   * key), then sets out[i] to decoder's result for value i, in key order, or null for a key not
   * found or whose read failed; then releases every pin. No allocation of pinget's once warm. The
   * batch rule holds: every key is read and decoded, then the first per-key error is thrown; a
   * batch refused by its checks reads nothing and leaves every element of out null. If decoder
   * throws, its exception reaches the caller unchanged after the pins are released; out holds the
   * values decoded before it, null after.
   *
   * @param options not null
   * @param keys not null, no element null or empty
   * @param decoder not null; called only for found values, each valid during its call only
   * @param out not null, at least as long as keys
   * @param <T> what the values become
   */
  <T> void multiGet(ReadOptions options, byte[][] keys, ValueDecoder<? extends T> decoder, T[] out);

  /**
   * As {@link #multiGet}, decoding to primitive longs: out[i] is decoder's result for value i, or
   * missing for a key not found or whose read failed (and, after a refusal, every element of out).
   *
   * @param options not null
   * @param keys not null, no element null or empty
   * @param decoder not null; called only for found values, each valid during its call only
   * @param missing the result of a key not found or failed
   * @param out not null, at least as long as keys
   */
  void multiGetLong(
      ReadOptions options, byte[][] keys, LongDecoder decoder, long missing, long[] out);

  /**
   * Whether {@link #close()} was called.
   *
   * @return true once closed
   */
  boolean isClosed();

  /**
   * Waits for calls in flight, then lets go of the database; later calls throw {@link
   * StoreClosedException}. Handles and pinned values still open keep what they pin until they
   * close. Idempotent.
   */
  @Override
  void close();
}
