// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A pinget store through Java's Foreign Function &amp; Memory API (Java 22+): the strategies of
 * {@code io.pinget.Store}, with its names and copy counts, over pinget's C API, in the same native
 * library (and the same per-thread copy counters: read them with {@code io.pinget.CopyStats}).
 *
 * <p>What this binding adds is enforcement: a pinned value is a read-only {@link MemorySegment}
 * whose scope closes when the pin goes ({@link FfmPinnedView}), so reading it, a slice of it or a
 * {@code ByteBuffer} made from it afterwards throws IllegalStateException instead of reading freed
 * memory; and a segment or buffer whose own Arena is closed cannot be passed in.
 *
 * <p>Thread-safe, {@link #close()} included: a close waits for calls in flight; later calls throw
 * {@code io.pinget.StoreClosedException}. Not found: a byte[] result is null, a length is {@link
 * #NOT_FOUND}.
 */
public final class FfmStore implements AutoCloseable {
  /** The length a copying get returns for a key that has no value. */
  public static final int NOT_FOUND = -1;

  /** The native pinget_store*; freed by the Cleaner once this store is unreachable. */
  private final MemorySegment handle;

  private volatile boolean closed;

  private FfmStore(MemorySegment handle) {
    this.handle = handle;
    // Destroyed only when nothing can call it any more; close() just closes the database.
    Native.destroyWhenUnreachable(this, Native.STORE_DESTROY, handle);
  }

  /**
   * Opens (or creates) the database at path with pinget's defaults.
   *
   * @param path not null
   * @return the open store; close it when done
   */
  public static FfmStore open(Path path) {
    return open(path, new FfmOptions());
  }

  /**
   * Opens (or creates, per options) the database at path.
   *
   * @param path not null
   * @param options not null
   * @return the open store; close it when done
   * @throws IllegalArgumentException for a bad option
   * @throws io.pinget.PingetException if RocksDB cannot open it
   */
  public static FfmStore open(Path path, FfmOptions options) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(options, "options");
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment message = arena.allocate(ADDRESS);
      MemorySegment out = arena.allocate(ADDRESS);
      Native.check((int) Native.OPTIONS_CREATE.invokeExact(out, message), message);
      MemorySegment cOptions = out.get(ADDRESS, 0);
      try {
        options.applyTo(cOptions, message);
        MemorySegment cPath = arena.allocateFrom(path.toString());
        Native.check((int) Native.OPEN.invokeExact(cPath, cOptions, out, message), message);
        return new FfmStore(out.get(ADDRESS, 0));
      } finally {
        Native.OPTIONS_DESTROY.invokeExact(cOptions);
      }
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** The native pinget_store*, for this package's views. */
  MemorySegment handle() {
    return handle;
  }

  /**
   * Waits for calls in flight, then closes the database; pinned values still held keep it open
   * until they go. Idempotent.
   */
  @Override
  public void close() {
    closed = true;
    Slots slots = Slots.ofThisThread();
    try {
      Native.check((int) Native.CLOSE.invokeExact(handle, slots.message), slots.message);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /**
   * Writes key's value (both copied into native memory for the call: a write may block, and a heap
   * array may not be held in place while it does).
   *
   * @param key not null, not empty
   * @param value not null
   */
  public void put(byte[] key, byte[] value) {
    put(0, key, value);
  }

  /**
   * Writes key's value in a column family.
   *
   * @param columnFamily from {@link #columnFamilyId}; 0 is "default"
   * @param key not null, not empty
   * @param value not null
   */
  public void put(int columnFamily, byte[] key, byte[] value) {
    put(FfmWriteOptions.DEFAULT, columnFamily, key, value);
  }

  /**
   * Writes key's value in a column family, with write options.
   *
   * @param options not null
   * @param columnFamily from {@link #columnFamilyId}; 0 is "default"
   * @param key not null, not empty
   * @param value not null
   */
  public void put(FfmWriteOptions options, int columnFamily, byte[] key, byte[] value) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment k = arena.allocateFrom(JAVA_BYTE, key);
      MemorySegment v =
          value.length == 0 ? arena.allocate(1) : arena.allocateFrom(JAVA_BYTE, value);
      MemorySegment message = arena.allocate(ADDRESS);
      int code =
          (int)
              Native.PUT.invokeExact(
                  handle,
                  options.handle(),
                  columnFamily,
                  k,
                  (long) key.length,
                  v,
                  (long) value.length,
                  message);
      Native.check(code, message);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /**
   * Deletes key's value, if any.
   *
   * @param key not null, not empty
   */
  public void delete(byte[] key) {
    delete(0, key);
  }

  /**
   * Deletes key's value in a column family, if any.
   *
   * @param columnFamily from {@link #columnFamilyId}; 0 is "default"
   * @param key not null, not empty
   */
  public void delete(int columnFamily, byte[] key) {
    delete(FfmWriteOptions.DEFAULT, columnFamily, key);
  }

  /**
   * Deletes key's value in a column family, if any, with write options.
   *
   * @param options not null
   * @param columnFamily from {@link #columnFamilyId}; 0 is "default"
   * @param key not null, not empty
   */
  public void delete(FfmWriteOptions options, int columnFamily, byte[] key) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(key, "key");
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment k = arena.allocateFrom(JAVA_BYTE, key);
      MemorySegment message = arena.allocate(ADDRESS);
      int code =
          (int)
              Native.DELETE.invokeExact(
                  handle, options.handle(), columnFamily, k, (long) key.length, message);
      Native.check(code, message);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /**
   * Applies every operation of batch atomically, or none (a bad operation:
   * IllegalArgumentException).
   *
   * @param options not null
   * @param batch not null, not closed
   */
  public void write(FfmWriteOptions options, FfmWriteBatch batch) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(batch, "batch");
    Slots slots = Slots.ofThisThread();
    try {
      Native.check(
          (int) Native.WRITE.invokeExact(handle, options.handle(), batch.handle(), slots.message),
          slots.message);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** Writes the default column family's memtable to an SST file and waits for it. */
  public void flush() {
    flush(0);
  }

  /**
   * Writes a column family's memtable to an SST file and waits for it.
   *
   * @param columnFamily from {@link #columnFamilyId}
   */
  public void flush(int columnFamily) {
    callOnFamily(Native.FLUSH, columnFamily);
  }

  /** Compacts the default column family's whole key range and waits for it. */
  public void compact() {
    compact(0);
  }

  /**
   * Compacts a column family's whole key range and waits for it.
   *
   * @param columnFamily from {@link #columnFamilyId}
   */
  public void compact(int columnFamily) {
    callOnFamily(Native.COMPACT, columnFamily);
  }

  /** Calls a {@code pinget_code f(pinget_store*, uint32_t column_family, char** message)}. */
  private void callOnFamily(MethodHandle function, int columnFamily) {
    Slots slots = Slots.ofThisThread();
    try {
      Native.check((int) function.invokeExact(handle, columnFamily, slots.message), slots.message);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /**
   * string_copy: the value copied by C into a buffer of its own (P + 1), then into a new array (+
   * 1): P + 2 copies, two allocations (the C buffer is freed at once).
   *
   * @param key not null, not empty
   * @return a new array, or null if key has no value
   */
  public byte[] stringCopy(byte[] key) {
    return stringCopy(FfmReadOptions.DEFAULT, key);
  }

  /**
   * string_copy with read options.
   *
   * @param options not null
   * @param key not null, not empty
   * @return a new array, or null if key has no value
   */
  public byte[] stringCopy(FfmReadOptions options, byte[] key) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(key, "key");
    Slots slots = Slots.ofThisThread();
    MemorySegment ro = options.acquire(this);
    try {
      int code =
          (int)
              Native.GET.invokeExact(
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
      if (code != Native.OK) {
        throw Native.error(code, slots.message);
      }
      MemorySegment value = slots.pointer.get(ADDRESS, 0).reinterpret(slots.size());
      try {
        return toArray(value);
      } finally {
        Native.free(value);
      }
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      options.release();
    }
  }

  /**
   * A new array holding value's bytes: one copy and one allocation, counted.
   *
   * @throws io.pinget.PingetException NOT_SUPPORTED for a value of 2 GiB or more
   */
  static byte[] toArray(MemorySegment value) throws Throwable {
    if (value.byteSize() > Integer.MAX_VALUE - 8) {
      throw new io.pinget.PingetException(
          io.pinget.PingetException.Code.NOT_SUPPORTED,
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
    return pinnableCopy(FfmReadOptions.DEFAULT, key);
  }

  /**
   * pinnable_copy with read options.
   *
   * @param options not null
   * @param key not null, not empty
   * @return a new array, or null if key has no value
   */
  public byte[] pinnableCopy(FfmReadOptions options, byte[] key) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(key, "key");
    Slots slots = Slots.ofThisThread();
    MemorySegment ro = options.acquire(this);
    try {
      MemorySegment pinned = slots.pinned();
      int code =
          (int)
              Native.GET_PINNED.invokeExact(
                  handle,
                  ro,
                  slots.key(key),
                  (long) key.length,
                  pinned,
                  slots.pointer,
                  slots.size,
                  slots.message);
      if (code == Native.NOT_FOUND) {
        return null;
      }
      Native.check(code, slots.message);
      try {
        return toArray(slots.pointer.get(ADDRESS, 0).reinterpret(slots.size()));
      } finally {
        Native.PINNED_RELEASE.invokeExact(pinned); // the pin lasts this call only
      }
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      options.release();
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
    return bufferCopy(FfmReadOptions.DEFAULT, key, dst, off, len);
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
  public int bufferCopy(FfmReadOptions options, byte[] key, byte[] dst, int off, int len) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(dst, "dst");
    Objects.checkFromIndexSize(off, len, dst.length);
    return copyIntoInt(options, key, MemorySegment.ofArray(dst).asSlice(off, len));
  }

  /**
   * direct_copy: as {@link #bufferCopy} into dst from its position to its limit; the position does
   * not move. A buffer made from a segment whose Arena is closed throws IllegalStateException.
   *
   * @param key not null, not empty
   * @param dst not null, writable
   * @return the value's full size (more than dst.remaining(): too small), or {@link #NOT_FOUND}
   */
  public int directCopy(byte[] key, ByteBuffer dst) {
    return directCopy(FfmReadOptions.DEFAULT, key, dst);
  }

  /**
   * direct_copy with read options.
   *
   * @param options not null
   * @param key not null, not empty
   * @param dst not null, writable
   * @return the value's full size (more than dst.remaining(): too small), or {@link #NOT_FOUND}
   */
  public int directCopy(FfmReadOptions options, byte[] key, ByteBuffer dst) {
    Objects.requireNonNull(dst, "dst");
    if (dst.isReadOnly()) {
      throw new ReadOnlyBufferException();
    }
    return copyIntoInt(options, key, MemorySegment.ofBuffer(dst));
  }

  /**
   * direct_copy into a segment: as {@link #bufferCopy} into all of dst. A segment of a closed Arena
   * throws IllegalStateException; one that another thread's confined Arena owns,
   * WrongThreadException.
   *
   * @param key not null, not empty
   * @param dst not null, writable
   * @return the value's full size (more than dst.byteSize(): too small), or {@link #NOT_FOUND}
   */
  public long copyInto(byte[] key, MemorySegment dst) {
    return copyInto(FfmReadOptions.DEFAULT, key, dst);
  }

  /**
   * direct_copy into a segment, with read options.
   *
   * @param options not null
   * @param key not null, not empty
   * @param dst not null, writable
   * @return the value's full size (more than dst.byteSize(): too small), or {@link #NOT_FOUND}
   */
  public long copyInto(FfmReadOptions options, byte[] key, MemorySegment dst) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(dst, "dst");
    if (dst.isReadOnly()) {
      throw new IllegalArgumentException("dst is read-only");
    }
    Slots slots = Slots.ofThisThread();
    MemorySegment ro = options.acquire(this);
    try {
      int code =
          (int)
              Native.GET_INTO.invokeExact(
                  handle,
                  ro,
                  MemorySegment.ofArray(key),
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
      options.release();
    }
  }

  private int copyIntoInt(FfmReadOptions options, byte[] key, MemorySegment dst) {
    long size = copyInto(options, key, dst);
    if (size > Integer.MAX_VALUE) {
      throw new io.pinget.PingetException(
          io.pinget.PingetException.Code.NOT_SUPPORTED,
          "NotSupported: a value of " + size + " bytes does not fit an int");
    }
    return (int) size;
  }

  /**
   * The id of a column family named in {@link FfmOptions#columnFamilies} ("default" is 0).
   *
   * @param name not null
   * @return its id, for reads ({@link FfmReadOptions#withColumnFamily}) and writes
   * @throws IllegalArgumentException if the store has no such column family
   */
  public int columnFamilyId(String name) {
    Objects.requireNonNull(name, "name");
    byte[] utf8 = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment n = arena.allocate(Math.max(1, utf8.length));
      MemorySegment.copy(utf8, 0, n, JAVA_BYTE, 0, utf8.length);
      MemorySegment id = arena.allocate(JAVA_INT);
      MemorySegment message = arena.allocate(ADDRESS);
      int code =
          (int) Native.COLUMN_FAMILY_ID.invokeExact(handle, n, (long) utf8.length, id, message);
      if (code == Native.NOT_FOUND) {
        throw new IllegalArgumentException("no column family named " + name);
      }
      Native.check(code, message);
      return id.get(JAVA_INT, 0);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /**
   * A consistent read view of the database as it is now.
   *
   * @return the snapshot; close it when done (it keeps the database open)
   */
  public FfmSnapshot snapshot() {
    Slots slots = Slots.ofThisThread();
    try {
      Native.check(
          (int) Native.SNAPSHOT_CREATE.invokeExact(handle, slots.pointer, slots.message),
          slots.message);
      return new FfmSnapshot(this, slots.pointer.get(ADDRESS, 0));
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /**
   * direct_copy per key over RocksDB's MultiGet: copies value i into dsts[i] from its position to
   * its limit (neither moves) and sets sizes[i] to its full size, or {@link #NOT_FOUND}. P + 1
   * copies per found key. Every key is read; then the first per-key error other than not-found, if
   * any, is thrown.
   *
   * @param options not null
   * @param keys not null, no element null or empty
   * @param dsts not null, as long as keys, each a writable direct buffer
   * @param sizes not null, at least as long as keys
   */
  public void multiGetDirectCopy(
      FfmReadOptions options, byte[][] keys, ByteBuffer[] dsts, int[] sizes) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(dsts, "dsts");
    Objects.requireNonNull(sizes, "sizes");
    int n = keys.length;
    if (dsts.length != n || sizes.length < n) {
      throw new IllegalArgumentException("dsts and sizes must hold keys.length elements");
    }
    long total = 0;
    for (int i = 0; i < n; i++) {
      total += Objects.requireNonNull(keys[i], "keys[i]").length;
      if (Objects.requireNonNull(dsts[i], "dsts[i]").isReadOnly()) {
        throw new ReadOnlyBufferException();
      }
    }
    try (Arena arena = Arena.ofConfined()) {
      // Per key: key address and size, destination address and capacity, value size, code.
      MemorySegment keyBytes = arena.allocate(Math.max(1, total));
      MemorySegment keyAddresses = arena.allocate(JAVA_LONG, Math.max(1, n));
      MemorySegment keySizes = arena.allocate(JAVA_LONG, Math.max(1, n));
      MemorySegment buffers = arena.allocate(JAVA_LONG, Math.max(1, n));
      MemorySegment capacities = arena.allocate(JAVA_LONG, Math.max(1, n));
      MemorySegment valueSizes = arena.allocate(JAVA_LONG, Math.max(1, n));
      MemorySegment codes = arena.allocate(JAVA_INT, Math.max(1, n));
      MemorySegment[] dstSegments = new MemorySegment[n];
      long offset = 0;
      for (int i = 0; i < n; i++) {
        MemorySegment.copy(keys[i], 0, keyBytes, JAVA_BYTE, offset, keys[i].length);
        keyAddresses.setAtIndex(JAVA_LONG, i, keyBytes.address() + offset);
        keySizes.setAtIndex(JAVA_LONG, i, keys[i].length);
        offset += keys[i].length;
        // A buffer of a closed Arena throws here; the call then keeps every scope open.
        dstSegments[i] = MemorySegment.ofBuffer(dsts[i]);
        buffers.setAtIndex(JAVA_LONG, i, dstSegments[i].address());
        capacities.setAtIndex(JAVA_LONG, i, dstSegments[i].byteSize());
      }
      MemorySegment message = arena.allocate(ADDRESS);
      MemorySegment ro = options.acquire(this);
      int code;
      try {
        code =
            callMultiGetInto(
                ro,
                n,
                keyAddresses,
                keySizes,
                buffers,
                capacities,
                valueSizes,
                codes,
                message,
                dstSegments);
      } finally {
        options.release();
      }
      for (int i = 0; i < n; i++) {
        int c = codes.getAtIndex(JAVA_INT, i);
        long size = valueSizes.getAtIndex(JAVA_LONG, i);
        sizes[i] = c == Native.OK ? (int) Math.min(size, Integer.MAX_VALUE) : NOT_FOUND;
      }
      Native.check(code == Native.NOT_FOUND ? Native.OK : code, message);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /**
   * buffer_copy per key over RocksDB's MultiGet: copies value i into dsts[i] (from 0, at most its
   * length) and sets sizes[i] to its full size, or {@link #NOT_FOUND}. A heap array cannot be lent
   * to a batched C call, so each value is copied into native memory first and then into its array:
   * P + 2 copies per found key (one more than the JNI API's), counted. Every key is read; then the
   * first per-key error other than not-found, if any, is thrown.
   *
   * @param options not null
   * @param keys not null, no element null or empty
   * @param dsts not null, as long as keys, no element null
   * @param sizes not null, at least as long as keys
   */
  public void multiGetBufferCopy(
      FfmReadOptions options, byte[][] keys, byte[][] dsts, int[] sizes) {
    Objects.requireNonNull(dsts, "dsts");
    long total = 0;
    for (byte[] d : dsts) {
      total += Objects.requireNonNull(d, "dsts[i]").length;
    }
    ByteBuffer[] staged = new ByteBuffer[dsts.length];
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment all = arena.allocate(Math.max(1, total));
      long offset = 0;
      for (int i = 0; i < dsts.length; i++) {
        staged[i] = all.asSlice(offset, dsts[i].length).asByteBuffer();
        offset += dsts[i].length;
      }
      multiGetDirectCopy(options, keys, staged, sizes);
      for (int i = 0; i < dsts.length; i++) {
        if (sizes[i] != NOT_FOUND) {
          int n = Math.min(sizes[i], dsts[i].length);
          staged[i].get(0, dsts[i], 0, n);
          Native.RECORD_VALUE_COPY.invokeExact((long) n);
        }
      }
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** The MultiGet call, with every destination's scope held open for it. */
  private int callMultiGetInto(
      MemorySegment ro,
      int n,
      MemorySegment keyAddresses,
      MemorySegment keySizes,
      MemorySegment buffers,
      MemorySegment capacities,
      MemorySegment valueSizes,
      MemorySegment codes,
      MemorySegment message,
      MemorySegment[] dsts)
      throws Throwable {
    // Buffers reach C as addresses in an array, so FFM does not hold their scopes: confirm each
    // is alive, and keep the segments reachable, across the call. A buffer whose shared Arena
    // another thread closes during the call is not protected (as with the JNI API).
    for (MemorySegment d : dsts) {
      if (!d.scope().isAlive()) {
        throw new IllegalStateException("dsts[i]: already closed");
      }
    }
    try {
      return (int)
          (n <= Native.CRITICAL_BATCH_KEYS ? Native.MULTI_GET_INTO : Native.MULTI_GET_INTO_LARGE)
              .invokeExact(
                  handle,
                  ro,
                  (long) n,
                  keyAddresses,
                  keySizes,
                  buffers,
                  capacities,
                  valueSizes,
                  codes,
                  message);
    } finally {
      java.lang.ref.Reference.reachabilityFence(dsts);
    }
  }

  /**
   * A reusable batch of pinned values (batched pinned_view): see {@link FfmPinnedBatch}.
   *
   * @return a new batch; close it when done
   * @throws io.pinget.StoreClosedException if the store is closed
   */
  public FfmPinnedBatch newPinnedBatch() {
    if (closed) {
      throw new io.pinget.StoreClosedException("Closed: the store is closed");
    }
    return new FfmPinnedBatch(this);
  }

  /**
   * A reusable pinned view (pinned_view): see {@link FfmPinnedView}.
   *
   * @return a new view; close it when done
   * @throws io.pinget.StoreClosedException if the store is closed
   */
  public FfmPinnedView newPinnedView() {
    if (closed) {
      throw new io.pinget.StoreClosedException("Closed: the store is closed");
    }
    return new FfmPinnedView(this);
  }
}
