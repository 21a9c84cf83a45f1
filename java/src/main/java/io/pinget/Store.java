// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.IntConsumer;

/**
 * A RocksDB database opened for reading values with a known number of copies (DESIGN.md).
 * Thread-safe, close() included: a close that races with calls waits for them, and later calls
 * throw {@link StoreClosedException}. Pinned values and snapshots keep the database open after
 * close() until they are closed.
 *
 * <p>Not found: a byte[] result is null, a length is {@link #NOT_FOUND} (-1), a view is null. Keys
 * are a byte[] range (copied once by JNI: one key copy) or a direct ByteBuffer from position to
 * limit (read in place). Empty keys throw IllegalArgumentException.
 */
public final class Store implements AutoCloseable {
  /** The length returned for a key that does not exist. */
  public static final int NOT_FOUND = -1;

  /** pinget::Store*; freed by the Cleaner only when no call can be using it. */
  final long handle;

  /**
   * Null for a store pinget opened. For one borrowed from RocksJava: throws IllegalStateException
   * if RocksJava has closed the database or the column family about to be read.
   */
  private final IntConsumer ownerCheck;

  private Store(long handle, IntConsumer ownerCheck) {
    this.handle = handle;
    this.ownerCheck = ownerCheck;
    Cleaners.CLEANER.register(this, () -> NativeStore.free(handle));
  }

  /** Runs before every read. */
  void checkOwner(int columnFamily) {
    if (ownerCheck != null) {
      ownerCheck.accept(columnFamily);
    }
  }

  public static Store open(Path path) {
    return open(path, new Options());
  }

