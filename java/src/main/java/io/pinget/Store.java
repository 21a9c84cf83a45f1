// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import io.pinget.internal.Checks;
import io.pinget.internal.StoreAccess;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.IntConsumer;

/**
 * A RocksDB database opened for reading values with a known number of copies: the JNI door onto the
 * {@link Reader} contract (strategies, copies, order of checks, batches: see there), plus writes,
 * snapshots, column families and maintenance. Thread-safe, {@link #close()} included: a close that
 * races with calls waits for them, and later calls throw {@link StoreClosedException}. Pinned
 * values and snapshots keep the database open after close() until they are closed.
 *
 * <p>Writes, like reads, check a closed store first, then their arguments in signature order, then
 * the write options (a column family of another store: IllegalArgumentException).
 */
public final class Store implements Reader {
  /** The length returned for a key that does not exist. */
  public static final int NOT_FOUND = Reader.NOT_FOUND;

  static {
    StoreAccess.install(
        new StoreAccess() {
          @Override
          public boolean borrowsItsDatabase(Store store) {
            return store.ownerCheck != null;
          }

          @Override
          public long begin(ReadOptions options, Store store) {
            return options.acquire(store);
          }

          @Override
          public int columnFamily(ReadOptions options) {
            return cf(options);
          }

          @Override
          public int flags(ReadOptions options) {
            return options.flags;
          }

          @Override
          public void end(ReadOptions options) {
            options.release();
          }
        });
  }

  /** pinget::Store*; freed by the Cleaner only when no call can be using it. */
  final long handle;

  /** Set by close(): the first check of every call. */
  private volatile boolean closed;

  /**
   * Null for a store pinget opened. For one over a RocksJava database (made by native code for
   * {@code RocksJavaReader}): throws IllegalStateException if RocksJava has closed the database or
   * the column family about to be read.
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
    byte[][] families = options.columnFamilyNames();
    byte[] text = options.toString().getBytes(StandardCharsets.US_ASCII);
    return new Store(NativeStore.open(where, text, families), null);
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

  @Override
  public boolean isClosed() {
    return closed;
  }

  /**
   * This store as a {@code pinget_store*} of pinget's C API ({@code pinget/c.h}), for native code
   * of the application's own (a JNI library, an FFM downcall) that reads the same database in the
   * same process. The address stays valid while this Store is reachable (keep it so with {@link
   * Reference#reachabilityFence} around the native calls); after {@link #close()} the C API's calls
   * on it return {@code PINGET_CLOSED}. Native code must never destroy it: this Store's Cleaner
   * does. Thread-safe as the C API is.
   *
   * @return the address, never 0
   */
  public long nativeHandle() {
    return handle;
  }

  /**
   * First check of every call: the store, then (a RocksJava database) the owner's objects that the
   * column family needs.
   */
  void checkOpen(ColumnFamily columnFamily) {
    if (closed) {
      throw new StoreClosedException("Closed: store is closed");
    }
    if (ownerCheck != null) {
      ownerCheck.accept(
          columnFamily == null || columnFamily.owner() != this ? 0 : columnFamily.idIn(this));
    }
  }

  /**
   * The first check of a write or snapshot: a closed store, then a store over a RocksJava database
   * (UnsupportedOperationException). Those write and take snapshots through RocksJava, whose checks
   * of its own column family handles and lifetimes a call here could not make.
   */
  private void checkOwnDatabase() {
    checkOpen((ColumnFamily) null);
    if (ownerCheck != null) {
      throw new UnsupportedOperationException(
          "a RocksJavaReader's store reads only: write and take snapshots through RocksJava"
              + " (RocksJavaReader.snapshot wraps one)");
    }
  }

