// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * A RocksDB database opened for reading values with a known number of copies. Thread-safe, {@link
 * #close()} included: a close that races with calls waits for them, and later calls throw {@link
 * StoreClosedException}. Pinned values and snapshots keep the database open after close() until
 * they are closed.
 *
 * <p>Reads, one method per strategy (P is RocksDB's own copy: 0 for a value in the block cache, 1
 * otherwise): {@code stringCopy} (2 copies, 1 new array), {@code pinnableCopy} (P + 1, 1 new
 * array), {@code bufferCopy} and {@code directCopy} (P + 1 into memory the caller owns, no
 * allocation), {@code pinnedValue} and the reusable {@link PinnedView} / {@link PinnedBatch} (P:
 * the caller reads pinned memory). Keys are a byte[] range (copied once into native memory: one key
 * copy) or a direct ByteBuffer from position to limit (read in place); a key is never empty.
 *
 * <p>Not found: a byte[] result is null, a length is {@link #NOT_FOUND} (-1), a view is null; it
 * never throws. Every call checks in one order: a closed store ({@link StoreClosedException}), then
 * its arguments in the order of the signature (null → NullPointerException naming the argument,
 * ranges → IndexOutOfBoundsException, other bad values → IllegalArgumentException), then the read
 * or write options. Errors of RocksDB throw {@link PingetException}; every exception that comes
 * from a status reads "{@code <Code>: <message>}".
 *
 * <p>Batched reads ({@link #multiGetBufferCopy}, {@link #multiGetDirectCopy}, {@link
 * PinnedBatch#get}) read every key and fill every key's result (a size, or -1 when the key is not
 * found or its read failed); then, if any key failed with an error other than not-found, they throw
 * the first such error in key order. A batch of 0 keys is checked as a batch of 1 is.
 */
public final class Store implements AutoCloseable {
  /** The length returned for a key that does not exist. */
  public static final int NOT_FOUND = -1;

  /** pinget::Store*; freed by the Cleaner only when no call can be using it. */
  final long handle;

  /** Set by close(): the first check of every call. */
  private volatile boolean closed;

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

  /**
   * Opens (or creates) the database at path with default {@link Options}.
   *
   * @param path the database's folder; not null
   * @return the open store; close it when done
   * @throws PingetException (IO_ERROR, CORRUPTION, ...) if RocksDB cannot open it
   */
  public static Store open(Path path) {
    return open(path, new Options());
  }

  /**
   * Opens (or creates, per options) the database at path.
   *
   * @param path the database's folder; not null
   * @param options not null; copied
   * @return the open store; close it when done
   * @throws IllegalArgumentException if an option is out of range (the message names it and the
   *     range allowed) or a name is not valid UTF-16
   * @throws PingetException (IO_ERROR, CORRUPTION, NOT_SUPPORTED, ...) if RocksDB cannot open it
   */
  public static Store open(Path path, Options options) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(options, "options");
    byte[] where = Checks.utf8(path.toString(), "path");
    byte[][] families = new byte[options.columnFamilies.size()][];
    for (int i = 0; i < families.length; i++) {
      families[i] = Checks.utf8(options.columnFamilies.get(i), "columnFamilies[" + i + "]");
    }
    int flags =
        (options.createIfMissing ? NativeStore.CREATE_IF_MISSING : 0)
            | (options.errorIfExists ? NativeStore.ERROR_IF_EXISTS : 0)
            | (options.cacheIndexAndFilterBlocks ? NativeStore.CACHE_INDEX_AND_FILTER_BLOCKS : 0)
            | (options.pinL0FilterAndIndexBlocksInCache
                ? NativeStore.PIN_L0_FILTER_AND_INDEX_BLOCKS_IN_CACHE
                : 0)
            | (options.dataBlockHashIndex ? NativeStore.DATA_BLOCK_HASH_INDEX : 0)
            | (options.wholeKeyFiltering ? NativeStore.WHOLE_KEY_FILTERING : 0)
            | (options.allowMmapReads ? NativeStore.ALLOW_MMAP_READS : 0)
            | (options.useDirectReads ? NativeStore.USE_DIRECT_READS : 0);
    return new Store(
        NativeStore.open(
            where,
            flags,
            options.blockCacheBytes,
            options.blockCacheKind.ordinal(),
            options.blockSize,
            options.bloomBitsPerKey,
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
   * closing it.
   *
   * @param db RocksJava's {@code RocksDB.getNativeHandle()}
   * @param columnFamilies RocksJava's {@code ColumnFamilyHandle.getNativeHandle()}s
   * @param ownerCheck runs before every read with its column family id; throws if RocksJava closed
   *     what the read needs
   * @return a store over that database
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
   * @param snapshot RocksJava's {@code Snapshot.getNativeHandle()}
   * @return the wrapper; close it before RocksJava releases the snapshot
   * @throws UnsupportedOperationException if called from any other class
   */
  public Snapshot borrowRocksJavaSnapshot(long snapshot) {
    checkBorrower();
    checkOpen((ColumnFamily) null);
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

  /**
   * The RocksDB release embedded in the JNI library.
   *
   * @return its version, "11.8.1"
   */
  public static String rocksdbVersion() {
    return NativeStore.rocksdbVersion();
  }

  /**
   * Waits for calls in flight, then closes; later calls throw {@link StoreClosedException}. Pinned
   * values, handles and snapshots still open keep the database open until they close. Idempotent.
   *
   * @throws PingetException if RocksDB reports an error while closing
   */
  @Override
  public void close() {
    closed = true;
    try {
      NativeStore.close(handle);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Whether {@link #close()} was called.
   *
   * @return true once closed
   */
  public boolean isClosed() {
    return closed;
  }

  /**
   * First check of every call: the store, then (borrowed stores) the owner's objects that the
   * column family of options needs.
   */
  void checkOpen(ColumnFamily columnFamily) {
    if (closed) {
      throw new StoreClosedException("Closed: store is closed");
    }
    if (ownerCheck != null) {
      ownerCheck.accept(
          columnFamily == null || columnFamily.store() != this ? 0 : columnFamily.idIn(this));
    }
  }

  private void checkOpen(ReadOptions options) {
    checkOpen(options == null ? null : options.columnFamily);
  }

  /**
   * A column family, by name: "default" or one named in {@link Options#columnFamilies}.
   *
   * @param name not null
   * @return the column family
   * @throws IllegalArgumentException if the store has no such column family
   */
  public ColumnFamily columnFamily(String name) {
    checkOpen((ColumnFamily) null);
    byte[] bytes = Checks.utf8(Objects.requireNonNull(name, "name"), "name");
    int id;
    try {
      id = NativeStore.columnFamilyId(handle, bytes);
    } finally {
      Reference.reachabilityFence(this);
    }
    if (id < 0) {
      throw new IllegalArgumentException("no column family named " + name);
    }
    return id == 0 ? ColumnFamily.DEFAULT : new ColumnFamily(this, id, name);
  }

  /**
   * A RocksDB property of the default column family ("rocksdb.stats", ...).
   *
   * @param name not null
   * @return the property's value, or null if RocksDB has no such property
   */
  public String property(String name) {
    return property(ColumnFamily.DEFAULT, name);
  }

  /**
   * A RocksDB property of a column family.
   *
   * @param columnFamily not null; of this store
   * @param name not null
   * @return the property's value, or null if RocksDB has no such property
   */
  public String property(ColumnFamily columnFamily, String name) {
    checkOpen(columnFamily);
    Objects.requireNonNull(columnFamily, "columnFamily");
    byte[] bytes = Checks.utf8(Objects.requireNonNull(name, "name"), "name");
    try {
      return NativeStore.property(handle, columnFamily.idIn(this), bytes);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * A consistent read view, for {@link ReadOptions#withSnapshot}.
   *
   * @return the snapshot; close it when done (it keeps the database open)
   */
  public Snapshot snapshot() {
    checkOpen((ColumnFamily) null);
    try {
      return new Snapshot(NativeStore.newSnapshot(handle));
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  // ---- writes

  /**
   * Puts the whole key and value into the default column family.
   *
   * @param key not null, not empty
   * @param value not null; may be empty
   */
  public void put(byte[] key, byte[] value) {
    checkOpen((ColumnFamily) null);
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    put(WriteOptions.DEFAULT, key, 0, key.length, value, 0, value.length);
  }

  /**
   * Puts key[keyOff, keyOff + keyLen) → value[off, off + len) into the options' column family.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @param value not null
   * @param off start of the value in value
   * @param len the value's length
   */
  public void put(
      WriteOptions options, byte[] key, int keyOff, int keyLen, byte[] value, int off, int len) {
    checkOpen((ColumnFamily) null);
    Objects.requireNonNull(options, "options");
    Checks.range(key, keyOff, keyLen, "key");
    Checks.range(value, off, len, "value");
    try {
      NativeWrite.put(
          handle,
          options.flags,
          options.columnFamily.idIn(this),
          key,
          null,
          keyOff,
          keyLen,
          value,
          null,
          off,
          len);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Puts a key and value read from position to limit of direct buffers (positions unchanged).
   *
   * @param options not null
   * @param key a direct buffer, not null
   * @param value a direct buffer, not null
   */
  public void put(WriteOptions options, ByteBuffer key, ByteBuffer value) {
    checkOpen((ColumnFamily) null);
    Objects.requireNonNull(options, "options");
    Checks.direct(key, "key");
    Checks.direct(value, "value");
    try {
      NativeWrite.put(
          handle,
          options.flags,
          options.columnFamily.idIn(this),
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

  /**
   * Deletes the whole key from the default column family (no error if it does not exist).
   *
   * @param key not null, not empty
   */
  public void delete(byte[] key) {
    checkOpen((ColumnFamily) null);
    Objects.requireNonNull(key, "key");
    delete(WriteOptions.DEFAULT, key, 0, key.length);
  }

  /**
   * Deletes key[keyOff, keyOff + keyLen) from the options' column family.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   */
  public void delete(WriteOptions options, byte[] key, int keyOff, int keyLen) {
    checkOpen((ColumnFamily) null);
    Objects.requireNonNull(options, "options");
    Checks.range(key, keyOff, keyLen, "key");
    try {
      NativeWrite.delete(
          handle, options.flags, options.columnFamily.idIn(this), key, null, keyOff, keyLen);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Deletes a key read from position to limit of a direct buffer.
   *
   * @param options not null
   * @param key a direct buffer, not null
   */
  public void delete(WriteOptions options, ByteBuffer key) {
    checkOpen((ColumnFamily) null);
    Objects.requireNonNull(options, "options");
    Checks.direct(key, "key");
    try {
      NativeWrite.delete(
          handle,
          options.flags,
          options.columnFamily.idIn(this),
          null,
          key,
          key.position(),
          key.remaining());
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Applies a batch atomically (its column families; the options' flags).
   *
   * @param options not null
   * @param batch not null, not closed; its column families are this store's
   */
  public void write(WriteOptions options, WriteBatch batch) {
    checkOpen((ColumnFamily) null);
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(batch, "batch");
    long b = batch.handle();
    if (batch.store() != null && batch.store() != this) {
      throw new IllegalArgumentException("the batch writes column families of another store");
    }
    try {
      NativeWrite.write(handle, options.flags, b);
    } finally {
      Reference.reachabilityFence(batch);
      Reference.reachabilityFence(this);
    }
  }

  /** Writes the default column family's memtable to an SST file and waits for it. */
  public void flush() {
    flush(ColumnFamily.DEFAULT);
  }

  /**
   * Writes a column family's memtable to an SST file and waits for it.
   *
   * @param columnFamily not null; of this store
   */
  public void flush(ColumnFamily columnFamily) {
    checkOpen(columnFamily);
    Objects.requireNonNull(columnFamily, "columnFamily");
    try {
      NativeStore.flush(handle, columnFamily.idIn(this));
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Compacts the default column family's whole key range and waits for it. */
  public void compact() {
    compact(ColumnFamily.DEFAULT);
  }

  /**
   * Compacts a column family's whole key range and waits for it.
   *
   * @param columnFamily not null; of this store
   */
  public void compact(ColumnFamily columnFamily) {
    checkOpen(columnFamily);
    Objects.requireNonNull(columnFamily, "columnFamily");
    try {
      NativeStore.compact(handle, columnFamily.idIn(this));
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  // ---- string_copy: into a std::string, then a new byte[]. 2 copies, 1 allocation.

  /**
   * string_copy of the whole key with {@link ReadOptions#DEFAULT}: 2 copies, 1 new array.
   *
   * @param key not null, not empty
   * @return the value in a new array, or null if the key does not exist
   */
  public byte[] stringCopy(byte[] key) {
    checkOpen((ColumnFamily) null);
    Objects.requireNonNull(key, "key");
    return stringCopy(ReadOptions.DEFAULT, key, null, 0, key.length);
  }

  /**
   * string_copy of key[keyOff, keyOff + keyLen): 2 copies, 1 new array.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @return the value in a new array, or null if the key does not exist
   */
  public byte[] stringCopy(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    checkOpen(options);
    Objects.requireNonNull(options, "options");
    Checks.range(key, keyOff, keyLen, "key");
    return stringCopy(options, key, null, keyOff, keyLen);
  }

  /**
   * string_copy of a key read in place from position to limit of a direct buffer: 2 copies, 1 new
   * array.
   *
   * @param options not null
   * @param key a direct buffer, not null; its position is left unchanged
   * @return the value in a new array, or null if the key does not exist
   */
  public byte[] stringCopy(ReadOptions options, ByteBuffer key) {
    checkOpen(options);
    Objects.requireNonNull(options, "options");
    Checks.direct(key, "key");
    return stringCopy(options, null, key, key.position(), key.remaining());
  }

  private byte[] stringCopy(ReadOptions o, byte[] key, ByteBuffer keyBuffer, int off, int len) {
    int cf = o.columnFamily.idIn(this);
    long snapshot = o.acquire();
    try {
      return NativeReads.stringCopy(handle, key, keyBuffer, off, len, snapshot, cf, o.flags);
    } finally {
      o.release();
      Reference.reachabilityFence(this);
    }
  }

  // ---- pinnable_copy: into a PinnableSlice, then a new byte[]. P + 1 copies, 1 allocation.

  /**
   * pinnable_copy of the whole key with {@link ReadOptions#DEFAULT}: P + 1 copies, 1 new array.
   *
   * @param key not null, not empty
   * @return the value in a new array, or null if the key does not exist
   */
  public byte[] pinnableCopy(byte[] key) {
    checkOpen((ColumnFamily) null);
    Objects.requireNonNull(key, "key");
    return pinnableCopy(ReadOptions.DEFAULT, key, null, 0, key.length);
  }

  /**
   * pinnable_copy of key[keyOff, keyOff + keyLen): P + 1 copies, 1 new array.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @return the value in a new array, or null if the key does not exist
   */
  public byte[] pinnableCopy(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    checkOpen(options);
    Objects.requireNonNull(options, "options");
    Checks.range(key, keyOff, keyLen, "key");
    return pinnableCopy(options, key, null, keyOff, keyLen);
  }

  /**
   * pinnable_copy of a key read in place from position to limit of a direct buffer: P + 1 copies, 1
   * new array.
   *
   * @param options not null
   * @param key a direct buffer, not null; its position is left unchanged
   * @return the value in a new array, or null if the key does not exist
   */
  public byte[] pinnableCopy(ReadOptions options, ByteBuffer key) {
    checkOpen(options);
    Objects.requireNonNull(options, "options");
    Checks.direct(key, "key");
    return pinnableCopy(options, null, key, key.position(), key.remaining());
  }

  private byte[] pinnableCopy(ReadOptions o, byte[] key, ByteBuffer keyBuffer, int off, int len) {
    int cf = o.columnFamily.idIn(this);
    long snapshot = o.acquire();
    try {
      return NativeReads.pinnableCopy(handle, key, keyBuffer, off, len, snapshot, cf, o.flags);
    } finally {
      o.release();
      Reference.reachabilityFence(this);
    }
  }

  // ---- buffer_copy: into a PinnableSlice, then dst. P + 1 copies, no allocation.

  /**
   * buffer_copy of the whole key with {@link ReadOptions#DEFAULT}: copies min(size, len) bytes of
   * the value into dst[off, off + len). P + 1 copies, no allocation.
   *
   * @param key not null, not empty
   * @param dst not null
   * @param off where the value goes in dst
   * @param len room in dst
   * @return the value's full size (more than len: dst was too small), or {@link #NOT_FOUND}
   */
  public int bufferCopy(byte[] key, byte[] dst, int off, int len) {
    checkOpen((ColumnFamily) null);
    Objects.requireNonNull(key, "key");
    return bufferCopy(ReadOptions.DEFAULT, key, 0, key.length, dst, off, len);
  }

  /**
   * buffer_copy of key[keyOff, keyOff + keyLen) into dst[off, off + len). P + 1 copies, no
   * allocation; nothing outside that range of dst is written.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @param dst not null
   * @param off where the value goes in dst
   * @param len room in dst
   * @return the value's full size (more than len: dst was too small), or {@link #NOT_FOUND}
   */
  public int bufferCopy(
      ReadOptions options, byte[] key, int keyOff, int keyLen, byte[] dst, int off, int len) {
    checkOpen(options);
    Objects.requireNonNull(options, "options");
    Checks.range(key, keyOff, keyLen, "key");
    Checks.range(dst, off, len, "dst");
    return bufferCopy(options, key, null, keyOff, keyLen, dst, off, len);
  }

  /**
   * buffer_copy of a key read in place from a direct buffer into dst[off, off + len). P + 1 copies,
   * no allocation.
   *
   * @param options not null
   * @param key a direct buffer, not null; its position is left unchanged
   * @param dst not null
   * @param off where the value goes in dst
   * @param len room in dst
   * @return the value's full size (more than len: dst was too small), or {@link #NOT_FOUND}
   */
  public int bufferCopy(ReadOptions options, ByteBuffer key, byte[] dst, int off, int len) {
    checkOpen(options);
    Objects.requireNonNull(options, "options");
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
    int cf = o.columnFamily.idIn(this);
    long snapshot = o.acquire();
    try {
      return NativeReads.bufferCopy(
          handle, key, keyBuffer, keyOff, keyLen, snapshot, cf, o.flags, dst, off, len);
    } finally {
      o.release();
      Reference.reachabilityFence(this);
    }
  }

  // ---- direct_copy: into a PinnableSlice, then dst's memory. P + 1 copies, no allocation.

  /**
   * direct_copy of the whole key with {@link ReadOptions#DEFAULT}: copies min(size,
   * dst.remaining()) bytes of the value into dst at its position (position and limit unchanged). P
   * + 1 copies, no allocation.
   *
   * @param key not null, not empty
   * @param dst a direct, writable buffer; not null
   * @return the value's full size (more than dst.remaining(): too small), or {@link #NOT_FOUND}
   */
  public int directCopy(byte[] key, ByteBuffer dst) {
    checkOpen((ColumnFamily) null);
    Objects.requireNonNull(key, "key");
    return directCopy(ReadOptions.DEFAULT, key, 0, key.length, dst);
  }

  /**
   * direct_copy of key[keyOff, keyOff + keyLen) into dst at its position. P + 1 copies, no
   * allocation.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @param dst a direct, writable buffer; not null; position and limit unchanged
   * @return the value's full size (more than dst.remaining(): too small), or {@link #NOT_FOUND}
   */
  public int directCopy(ReadOptions options, byte[] key, int keyOff, int keyLen, ByteBuffer dst) {
    checkOpen(options);
    Objects.requireNonNull(options, "options");
    Checks.range(key, keyOff, keyLen, "key");
    Checks.writableDirect(dst, "dst");
    return directCopy(options, key, null, keyOff, keyLen, dst);
  }

  /**
   * direct_copy of a key read in place from a direct buffer into dst at its position. P + 1 copies,
   * no allocation.
   *
   * @param options not null
   * @param key a direct buffer, not null; its position is left unchanged
   * @param dst a direct, writable buffer; not null; position and limit unchanged
   * @return the value's full size (more than dst.remaining(): too small), or {@link #NOT_FOUND}
   */
  public int directCopy(ReadOptions options, ByteBuffer key, ByteBuffer dst) {
    checkOpen(options);
    Objects.requireNonNull(options, "options");
    Checks.direct(key, "key");
    Checks.writableDirect(dst, "dst");
    return directCopy(options, null, key, key.position(), key.remaining(), dst);
  }

  private int directCopy(
      ReadOptions o, byte[] key, ByteBuffer keyBuffer, int keyOff, int keyLen, ByteBuffer dst) {
    int cf = o.columnFamily.idIn(this);
    long snapshot = o.acquire();
    try {
      return NativeReads.directCopy(
          handle,
          key,
          keyBuffer,
          keyOff,
          keyLen,
          snapshot,
          cf,
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

  /**
   * pinned_view, one pin per call, of the whole key with {@link ReadOptions#DEFAULT}: P copies. For
   * many gets, a reused {@link #newPinnedView()} handle allocates nothing.
   *
   * @param key not null, not empty
   * @return the value pinned in a new PinnedValue (close it), or null if the key does not exist
   */
  public PinnedValue pinnedValue(byte[] key) {
    checkOpen((ColumnFamily) null);
    Objects.requireNonNull(key, "key");
    return PinnedValue.pin(this, ReadOptions.DEFAULT, key, null, 0, key.length);
  }

  /**
   * pinned_view, one pin per call, of key[keyOff, keyOff + keyLen): P copies.
   *
   * @param options not null
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @return the value pinned in a new PinnedValue (close it), or null if the key does not exist
   */
  public PinnedValue pinnedValue(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    checkOpen(options);
    Objects.requireNonNull(options, "options");
    Checks.range(key, keyOff, keyLen, "key");
    return PinnedValue.pin(this, options, key, null, keyOff, keyLen);
  }

  /**
   * pinned_view, one pin per call, of a key read in place from a direct buffer: P copies.
   *
   * @param options not null
   * @param key a direct buffer, not null; its position is left unchanged
   * @return the value pinned in a new PinnedValue (close it), or null if the key does not exist
   */
  public PinnedValue pinnedValue(ReadOptions options, ByteBuffer key) {
    checkOpen(options);
    Objects.requireNonNull(options, "options");
    Checks.direct(key, "key");
    return PinnedValue.pin(this, options, null, key, key.position(), key.remaining());
  }

  /**
   * A reusable pinned_view handle: each get pins the next value in place of the last, with no
   * allocation.
   *
   * @return a new handle; close it when done
   */
  public PinnedView newPinnedView() {
    checkOpen((ColumnFamily) null);
    return new PinnedView(this);
  }

  /**
   * A reusable batched pinned_view handle.
   *
   * @return a new handle; close it when done
   */
  public PinnedBatch newPinnedBatch() {
    checkOpen((ColumnFamily) null);
    return new PinnedBatch(this);
  }

  // ---- batched copies over RocksDB's MultiGet

  /**
   * buffer_copy per key over RocksDB's MultiGet: copies value i into dsts[i] from index 0 and sets
   * sizes[i] to its full size, or -1 (not found or failed). P + 1 copies per found key, no
   * allocation once warm. Every key is read; then the first per-key error other than not-found, if
   * any, is thrown.
   *
   * @param options not null
   * @param keys not null, no element null or empty
   * @param dsts not null, as long as keys, no element null
   * @param sizes not null, at least as long as keys
   */
  public void multiGetBufferCopy(ReadOptions options, byte[][] keys, byte[][] dsts, int[] sizes) {
    checkOpen(options);
    Objects.requireNonNull(options, "options");
    checkBatch(keys, dsts, sizes);
    byte[][] checked = scratch(ARRAYS, dsts.length, byte[][]::new);
    for (int i = 0; i < dsts.length; i++) {
      checked[i] = Objects.requireNonNull(dsts[i], "dsts[i]");
    }
    try {
      int cf = options.columnFamily.idIn(this);
      long snapshot = options.acquire();
      try {
        PackedKeys packed = PACKED.get();
        packed.pack(keys);
        NativeReads.multiGetBufferCopy(
            handle,
            keys.length,
            packed.bytes(),
            packed.slots(),
            checked,
            sizes,
            snapshot,
            cf,
            options.flags);
      } finally {
        options.release();
        Reference.reachabilityFence(this);
      }
    } finally {
      Arrays.fill(checked, 0, dsts.length, null);
    }
  }

  /**
   * direct_copy per key over RocksDB's MultiGet: copies value i into dsts[i] at its position
   * (position and limit unchanged) and sets sizes[i] to its full size, or -1 (not found or failed).
   * P + 1 copies per found key, no allocation once warm. Every key is read; then the first per-key
   * error other than not-found, if any, is thrown.
   *
   * @param options not null
   * @param keys not null, no element null or empty
   * @param dsts not null, as long as keys, each a direct, writable buffer
   * @param sizes not null, at least as long as keys
   */
  public void multiGetDirectCopy(
      ReadOptions options, byte[][] keys, ByteBuffer[] dsts, int[] sizes) {
    checkOpen(options);
    Objects.requireNonNull(options, "options");
    checkBatch(keys, dsts, sizes);
    ByteBuffer[] checked = scratch(BUFFERS, dsts.length, ByteBuffer[]::new);
    for (int i = 0; i < dsts.length; i++) {
      Checks.writableDirect(dsts[i], "dsts[i]");
      checked[i] = dsts[i];
    }
    try {
      int cf = options.columnFamily.idIn(this);
      long snapshot = options.acquire();
      try {
        PackedKeys packed = PACKED.get();
        packed.pack(keys);
        NativeReads.multiGetDirectCopy(
            handle,
            keys.length,
            packed.bytes(),
            packed.slots(),
            checked,
            sizes,
            snapshot,
            cf,
            options.flags);
      } finally {
        options.release();
        Reference.reachabilityFence(this);
      }
    } finally {
      Arrays.fill(checked, 0, dsts.length, null);
    }
  }

  static void checkKeys(byte[][] keys) {
    Objects.requireNonNull(keys, "keys");
    for (int i = 0; i < keys.length; i++) {
      Objects.requireNonNull(keys[i], "keys[i]");
    }
  }

  // A batch's destinations are checked, then read natively from this thread's copy of the array,
  // which the caller cannot change mid-call (and which keeps each one reachable); reused, so a
  // warm batch allocates nothing. The native side takes the first keys.length elements.
  private static final ThreadLocal<byte[][]> ARRAYS = ThreadLocal.withInitial(() -> new byte[0][]);
  private static final ThreadLocal<ByteBuffer[]> BUFFERS =
      ThreadLocal.withInitial(() -> new ByteBuffer[0]);
  // This thread's packed keys for a batch (a PinnedBatch has its own).
  private static final ThreadLocal<PackedKeys> PACKED = ThreadLocal.withInitial(PackedKeys::new);

  /** This thread's array from local, replaced by a new one of n slots if it has fewer. */
  private static <T> T[] scratch(ThreadLocal<T[]> local, int n, IntFunction<T[]> newArray) {
    T[] array = local.get();
    if (array.length < n) {
      array = newArray.apply(n);
      local.set(array);
    }
    return array;
  }

  private static void checkBatch(byte[][] keys, Object[] dsts, int[] sizes) {
    checkKeys(keys);
    Objects.requireNonNull(dsts, "dsts");
    Objects.requireNonNull(sizes, "sizes");
    if (dsts.length != keys.length || sizes.length < keys.length) {
      throw new IllegalArgumentException("keys, dsts and sizes differ in length");
    }
  }
}