  public static Store open(Path path, Options options) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(options, "options");
    byte[][] families = new byte[options.columnFamilies.size()][];
    for (int i = 0; i < families.length; i++) {
      families[i] = options.columnFamilies.get(i).getBytes(StandardCharsets.UTF_8);
    }
    int flags =
        (options.createIfMissing ? NativeStore.CREATE_IF_MISSING : 0)
            | (options.errorIfExists ? NativeStore.ERROR_IF_EXISTS : 0);
    return new Store(
        NativeStore.open(
            path.toString().getBytes(StandardCharsets.UTF_8),
            flags,
            options.blockCacheBytes,
            options.blockSize,
            options.writeBufferBytes,
            options.compression.ordinal(),
            families),
        null);
  }

  /**
   * Not for applications: the way in of {@code io.pinget.rocksjava.RocksJavaReader}, which checks
   * the RocksJava objects these handles come from. A store over a database that RocksJava opened
   * (its {@code RocksDB} and {@code ColumnFamilyHandle} native handles; column family i + 1 is
   * {@code columnFamilies[i]}, 0 the default). {@code close()} lets go of the database without
   * closing it. ownerCheck runs before every read.
   *
   * @throws UnsupportedOperationException if called from any other class
   */
  public static Store borrowRocksJava(long db, long[] columnFamilies, IntConsumer ownerCheck) {
    checkBorrower();
    Objects.requireNonNull(columnFamilies, "columnFamilies");
    Objects.requireNonNull(ownerCheck, "ownerCheck");
    return new Store(NativeStore.borrow(db, columnFamilies.clone()), ownerCheck);
  }

  /**
   * Not for applications (see {@link #borrowRocksJava}): a Snapshot over a snapshot that RocksJava
   * took of this store's database; closing it does not release RocksJava's.
   *
   * @throws UnsupportedOperationException if called from any other class
   */
  public Snapshot borrowRocksJavaSnapshot(long snapshot) {
    checkBorrower();
    try {
      return new Snapshot(NativeStore.borrowSnapshot(handle, snapshot));
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private static final String BORROWER = "io.pinget.rocksjava.RocksJavaReader";

  // Raw native handles cannot be checked here: only the class that takes them from live RocksJava
  // objects may pass them.
  private static void checkBorrower() {
    Class<?> caller =
        StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
            .walk(
                frames -> frames.skip(2).findFirst().map(StackWalker.StackFrame::getDeclaringClass))
            .orElse(null);
    if (caller == null
        || !caller.getName().equals(BORROWER)
        || caller.getClassLoader() != Store.class.getClassLoader()) {
      throw new UnsupportedOperationException("only " + BORROWER + " may borrow a database");
    }
  }

  /** The RocksDB release embedded in the JNI library ("11.8.1"). */
  public static String rocksdbVersion() {
    return NativeStore.rocksdbVersion();
  }

  /** Waits for calls in flight, then closes. Idempotent. */
  @Override
  public void close() {
    try {
      NativeStore.close(handle);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  public boolean isClosed() {
    try {
      return NativeStore.isClosed(handle);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** The id of a column family named in Options ("default" is 0), or -1. */
  public int columnFamilyId(String name) {
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    try {
      return NativeStore.columnFamilyId(handle, bytes);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** A RocksDB property of the default column family, or null. */
  public String property(String name) {
    return property(0, name);
  }

  public String property(int columnFamily, String name) {
    byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
    try {
      return NativeStore.property(handle, columnFamily, bytes);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** A consistent read view; close it when done (it keeps the database open). */
  public Snapshot snapshot() {
    try {
      return new Snapshot(NativeStore.newSnapshot(handle));
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  // ---- writes

  public void put(byte[] key, byte[] value) {
    put(WriteOptions.DEFAULT, 0, key, 0, key.length, value, 0, value.length);
  }

  public void put(
      WriteOptions options,
      int columnFamily,
      byte[] key,
      int keyOff,
      int keyLen,
      byte[] value,
      int off,
      int len) {
    Checks.range(key, keyOff, keyLen, "key");
    Checks.range(value, off, len, "value");
    try {
      NativeWrite.put(
          handle, options.flags, columnFamily, key, null, keyOff, keyLen, value, null, off, len);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Key and value are read in place from position to limit of direct buffers. */
  public void put(WriteOptions options, int columnFamily, ByteBuffer key, ByteBuffer value) {
    Checks.direct(key, "key");
    Checks.direct(value, "value");
    try {
      NativeWrite.put(
          handle,
          options.flags,
          columnFamily,
          null,
          key,
          key.position(),
          key.remaining(),
          null,
          value,
          value.position(),
          value.remaining());
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  public void delete(byte[] key) {
    delete(WriteOptions.DEFAULT, 0, key, 0, key.length);
  }

  public void delete(WriteOptions options, int columnFamily, byte[] key, int keyOff, int keyLen) {
    Checks.range(key, keyOff, keyLen, "key");
    try {
      NativeWrite.delete(handle, options.flags, columnFamily, key, null, keyOff, keyLen);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  public void delete(WriteOptions options, int columnFamily, ByteBuffer key) {
    Checks.direct(key, "key");
    try {
      NativeWrite.delete(
          handle, options.flags, columnFamily, null, key, key.position(), key.remaining());
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Applies every operation of batch atomically, or none if one is invalid. */
  public void write(WriteOptions options, WriteBatch batch) {
    Objects.requireNonNull(options, "options");
    try {
      NativeWrite.write(handle, options.flags, batch.handle());
    } finally {
      Reference.reachabilityFence(batch);
      Reference.reachabilityFence(this);
    }
  }

  /** Writes the memtable to an SST file and waits for it. */
  public void flush() {
    flush(0);
  }

  public void flush(int columnFamily) {
    try {
      NativeStore.flush(handle, columnFamily);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Compacts the column family's whole key range and waits for it. */
  public void compact() {
    compact(0);
  }

  public void compact(int columnFamily) {
    try {
      NativeStore.compact(handle, columnFamily);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  // ---- string_copy: into a std::string, then a new byte[]. 2 copies, 1 allocation.

  /** The value, or null if the key does not exist. */
  public byte[] stringCopy(byte[] key) {
    return stringCopy(ReadOptions.DEFAULT, key, null, 0, key.length);
  }

  public byte[] stringCopy(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    Checks.range(key, keyOff, keyLen, "key");
    return stringCopy(options, key, null, keyOff, keyLen);
  }

  public byte[] stringCopy(ReadOptions options, ByteBuffer key) {
    Checks.direct(key, "key");
    return stringCopy(options, null, key, key.position(), key.remaining());
  }

  private byte[] stringCopy(ReadOptions o, byte[] key, ByteBuffer keyBuffer, int off, int len) {
    checkOwner(o.columnFamily);
    long snapshot = o.acquire();
    try {
      return NativeReads.stringCopy(
          handle, key, keyBuffer, off, len, snapshot, o.columnFamily, o.flags);
    } finally {
      o.release();
      Reference.reachabilityFence(this);
    }
  }

  // ---- pinnable_copy: into a PinnableSlice, then a new byte[]. P + 1 copies, 1 allocation.

  /** The value, or null if the key does not exist. */
  public byte[] pinnableCopy(byte[] key) {
    return pinnableCopy(ReadOptions.DEFAULT, key, null, 0, key.length);
  }

  public byte[] pinnableCopy(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    Checks.range(key, keyOff, keyLen, "key");
    return pinnableCopy(options, key, null, keyOff, keyLen);
  }

  public byte[] pinnableCopy(ReadOptions options, ByteBuffer key) {
    Checks.direct(key, "key");
    return pinnableCopy(options, null, key, key.position(), key.remaining());
  }

  private byte[] pinnableCopy(ReadOptions o, byte[] key, ByteBuffer keyBuffer, int off, int len) {
    checkOwner(o.columnFamily);
    long snapshot = o.acquire();
    try {
      return NativeReads.pinnableCopy(
          handle, key, keyBuffer, off, len, snapshot, o.columnFamily, o.flags);
    } finally {
      o.release();
      Reference.reachabilityFence(this);
    }
  }

  // ---- buffer_copy: into a PinnableSlice, then dst. P + 1 copies, no allocation.

  /**
   * Copies min(size, len) bytes of the value into dst[off, off + len) and returns the value's full
   * size (so size > len means dst was too small), or {@link #NOT_FOUND}.
   */
  public int bufferCopy(byte[] key, byte[] dst, int off, int len) {
    return bufferCopy(ReadOptions.DEFAULT, key, 0, key.length, dst, off, len);
  }

  public int bufferCopy(
      ReadOptions options, byte[] key, int keyOff, int keyLen, byte[] dst, int off, int len) {
    Checks.range(key, keyOff, keyLen, "key");
    Checks.range(dst, off, len, "dst");
    return bufferCopy(options, key, null, keyOff, keyLen, dst, off, len);
  }

  public int bufferCopy(ReadOptions options, ByteBuffer key, byte[] dst, int off, int len) {
    Checks.direct(key, "key");
    Checks.range(dst, off, len, "dst");
    return bufferCopy(options, null, key, key.position(), key.remaining(), dst, off, len);
  }

  private int bufferCopy(
      ReadOptions o,
      byte[] key,
      ByteBuffer keyBuffer,
      int keyOff,
      int keyLen,
      byte[] dst,
      int off,
      int len) {
    checkOwner(o.columnFamily);
    long snapshot = o.acquire();
    try {
      return NativeReads.bufferCopy(
          handle, key, keyBuffer, keyOff, keyLen, snapshot, o.columnFamily, o.flags, dst, off, len);
    } finally {
      o.release();
      Reference.reachabilityFence(this);
    }
  }

  // ---- direct_copy: into a PinnableSlice, then dst's memory. P + 1 copies, no allocation.

  /**
   * Copies min(size, dst.remaining()) bytes of the value into a direct, writable dst at its
   * position (position and limit are left unchanged) and returns the value's full size, or {@link
   * #NOT_FOUND}.
   */
  public int directCopy(byte[] key, ByteBuffer dst) {
    Objects.requireNonNull(key, "key");
    return directCopy(ReadOptions.DEFAULT, key, 0, key.length, dst);
  }

  public int directCopy(ReadOptions options, byte[] key, int keyOff, int keyLen, ByteBuffer dst) {
    Checks.range(key, keyOff, keyLen, "key");
    Checks.writableDirect(dst, "dst");
    return directCopy(options, key, null, keyOff, keyLen, dst);
  }

  public int directCopy(ReadOptions options, ByteBuffer key, ByteBuffer dst) {
    Checks.direct(key, "key");
    Checks.writableDirect(dst, "dst");
    return directCopy(options, null, key, key.position(), key.remaining(), dst);
  }

  private int directCopy(
      ReadOptions o, byte[] key, ByteBuffer keyBuffer, int keyOff, int keyLen, ByteBuffer dst) {
    checkOwner(o.columnFamily);
    long snapshot = o.acquire();
    try {
      return NativeReads.directCopy(
          handle,
          key,
          keyBuffer,
          keyOff,
          keyLen,
          snapshot,
          o.columnFamily,
          o.flags,
          dst,
          dst.position(),
          dst.remaining());
    } finally {
      o.release();
      Reference.reachabilityFence(this);
    }
  }

  // ---- pinned_view: the caller reads pinned memory. P copies.

  /** The value pinned in a new PinnedValue (close it), or null if the key does not exist. */
  public PinnedValue pinnedView(byte[] key) {
    return PinnedValue.pin(this, ReadOptions.DEFAULT, key, null, 0, key.length);
  }

  public PinnedValue pinnedView(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    Objects.requireNonNull(options, "options");
    Checks.range(key, keyOff, keyLen, "key");
    return PinnedValue.pin(this, options, key, null, keyOff, keyLen);
  }

  public PinnedValue pinnedView(ReadOptions options, ByteBuffer key) {
    Objects.requireNonNull(options, "options");
    Checks.direct(key, "key");
    return PinnedValue.pin(this, options, null, key, key.position(), key.remaining());
  }

  /** A reusable pinned_view handle: no allocation per get. Close it when done. */
  public PinnedView newPinnedView() {
    return new PinnedView(this);
  }

  /** A reusable batched pinned_view handle. Close it when done. */
  public PinnedBatch newPinnedBatch() {
    return new PinnedBatch(this);
  }

  // ---- batched copies over RocksDB's MultiGet

  /**
   * buffer_copy per key: copies value i into dsts[i] from index 0 and sets sizes[i] to its full
   * size or -1. P + 1 copies per key, no allocation. keys and dsts have one length; sizes at least
   * as long.
   */
  public void multiGetBufferCopy(ReadOptions options, byte[][] keys, byte[][] dsts, int[] sizes) {
    checkBatch(keys, dsts, sizes);
    checkOwner(options.columnFamily);
    long snapshot = options.acquire();
    try {
      NativeReads.multiGetBufferCopy(
          handle, keys, dsts, sizes, snapshot, options.columnFamily, options.flags);
    } finally {
      options.release();
      Reference.reachabilityFence(this);
    }
  }

  /**
   * direct_copy per key: copies value i into direct, writable dsts[i] at its position (position and
   * limit unchanged) and sets sizes[i] to its full size or -1. P + 1 copies per key.
   */
  public void multiGetDirectCopy(
      ReadOptions options, byte[][] keys, ByteBuffer[] dsts, int[] sizes) {
    checkBatch(keys, dsts, sizes);
    for (ByteBuffer dst : dsts) {
      Checks.writableDirect(dst, "dst");
    }
    checkOwner(options.columnFamily);
    long snapshot = options.acquire();
    try {
      NativeReads.multiGetDirectCopy(
          handle, keys, dsts, sizes, snapshot, options.columnFamily, options.flags);
    } finally {
      options.release();
      Reference.reachabilityFence(this);
    }
  }

  private static void checkBatch(byte[][] keys, Object[] dsts, int[] sizes) {
    Objects.requireNonNull(keys, "keys");
    Objects.requireNonNull(dsts, "dsts");
    Objects.requireNonNull(sizes, "sizes");
    if (dsts.length != keys.length || sizes.length < keys.length) {
      throw new IllegalArgumentException("keys, dsts and sizes differ in length");
    }
  }
}