  /**
   * Whether RocksJava has closed the database under this store (never, for a store pinget opened):
   * what the database lent (an iterator) can then no longer be given back to it, only abandoned.
   */
  boolean ownerClosed() {
    if (ownerCheck == null) {
      return false;
    }
    try {
      ownerCheck.accept(0);
      return false;
    } catch (IllegalStateException e) {
      return true;
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
    int cf = Objects.requireNonNull(columnFamily, "columnFamily").idIn(this);
    byte[] bytes = Checks.utf8(Objects.requireNonNull(name, "name"), "name");
    try {
      return NativeStore.property(handle, cf, bytes);
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
    checkOwnDatabase();
    try {
      return new Snapshot(this, NativeStore.newSnapshot(handle));
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
    put(WriteOptions.DEFAULT, key, 0, key == null ? 0 : key.length, value, 0, length(value));
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
    checkOwnDatabase();
    Objects.requireNonNull(options, "options");
    Checks.key(key, keyOff, keyLen);
    Checks.range(value, off, len, "value");
    int cf = options.columnFamily.idIn(this);
    try {
      NativeWrite.put(handle, options.flags, cf, key, null, keyOff, keyLen, value, null, off, len);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Puts a key and value read from position to limit of direct buffers (positions unchanged).
   *
   * @param options not null
   * @param key a direct buffer, not null, not empty
   * @param value a direct buffer, not null
   */
  public void put(WriteOptions options, ByteBuffer key, ByteBuffer value) {
    checkOwnDatabase();
    Objects.requireNonNull(options, "options");
    Checks.key(key);
    Checks.direct(value, "value");
    int cf = options.columnFamily.idIn(this);
    try {
      NativeWrite.put(
          handle,
          options.flags,
          cf,
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
    delete(WriteOptions.DEFAULT, key, 0, key == null ? 0 : key.length);
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
    checkOwnDatabase();
    Objects.requireNonNull(options, "options");
    Checks.key(key, keyOff, keyLen);
    int cf = options.columnFamily.idIn(this);
    try {
      NativeWrite.delete(handle, options.flags, cf, key, null, keyOff, keyLen);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Deletes a key read from position to limit of a direct buffer.
   *
   * @param options not null
   * @param key a direct buffer, not null, not empty
   */
  public void delete(WriteOptions options, ByteBuffer key) {
    checkOwnDatabase();
    Objects.requireNonNull(options, "options");
    Checks.key(key);
    int cf = options.columnFamily.idIn(this);
    try {
      NativeWrite.delete(handle, options.flags, cf, null, key, key.position(), key.remaining());
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Applies a batch atomically, each operation to its own column family, with the options' flags.
   *
   * @param options not null; its column family, if any but DEFAULT, is this store's
   * @param batch not null, not closed; its column families are this store's
   */
  public void write(WriteOptions options, WriteBatch batch) {
    checkOwnDatabase();
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(batch, "batch");
    long b = batch.handle();
    if (batch.owner() != null && batch.owner() != this) {
      throw new IllegalArgumentException("the batch writes column families of another store");
    }
    options.columnFamily.idIn(this);
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
    int cf = Objects.requireNonNull(columnFamily, "columnFamily").idIn(this);
    try {
      NativeStore.flush(handle, cf);
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
    int cf = Objects.requireNonNull(columnFamily, "columnFamily").idIn(this);
    try {
      NativeStore.compact(handle, cf);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  // ---- reads: the Reader contract. Each checks the store, then its arguments, then the
  // options' content (ReadOptions.acquire), then makes one native call.

  @Override
  public byte[] stringCopy(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    checkOpen(options);
    Checks.options(options);
    Checks.key(key, keyOff, keyLen);
    return stringCopy(options, key, null, keyOff, keyLen);
  }

  @Override
  public byte[] stringCopy(ReadOptions options, ByteBuffer key) {
    checkOpen(options);
    Checks.options(options);
    Checks.key(key);
    int keyOff = key.position();
    return stringCopy(options, null, key, keyOff, key.limit() - keyOff);
  }

  /** The key is key or keyBuffer at [off, off + len), checked; then the options' content. */
  private byte[] stringCopy(
      ReadOptions options, byte[] key, ByteBuffer keyBuffer, int off, int len) {
    long snapshot = options.acquire(this);
    try {
      return NativeReads.stringCopy(
          handle,
          key,
          keyBuffer,
          KeyCopy.ofThisThread(key, keyBuffer, off, len),
          off,
          len,
          snapshot,
          cf(options),
          options.flags);
    } finally {
      end(options);
    }
  }

  @Override
  public byte[] pinnableCopy(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    checkOpen(options);
    Checks.options(options);
    Checks.key(key, keyOff, keyLen);
    return pinnableCopy(options, key, null, keyOff, keyLen);
  }

  @Override
  public byte[] pinnableCopy(ReadOptions options, ByteBuffer key) {
    checkOpen(options);
    Checks.options(options);
    Checks.key(key);
    int keyOff = key.position();
    return pinnableCopy(options, null, key, keyOff, key.limit() - keyOff);
  }

  /** As stringCopy's. */
  private byte[] pinnableCopy(
      ReadOptions options, byte[] key, ByteBuffer keyBuffer, int off, int len) {
    long snapshot = options.acquire(this);
    try {
      return NativeReads.pinnableCopy(
          handle,
          key,
          keyBuffer,
          KeyCopy.ofThisThread(key, keyBuffer, off, len),
          off,
          len,
          snapshot,
          cf(options),
          options.flags);
    } finally {
      end(options);
    }
  }

  @Override
  public int bufferCopy(
      ReadOptions options, byte[] key, int keyOff, int keyLen, byte[] dst, int off, int len) {
    checkOpen(options);
    Checks.options(options);
    Checks.key(key, keyOff, keyLen);
    Checks.range(dst, off, len, "dst");
    return bufferCopy(options, key, null, keyOff, keyLen, dst, off, len);
  }

  @Override
  public int bufferCopy(ReadOptions options, ByteBuffer key, byte[] dst, int off, int len) {
    checkOpen(options);
    Checks.options(options);
    Checks.key(key);
    Checks.range(dst, off, len, "dst");
    int keyOff = key.position();
    return bufferCopy(options, null, key, keyOff, key.limit() - keyOff, dst, off, len);
  }

  /** As stringCopy's; dst's range checked. */
  private int bufferCopy(
      ReadOptions options,
      byte[] key,
      ByteBuffer keyBuffer,
      int keyOff,
      int keyLen,
      byte[] dst,
      int off,
      int len) {
    long snapshot = options.acquire(this);
    try {
      return NativeReads.bufferCopy(
          handle,
          key,
          keyBuffer,
          KeyCopy.ofThisThread(key, keyBuffer, keyOff, keyLen),
          keyOff,
          keyLen,
          snapshot,
          cf(options),
          options.flags,
          dst,
          off,
          len);
    } finally {
      end(options);
    }
  }

  @Override
  public int directCopy(ReadOptions options, byte[] key, int keyOff, int keyLen, ByteBuffer dst) {
    checkOpen(options);
    Checks.options(options);
    Checks.key(key, keyOff, keyLen);
    Checks.writableDirect(dst, "dst");
    return directCopy(options, key, null, keyOff, keyLen, dst);
  }

  @Override
  public int directCopy(ReadOptions options, ByteBuffer key, ByteBuffer dst) {
    checkOpen(options);
    Checks.options(options);
    Checks.key(key);
    Checks.writableDirect(dst, "dst");
    int keyOff = key.position();
    return directCopy(options, null, key, keyOff, key.limit() - keyOff, dst);
  }

  /**
   * As stringCopy's; dst checked. Its window is read once here, so that its address and the range
   * native code gets agree (Views.address).
   */
  private int directCopy(
      ReadOptions options,
      byte[] key,
      ByteBuffer keyBuffer,
      int keyOff,
      int keyLen,
      ByteBuffer dst) {
    int off = dst.position();
    int len = dst.limit() - off;
    long snapshot = options.acquire(this);
    try {
      return NativeReads.directCopy(
          handle,
          key,
          keyBuffer,
          KeyCopy.ofThisThread(key, keyBuffer, keyOff, keyLen),
          keyOff,
          keyLen,
          snapshot,
          cf(options),
          options.flags,
          dst,
          Views.address(dst, off, len),
          off,
          len);
    } finally {
      end(options);
    }
  }

  @Override
  public PinnedValue pinnedValue(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    checkOpen(options);
    Checks.options(options);
    Checks.key(key, keyOff, keyLen);
    return PinnedValue.pin(this, options, key, null, keyOff, keyLen);
  }

  @Override
  public PinnedValue pinnedValue(ReadOptions options, ByteBuffer key) {
    checkOpen(options);
    Checks.options(options);
    Checks.key(key);
    return PinnedValue.pin(this, options, null, key, key.position(), key.remaining());
  }

  @Override
  public PinnedView newPinnedView() {
    checkOpen((ColumnFamily) null);
    return new PinnedView(this);
  }

  @Override
  public PinnedBatch newPinnedBatch() {
    checkOpen((ColumnFamily) null);
    return new PinnedBatch(this);
  }

  @Override
  public Cursor newCursor(CursorOptions options) {
    checkOpen(options == null ? null : options.read.columnFamily);
    Checks.options(options);
    long snapshot = options.read.acquire(this);
    try {
      return new Cursor(this, options, snapshot);
    } catch (RuntimeException | Error e) {
      options.read.release();
      throw e;
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public void multiGetBufferCopy(ReadOptions options, byte[][] keys, byte[][] dsts, int[] sizes) {
    multiGetCopy(BatchCopy.ARRAYS, options, keys, dsts, sizes);
  }

  @Override
  public void multiGetDirectCopy(
      ReadOptions options, byte[][] keys, ByteBuffer[] dsts, int[] sizes) {
    multiGetCopy(BatchCopy.BUFFERS, options, keys, dsts, sizes);
  }

  /** The batched copies: checks in the contract's order, then kind's one native call. */
  private <D> void multiGetCopy(
      BatchCopy<D> kind, ReadOptions options, byte[][] keys, D[] dsts, int[] sizes) {
    D[] checked = null;
    long snapshot;
    try {
      checkOpen(options);
      Checks.options(options);
      Checks.keys(keys);
      Checks.length(dsts, keys.length, "dsts");
      checked = kind.copyOf(dsts);
      kind.check.check(checked, keys.length, "dsts");
      Checks.sizes(sizes, keys.length);
      snapshot = options.acquire(this);
    } catch (RuntimeException | Error e) {
      refused(checked, sizes);
      throw e;
    }
    try {
      Arrays.fill(sizes, 0, keys.length, NOT_FOUND);
      PackedKeys packed = BatchCopy.packed(keys);
      kind.call.read(
          handle,
          keys.length,
          packed.bytes(),
          packed.slots(),
          checked,
          sizes,
          snapshot,
          cf(options),
          options.flags);
    } finally {
      Arrays.fill(checked, null);
      end(options);
    }
  }

  // ---- decode on read, allocation-free through a per-thread pin: Decoding

  @Override
  public <T> T get(
      ReadOptions options, byte[] key, int keyOff, int keyLen, ValueDecoder<T> decoder) {
    return Decoding.get(this, options, key, keyOff, keyLen, decoder);
  }

  @Override
  public <T> T get(ReadOptions options, ByteBuffer key, ValueDecoder<T> decoder) {
    return Decoding.get(this, options, key, decoder);
  }

  @Override
  public long getLong(
      ReadOptions options, byte[] key, int keyOff, int keyLen, LongDecoder decoder, long missing) {
    return Decoding.getLong(this, options, key, keyOff, keyLen, decoder, missing);
  }

  @Override
  public long getLong(ReadOptions options, ByteBuffer key, LongDecoder decoder, long missing) {
    return Decoding.getLong(this, options, key, decoder, missing);
  }

  @Override
  public <T> void multiGet(
      ReadOptions options, byte[][] keys, ValueDecoder<? extends T> decoder, T[] out) {
    Decoding.BatchSlot.read(this, options, keys, decoder, out, 0)
        .decodeAll(decoder, ValueDecoder::decode, out, this);
  }

  @Override
  public void multiGetLong(
      ReadOptions options, byte[][] keys, LongDecoder decoder, long missing, long[] out) {
    Decoding.BatchSlot.read(this, options, keys, decoder, out, missing)
        .decodeAllLongs(decoder, LongDecoder::decode, out, this);
  }

  /** A batch refused by its checks: nothing was read, every size is -1. */
  private static void refused(Object[] checked, int[] sizes) {
    if (checked != null) {
      Arrays.fill(checked, null);
    }
    Checks.refused(sizes);
  }

  /** The options' column family id; REQUIRES: options.acquire(this) passed. */
  private static int cf(ReadOptions options) {
    return options.columnFamily.id();
  }

  /** Ends a read that options.acquire(this) began. */
  private void end(ReadOptions options) {
    options.release();
    Reference.reachabilityFence(this);
  }

  private static int length(byte[] array) {
    return array == null ? 0 : array.length;
  }
}
