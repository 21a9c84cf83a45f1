// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import io.pinget.ColumnFamily;
import io.pinget.CursorOptions;
import io.pinget.Options;
import io.pinget.PingetException;
import io.pinget.ReadOptions;
import io.pinget.Snapshot;
import io.pinget.Store;
import io.pinget.StoreClosedException;
import io.pinget.WriteBatch;
import io.pinget.WriteOptions;
import io.pinget.internal.Checks;
import io.pinget.internal.StoreAccess;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A pinget store through Java's Foreign Function &amp; Memory API (Java 22+): the FFM door onto the
 * read contract of {@code io.pinget.Reader} (its strategies, names, copy counts, order of checks
 * and batch rule), over pinget's C API in the same native library as the JNI API (and the same
 * per-thread copy counters: read them with {@code io.pinget.CopyStats}).
 *
 * <p>It reads through a {@link Store}: the one {@link #open} opens, or one lent to {@link
 * #over(Store)}; the C API is called on that store's {@link Store#nativeHandle()}. Opening, writes,
 * snapshots, column families and maintenance are the Store's (the methods here forward to it), so
 * column families and snapshots of the store serve reads through either door. Keys are whole byte
 * arrays.
 *
 * <p>What this binding adds is enforcement: a pinned value is a read-only {@link MemorySegment}
 * whose scope closes when the pin goes ({@link FfmPinnedView}, {@link FfmPinnedBatch}), so reading
 * it, a slice of it or a {@code ByteBuffer} made from it afterwards throws IllegalStateException
 * instead of reading freed memory; and a segment or buffer whose own Arena is closed, or that
 * another thread's confined Arena owns, cannot be passed in.
 *
 * <p>Thread-safe, {@link #close()} included: a close waits for calls in flight; later calls throw
 * {@link StoreClosedException}. Not found: a byte[] result is null, a length is {@link #NOT_FOUND}.
 */
public final class FfmStore implements AutoCloseable {
  /** The length a copying get returns for a key that has no value. */
  public static final int NOT_FOUND = -1;

  private static final StoreAccess ACCESS = StoreAccess.get();

  /**
   * The store read: its Cleaner frees {@link #handle} once it is unreachable, so each read of this
   * class ends with a reachability fence on this.
   */
  private final Store store;

  /** store's pinget_store*. */
  private final MemorySegment handle;

  private FfmStore(Store store) {
    this.store = store;
    this.handle = MemorySegment.ofAddress(store.nativeHandle());
  }

  /**
   * Opens (or creates) the database at path with default {@link Options}.
   *
   * @param path not null
   * @return the open store; close it when done
   */
  public static FfmStore open(Path path) {
    return open(path, new Options());
  }

  /**
   * Opens (or creates, per options) the database at path, as {@link Store#open(Path, Options)}.
   *
   * @param path not null
   * @param options not null
   * @return the open store; close it when done
   * @throws IllegalArgumentException for a bad option or a name that is not valid UTF-16
   * @throws PingetException if RocksDB cannot open it
   */
  public static FfmStore open(Path path, Options options) {
    return new FfmStore(Store.open(path, options));
  }

  /**
   * The FFM door onto a store pinget opened: both read the same database, and closing either closes
   * it.
   *
   * @param store not null; opened by pinget ({@link Store#open}), not lent by a RocksJavaReader
   * @return a door reading through store
   * @throws IllegalArgumentException for a RocksJavaReader's store: only the JNI door checks, on
   *     every call, that RocksJava has not closed the database or column family it reads
   */
  public static FfmStore over(Store store) {
    Objects.requireNonNull(store, "store");
    if (ACCESS.borrowsItsDatabase(store)) {
      throw new IllegalArgumentException(
          "the store reads a RocksJava database: read it through the JNI API");
    }
    return new FfmStore(store);
  }

  /**
   * The store read: its writes, snapshots and column families are this door's.
   *
   * @return the store
   */
  public Store store() {
    return store;
  }

  /** The native pinget_store*, for this package's views. */
  MemorySegment handle() {
    return handle;
  }

  /** The first check of every call: a closed store. */
  void checkOpen() {
    if (store.isClosed()) {
      throw new StoreClosedException("Closed: store is closed");
    }
  }

  /** A single-key read's first checks, in the contract's order: the store, options, key. */
  void checkRead(ReadOptions options, byte[] key) {
    checkOpen();
    Checks.options(options);
    Checks.key(key, 0, key == null ? 0 : key.length);
  }

  /**
   * Waits for calls in flight, then closes the database; pinned values still held keep it open
   * until they go. Idempotent.
   */
  @Override
  public void close() {
    store.close();
  }

  /**
   * Whether the store is closed.
   *
   * @return true once closed
   */
  public boolean isClosed() {
    return store.isClosed();
  }

  /**
   * A column family, by name: {@link Store#columnFamily(String)}.
   *
   * @param name not null, valid UTF-16
   * @return the column family, for reads and writes through this door or the store
   * @throws IllegalArgumentException if the store has no such column family
   */
  public ColumnFamily columnFamily(String name) {
    return store.columnFamily(name);
  }

  /**
   * A consistent read view of the database as it is now: {@link Store#snapshot()}.
   *
   * @return the snapshot; close it when done (it keeps the database open)
   */
  public Snapshot snapshot() {
    return store.snapshot();
  }

  /**
   * Writes key's value into the default column family: {@link Store#put(byte[], byte[])}.
   *
   * @param key not null, not empty
   * @param value not null
   */
  public void put(byte[] key, byte[] value) {
    store.put(key, value);
  }

  /**
   * Writes key's value into the options' column family.
   *
   * @param options not null
   * @param key not null, not empty
   * @param value not null
   */
  public void put(WriteOptions options, byte[] key, byte[] value) {
    store.put(options, key, 0, length(key), value, 0, length(value));
  }

  /**
   * Deletes key's value from the default column family, if any.
   *
   * @param key not null, not empty
   */
  public void delete(byte[] key) {
    store.delete(key);
  }

  /**
   * Deletes key's value from the options' column family, if any.
   *
   * @param options not null
   * @param key not null, not empty
   */
  public void delete(WriteOptions options, byte[] key) {
    store.delete(options, key, 0, length(key));
  }

  /**
   * Applies every operation of batch atomically: {@link Store#write(WriteOptions, WriteBatch)}.
   *
   * @param options not null
   * @param batch not null, not closed; its column families are the store's
   */
  public void write(WriteOptions options, WriteBatch batch) {
    store.write(options, batch);
  }

  private static int length(byte[] bytes) {
    return bytes == null ? 0 : bytes.length;
  }

  /** Writes the default column family's memtable to an SST file and waits for it. */
  public void flush() {
    store.flush();
  }

  /**
   * Writes a column family's memtable to an SST file and waits for it.
   *
   * @param columnFamily not null; of the store
   */
  public void flush(ColumnFamily columnFamily) {
    store.flush(columnFamily);
  }

  /** Compacts the default column family's whole key range and waits for it. */
  public void compact() {
    store.compact();
  }

  /**
   * Compacts a column family's whole key range and waits for it.
   *
   * @param columnFamily not null; of the store
   */
  public void compact(ColumnFamily columnFamily) {
    store.compact(columnFamily);
  }

  // ---- reads. Each checks the store, then its arguments, then the options' content (begin),
  // then makes one downcall with the native twin of the options.

  /**
   * The options' content for one read, last of the checks: the column family's id in the store, the
   * snapshot held until {@link #end}; then the native options.
   */
  MemorySegment begin(ReadOptions options, Slots slots) {
    long snapshot = ACCESS.begin(options, store);
    if (options == ReadOptions.DEFAULT) {
      return MemorySegment.NULL; // C's defaults
    }
    try {
      return slots.readOptions(ACCESS.flags(options), ACCESS.columnFamily(options), snapshot);
    } catch (RuntimeException | Error e) {
      ACCESS.end(options);
      throw e;
    }
  }

  static void end(ReadOptions options) {
    ACCESS.end(options);
  }

  /**
   * string_copy: the value copied by RocksDB into this thread's native string (pinget_string_copy:
   * 1 copy, no allocation once warm), then into a new array: 2 copies, one allocation.
   *
   * @param key not null, not empty
   * @return a new array, or null if key has no value
   */
  public byte[] stringCopy(byte[] key) {
    return stringCopy(ReadOptions.DEFAULT, key);
  }

  /**
   * string_copy with read options.
   *
   * @param options not null
   * @param key not null, not empty
   * @return a new array, or null if key has no value
   */
  public byte[] stringCopy(ReadOptions options, byte[] key) {
    checkRead(options, key);
    Slots slots = Slots.ofThisThread();
    MemorySegment ro = begin(options, slots);
    try {
      int code =
          (int)
              Native.STRING_COPY.invokeExact(
                  handle,
                  ro,
                  slots.key(key),
                  (long) key.length,
                  slots.pointer,
                  slots.size,
                  slots.message);
      if (code == Native.NOT_FOUND) {
        return null;
      }
      Native.check(code, slots.message);
      // Lent until this thread's next string_copy: copied out at once, never freed here.
      return toArray(slots.pointer.get(ADDRESS, 0).reinterpret(slots.size()));
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      end(options);
      Reference.reachabilityFence(this); // and so store, whose Cleaner frees handle
    }
  }

  /**
   * A new array holding value's bytes: one copy and one allocation, counted.
   *
   * @throws PingetException NOT_SUPPORTED for a value of 2 GiB or more
   */
  static byte[] toArray(MemorySegment value) throws Throwable {
    if (value.byteSize() > Integer.MAX_VALUE - 8) {
      throw new PingetException(
          PingetException.Code.NOT_SUPPORTED,
          "NotSupported: a value of " + value.byteSize() + " bytes does not fit a Java array");
    }
    byte[] out = value.toArray(JAVA_BYTE);
    Native.RECORD_ALLOCATION.invokeExact();
    Native.RECORD_VALUE_COPY.invokeExact(value.byteSize());
    return out;
  }

  /**
   * pinnable_copy: the value pinned (P copies), then copied into a new array: P + 1 copies, one
   * allocation.
   *
   * @param key not null, not empty
   * @return a new array, or null if key has no value
   */
  public byte[] pinnableCopy(byte[] key) {
    return pinnableCopy(ReadOptions.DEFAULT, key);
  }

  /**
   * pinnable_copy with read options.
   *
   * @param options not null
   * @param key not null, not empty
   * @return a new array, or null if key has no value
   */
  public byte[] pinnableCopy(ReadOptions options, byte[] key) {
    checkRead(options, key);
    Slots slots = Slots.ofThisThread();
    MemorySegment ro = begin(options, slots);
    try {
      MemorySegment pinned = slots.pinned();
      int code = slots.pin(handle, ro, key, pinned);
      if (code == Native.NOT_FOUND) {
        return null;
      }
      Native.check(code, slots.message);
      try {
        return toArray(slots.pointer.get(ADDRESS, 0).reinterpret(slots.size()));
      } finally {
        // The pin lasts this call only, and the thread's handle lets go of the database too: a
        // plain release kept it referenced, so a closed store's database stayed open (its LOCK
        // held) until this thread's next pinnableCopy.
        Native.PINNED_RELEASE_DETACHED.invokeExact(pinned);
      }
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      end(options);
      Reference.reachabilityFence(this); // and so store, whose Cleaner frees handle
    }
  }

  /**
   * buffer_copy: copies min(size, len) bytes of the value into dst[off..]: P + 1 copies, no
   * allocation.
   *
   * @param key not null, not empty
   * @param dst not null
   * @param off where in dst
   * @param len room in dst
   * @return the value's full size (more than len: dst was too small), or {@link #NOT_FOUND}
   */
  public int bufferCopy(byte[] key, byte[] dst, int off, int len) {
    return bufferCopy(ReadOptions.DEFAULT, key, dst, off, len);
  }

  /**
   * buffer_copy with read options.
   *
   * @param options not null
   * @param key not null, not empty
   * @param dst not null
   * @param off where in dst
   * @param len room in dst
   * @return the value's full size (more than len: dst was too small), or {@link #NOT_FOUND}
   */
  public int bufferCopy(ReadOptions options, byte[] key, byte[] dst, int off, int len) {
    checkRead(options, key);
    Checks.range(dst, off, len, "dst");
    Slots slots = Slots.ofThisThread();
    MemorySegment all = slots.dst(dst);
    return intSize(
        copy(options, key, off == 0 && len == dst.length ? all : all.asSlice(off, len), slots));
  }

  /**
   * direct_copy: as {@link #bufferCopy} into dst from its position to its limit; the position does
   * not move.
   *
   * @param key not null, not empty
   * @param dst a direct, writable buffer; not null
   * @return the value's full size (more than dst.remaining(): too small), or {@link #NOT_FOUND}
   */
  public int directCopy(byte[] key, ByteBuffer dst) {
    return directCopy(ReadOptions.DEFAULT, key, dst);
  }

  /**
   * direct_copy with read options. A heap buffer is refused (IllegalArgumentException), as in the
   * JNI API; one whose Arena is closed throws IllegalStateException, one of another thread's
   * confined Arena WrongThreadException.
   *
   * @param options not null
   * @param key not null, not empty
   * @param dst a direct, writable buffer; not null
   * @return the value's full size (more than dst.remaining(): too small), or {@link #NOT_FOUND}
   */
  public int directCopy(ReadOptions options, byte[] key, ByteBuffer dst) {
    checkRead(options, key);
    Checks.directOfAnyScope(dst, "dst");
    Slots slots = Slots.ofThisThread();
    MemorySegment segment = slots.dst(dst);
    checkUsable(segment, "dst");
    if (dst.isReadOnly()) {
      throw new ReadOnlyBufferException();
    }
    return intSize(copy(options, key, segment, slots));
  }

  /**
   * direct_copy into a segment: as {@link #bufferCopy} into all of dst.
   *
   * @param key not null, not empty
   * @param dst not null, writable
   * @return the value's full size (more than dst.byteSize(): too small), or {@link #NOT_FOUND}
   */
  public long copyInto(byte[] key, MemorySegment dst) {
    return copyInto(ReadOptions.DEFAULT, key, dst);
  }

  /**
   * direct_copy into a segment, with read options. A segment of a closed Arena throws
   * IllegalStateException; one that another thread's confined Arena owns, WrongThreadException.
   *
   * @param options not null
   * @param key not null, not empty
   * @param dst not null, writable
   * @return the value's full size (more than dst.byteSize(): too small), or {@link #NOT_FOUND}
   */
  public long copyInto(ReadOptions options, byte[] key, MemorySegment dst) {
    checkRead(options, key);
    Objects.requireNonNull(dst, "dst");
    checkUsable(dst, "dst");
    if (dst.isReadOnly()) {
      throw new IllegalArgumentException("dst is read-only");
    }
    return copy(options, key, dst, Slots.ofThisThread());
  }

  /** Refuses a segment of a closed Arena, or of another thread's confined one, as Java would. */
  private static void checkUsable(MemorySegment segment, String what) {
    if (!segment.scope().isAlive()) {
      throw new IllegalStateException(what + ": already closed (the Arena behind it is closed)");
    }
    if (!segment.isAccessibleBy(Thread.currentThread())) {
      throw new WrongThreadException(what + ": its confined Arena belongs to another thread");
    }
  }

  /** The copy into dst, arguments checked, with this thread's slots: P + 1 copies. */
  private long copy(ReadOptions options, byte[] key, MemorySegment dst, Slots slots) {
    MemorySegment ro = begin(options, slots);
    try {
      int code =
          (int)
              Native.BUFFER_COPY.invokeExact(
                  handle,
                  ro,
                  slots.key(key), // see Slots.key
                  (long) key.length,
                  dst,
                  dst.byteSize(),
                  slots.size,
                  slots.message);
      if (code == Native.NOT_FOUND) {
        return NOT_FOUND;
      }
      Native.check(code, slots.message);
      return slots.size();
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      end(options);
      Reference.reachabilityFence(this); // and so store, whose Cleaner frees handle
    }
  }

  private static int intSize(long size) {
    if (size > Integer.MAX_VALUE) {
      throw new PingetException(
          PingetException.Code.NOT_SUPPORTED,
          "NotSupported: a value of " + size + " bytes does not fit an int");
    }
    return (int) size;
  }

  /**
   * direct_copy per key over RocksDB's MultiGet: copies value i into dsts[i] from its position to
   * its limit (neither moves) and sets sizes[i] to its full size, or {@link #NOT_FOUND}. The
   * store's own batch ({@link Store#multiGetDirectCopy}: one JNI call, P + 1 copies per found key,
   * no allocation): a batch of copies into Java's buffers has nothing for this door to add. Every
   * key is read; then the first per-key error other than not-found, if any, is thrown. A batch
   * refused by its checks reads nothing and leaves every size at -1.
   *
   * @param options not null
   * @param keys not null, no element null or empty
   * @param dsts not null, as long as keys, each a direct, writable buffer of an open Arena that
   *     this thread may touch
   * @param sizes not null, at least as long as keys
   */
  public void multiGetDirectCopy(
      ReadOptions options, byte[][] keys, ByteBuffer[] dsts, int[] sizes) {
    store.multiGetDirectCopy(options, keys, dsts, sizes);
  }

  /**
   * buffer_copy per key over RocksDB's MultiGet: copies value i into dsts[i] (from 0, at most its
   * length) and sets sizes[i] to its full size, or {@link #NOT_FOUND}. The store's own batch
   * ({@link Store#multiGetBufferCopy}: one JNI call, P + 1 copies per found key, no allocation;
   * through a C call a heap array would cost one more copy). Every key is read; then the first
   * per-key error other than not-found, if any, is thrown. A batch refused by its checks reads
   * nothing and leaves every size at -1.
   *
   * @param options not null
   * @param keys not null, no element null or empty
   * @param dsts not null, as long as keys, no element null
   * @param sizes not null, at least as long as keys
   */
  public void multiGetBufferCopy(ReadOptions options, byte[][] keys, byte[][] dsts, int[] sizes) {
    store.multiGetBufferCopy(options, keys, dsts, sizes);
  }

  // ---- decode on read: the decoder reads the pinned value in place. P copies.

  /**
   * Gets key's value and decodes it in one step, with {@link ReadOptions#DEFAULT}: see {@link
   * #get(ReadOptions, byte[], SegmentDecoder)}.
   *
   * @param key not null, not empty
   * @param decoder not null; not called for a missing key
   * @param <T> what the value becomes
   * @return what decoder returned, or null if key has no value
   */
  public <T> T get(byte[] key, SegmentDecoder<T> decoder) {
    return get(ReadOptions.DEFAULT, key, decoder);
  }

  /**
   * Gets key's value and decodes it in one step, in one downcall for a value of up to 1 KiB: that
   * is copied into this thread's native buffer (P + 1 copies), a larger one is pinned (P copies: 0
   * from the block cache) and released after the decoder with a second downcall. The value is lent
   * to decoder as a read-only segment whose scope closes when decoder returns or throws; the scope
   * (a confined Arena and the segment) is allocated per call. {@link SegmentDecoders#bytes()}'s
   * value is pinned, then copied once by it. A segment, slice or buffer the decoder keeps throws
   * IllegalStateException when read later: it never reads freed memory. Whatever decoder throws
   * reaches the caller unchanged. Checks: this store, options, the key, decoder (null), then the
   * options' content.
   *
   * @param options not null
   * @param key not null, not empty
   * @param decoder not null; not called for a missing key
   * @param <T> what the value becomes
   * @return what decoder returned, or null if key has no value
   */
  public <T> T get(ReadOptions options, byte[] key, SegmentDecoder<T> decoder) {
    return FfmDecoding.get(this, options, key, decoder);
  }

  /**
   * As {@link #get(byte[], SegmentDecoder)}, decoding to a primitive long (no boxing).
   *
   * @param key not null, not empty
   * @param decoder not null; not called for a missing key
   * @param missing what to return for a missing key
   * @return what decoder returned, or missing if key has no value
   */
  public long getLong(byte[] key, LongSegmentDecoder decoder, long missing) {
    return getLong(ReadOptions.DEFAULT, key, decoder, missing);
  }

  /**
   * As {@link #get(ReadOptions, byte[], SegmentDecoder)}, decoding to a primitive long (no boxing).
   *
   * @param options not null
   * @param key not null, not empty
   * @param decoder not null; not called for a missing key
   * @param missing what to return for a missing key
   * @return what decoder returned, or missing if key has no value
   */
  public long getLong(ReadOptions options, byte[] key, LongSegmentDecoder decoder, long missing) {
    return FfmDecoding.getLong(this, options, key, decoder, missing);
  }

  /**
   * Batched decode on read over RocksDB's MultiGet: pins every key's value (P copies per found key)
   * in one downcall, then sets out[i] to decoder's result for value i, in key order, or null for a
   * key not found or whose read failed; then closes the values' scope and releases every pin. Each
   * value is a read-only segment valid during its decoder call only: one kept throws
   * IllegalStateException when read later. The batch rule holds: every key is read and decoded,
   * then the first per-key error is thrown; a batch refused by its checks (this store, options,
   * keys, decoder, out, then the options' content) reads nothing and leaves every element of out
   * null. If decoder throws, its exception reaches the caller unchanged after the pins are
   * released; out holds the values decoded before it. One native batch per thread, reused: no
   * native allocation once warm; each value's segment is a Java object.
   *
   * @param options not null
   * @param keys not null, no element null or empty
   * @param decoder not null; called only for found values
   * @param out not null, at least as long as keys
   * @param <T> what the values become
   */
  public <T> void multiGet(
      ReadOptions options, byte[][] keys, SegmentDecoder<? extends T> decoder, T[] out) {
    FfmDecoding.BatchSlot.read(this, options, keys, decoder, out, 0)
        .decodeAll(decoder, SegmentDecoder::decode, out, this);
  }

  /**
   * As {@link #multiGet(ReadOptions, byte[][], SegmentDecoder, Object[])}, decoding to primitive
   * longs: out[i] is decoder's result for value i, or missing for a key not found or whose read
   * failed (and, after a refusal, every element of out).
   *
   * @param options not null
   * @param keys not null, no element null or empty
   * @param decoder not null; called only for found values
   * @param missing the result of a key not found or failed
   * @param out not null, at least as long as keys
   */
  public void multiGetLong(
      ReadOptions options, byte[][] keys, LongSegmentDecoder decoder, long missing, long[] out) {
    FfmDecoding.BatchSlot.read(this, options, keys, decoder, out, missing)
        .decodeAllLongs(decoder, LongSegmentDecoder::decode, out, this);
  }

  /**
   * A cursor over the entries of the options' column family in their range: see {@link FfmCursor}.
   *
   * @param options not null
   * @return a new cursor, not yet positioned; close it when done (it holds a snapshot)
   */
  public FfmCursor newCursor(CursorOptions options) {
    checkOpen();
    Checks.options(options);
    // The cursor's snapshot (if any) is held for its life: the Cleaner or close() ends it.
    MemorySegment ro = begin(options.readOptions(), Slots.ofThisThread());
    try {
      return new FfmCursor(this, options, ro);
    } catch (RuntimeException | Error e) {
      end(options.readOptions());
      throw e;
    }
  }

  /**
   * A cursor over every entry of the default column family.
   *
   * @return a new cursor, not yet positioned; close it when done
   */
  public FfmCursor newCursor() {
    return newCursor(CursorOptions.DEFAULT);
  }

  /**
   * A reusable batch of pinned values (batched pinned_view): see {@link FfmPinnedBatch}.
   *
   * @return a new batch; close it when done
   * @throws StoreClosedException if the store is closed
   */
  public FfmPinnedBatch newPinnedBatch() {
    checkOpen();
    return new FfmPinnedBatch(this);
  }

  /**
   * A reusable pinned view (pinned_view): see {@link FfmPinnedView}.
   *
   * @return a new view; close it when done
   * @throws StoreClosedException if the store is closed
   */
  public FfmPinnedView newPinnedView() {
    checkOpen();
    return new FfmPinnedView(this);
  }
}
