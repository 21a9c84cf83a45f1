// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.rocksjava;

import io.pinget.PinnedBatch;
import io.pinget.PinnedValue;
import io.pinget.PinnedView;
import io.pinget.ReadOptions;
import io.pinget.Snapshot;
import io.pinget.Store;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;

/**
 * pinget's strategies over a database that RocksJava opened: the same {@code RocksDB} instance,
 * read without RocksJava's copies. Methods, copy counts and copy accounting are those of {@link
 * Store}: {@code stringCopy} (the baseline: 2 copies), {@code pinnableCopy} (P + 1 copies, one new
 * array), {@code bufferCopy} and {@code directCopy} (P + 1, no allocation), {@code pinnedView},
 * {@link PinnedView} and {@link PinnedBatch} (P: the caller reads the pinned block-cache bytes). P
 * is 0 for a value in the block cache, 1 otherwise (a memtable hit, {@code fill_cache=false}).
 *
 * <p>Column families: 0 is the default one, {@code i + 1} the i-th handle given to {@link #open}
 * ({@link #columnFamilyId}); pass the id with {@link ReadOptions#withColumnFamily}. Snapshots: wrap
 * a RocksJava snapshot with {@link #snapshot(org.rocksdb.Snapshot)} and pass it with {@link
 * ReadOptions#withSnapshot}.
 *
 * <p>Lifetimes. RocksJava frees its objects in its own {@code close()}; pinget cannot stop that.
 * What can be detected fails cleanly: every read first checks that RocksJava still owns the
 * database and the column family being read, and throws {@link IllegalStateException} if not. What
 * cannot be: <b>close every view, batch, pinned value, snapshot wrapper and this reader before
 * closing the RocksJava database, its column family handles or the options that hold its block
 * cache</b>, and do not close them on another thread while a read is running. A pinned value points
 * into RocksJava's block cache; once RocksJava frees it, reading or releasing the pin reads freed
 * memory.
 *
 * <p>Version lock: pinget reads through RocksJava's own C++ objects, so both must be built from the
 * same RocksDB release; {@link #open} refuses a RocksJava of another release.
 *
 * <p>Thread-safe, like Store; handles ({@link PinnedView}, {@link PinnedBatch}, {@link
 * PinnedValue}) are single-threaded.
 */
public final class RocksJavaReader implements AutoCloseable {
  private final RocksDB db;
  private final ColumnFamilyHandle[] families;
  private final Store store;

  private RocksJavaReader(RocksDB db, ColumnFamilyHandle[] families) {
    this.db = db;
    this.families = families;
    long[] handles = new long[families.length];
    for (int i = 0; i < families.length; i++) {
      handles[i] = families[i].getNativeHandle();
    }
    this.store = Store.borrowRocksJava(db.getNativeHandle(), handles, this::checkOwned);
  }

  /**
   * A reader over db; columnFamilies (handles of db, none closed) get ids 1, 2, ... in order.
   *
   * @throws IllegalStateException if db or a handle is closed
   * @throws IllegalArgumentException if a handle belongs to another database
   * @throws UnsupportedOperationException if RocksJava's RocksDB release is not pinget's
   */
  public static RocksJavaReader open(RocksDB db, ColumnFamilyHandle... columnFamilies) {
    return open(db, RocksDB.rocksdbVersion().toString(), columnFamilies);
  }

  /** open, with the RocksJava release given (tests stand in another one here). */
  static RocksJavaReader open(
      RocksDB db, String rocksJavaVersion, ColumnFamilyHandle... columnFamilies) {
    Objects.requireNonNull(db, "db");
    Objects.requireNonNull(columnFamilies, "columnFamilies");
    String embedded = Store.rocksdbVersion();
    if (!embedded.equals(rocksJavaVersion)) {
      throw new UnsupportedOperationException(
          "pinget embeds RocksDB "
              + embedded
              + " but RocksJava on the class path is RocksDB "
              + rocksJavaVersion
              + ": pinget reads through RocksJava's objects only when both come from the same"
              + " release (use org.rocksdb:rocksdbjni "
              + embedded
              + ")");
    }
    if (!db.isOwningHandle()) {
      throw new IllegalStateException("the RocksDB is closed");
    }
    ColumnFamilyHandle[] families = columnFamilies.clone();
    for (int i = 0; i < families.length; i++) {
      ColumnFamilyHandle h = Objects.requireNonNull(families[i], "columnFamilies[" + i + "]");
      if (!h.isOwningHandle()) {
        throw new IllegalStateException("columnFamilies[" + i + "] is closed");
      }
      if (ownerOf(h) != db) {
        throw new IllegalArgumentException("columnFamilies[" + i + "] belongs to another RocksDB");
      }
    }
    return new RocksJavaReader(db, families);
  }

  // RocksJava keeps a handle's database in a private field; its equals() compares it. The field
  // is read once per handle, when a reader is opened.
  private static final Field OWNER;

  static {
    try {
      OWNER = ColumnFamilyHandle.class.getDeclaredField("rocksDB_");
      OWNER.setAccessible(true);
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static Object ownerOf(ColumnFamilyHandle h) {
    try {
      return OWNER.get(h);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  private void checkOwned(int columnFamily) {
    if (!db.isOwningHandle()) {
      throw new IllegalStateException("the RocksDB is closed");
    }
    if (columnFamily > 0
        && columnFamily <= families.length
        && !families[columnFamily - 1].isOwningHandle()) {
      throw new IllegalStateException("column family " + columnFamily + " is closed");
    }
  }

  /** 0 for db's default column family, i + 1 for the i-th handle given to open, else -1. */
  public int columnFamilyId(ColumnFamilyHandle handle) {
    Objects.requireNonNull(handle, "handle");
    if (!handle.isOwningHandle()) {
      throw new IllegalStateException("the column family handle is closed");
    }
    for (int i = 0; i < families.length; i++) {
      if (families[i] == handle) {
        return i + 1;
      }
    }
    return ownerOf(handle) == db && isDefault(handle) ? 0 : -1;
  }

  private boolean isDefault(ColumnFamilyHandle handle) {
    return handle.getID() == 0;
  }

  /**
   * A pinget Snapshot over a snapshot RocksJava took of this database, for {@link
   * ReadOptions#withSnapshot}. Closing it does not release RocksJava's snapshot; release that (with
   * {@code RocksDB.releaseSnapshot}) only after this wrapper is closed and no read uses it.
   */
  public Snapshot snapshot(org.rocksdb.Snapshot snapshot) {
    Objects.requireNonNull(snapshot, "snapshot");
    checkOwned(0);
    return store.borrowRocksJavaSnapshot(snapshot.getNativeHandle());
  }

  /** The RocksJava database read. */
  public RocksDB db() {
    return db;
  }

  // ---- string_copy: the baseline, 2 copies (into a std::string, then a new array)

  /** The value, or null if the key does not exist. */
  public byte[] stringCopy(byte[] key) {
    return store.stringCopy(key);
  }

  public byte[] stringCopy(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    return store.stringCopy(options, key, keyOff, keyLen);
  }

  public byte[] stringCopy(ReadOptions options, ByteBuffer key) {
    return store.stringCopy(options, key);
  }

  // ---- pinnable_copy: P + 1 copies, one new array

  /** The value, or null if the key does not exist. */
  public byte[] pinnableCopy(byte[] key) {
    return store.pinnableCopy(key);
  }

  public byte[] pinnableCopy(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    return store.pinnableCopy(options, key, keyOff, keyLen);
  }

  public byte[] pinnableCopy(ReadOptions options, ByteBuffer key) {
    return store.pinnableCopy(options, key);
  }

  // ---- buffer_copy: P + 1 copies, no allocation

  /** As {@link Store#bufferCopy(byte[], byte[], int, int)}: the value's size, or -1. */
  public int bufferCopy(byte[] key, byte[] dst, int off, int len) {
    return store.bufferCopy(key, dst, off, len);
  }

  public int bufferCopy(
      ReadOptions options, byte[] key, int keyOff, int keyLen, byte[] dst, int off, int len) {
    return store.bufferCopy(options, key, keyOff, keyLen, dst, off, len);
  }

  public int bufferCopy(ReadOptions options, ByteBuffer key, byte[] dst, int off, int len) {
    return store.bufferCopy(options, key, dst, off, len);
  }

  // ---- direct_copy: P + 1 copies into a direct buffer, no allocation

  /** As {@link Store#directCopy(byte[], ByteBuffer)}: the value's size, or -1. */
  public int directCopy(byte[] key, ByteBuffer dst) {
    return store.directCopy(key, dst);
  }

  public int directCopy(ReadOptions options, byte[] key, int keyOff, int keyLen, ByteBuffer dst) {
    return store.directCopy(options, key, keyOff, keyLen, dst);
  }

  public int directCopy(ReadOptions options, ByteBuffer key, ByteBuffer dst) {
    return store.directCopy(options, key, dst);
  }

  // ---- pinned_view: P copies

  /** The value pinned in a new PinnedValue (close it), or null if the key does not exist. */
  public PinnedValue pinnedView(byte[] key) {
    return store.pinnedView(key);
  }

  public PinnedValue pinnedView(ReadOptions options, byte[] key, int keyOff, int keyLen) {
    return store.pinnedView(options, key, keyOff, keyLen);
  }

  public PinnedValue pinnedView(ReadOptions options, ByteBuffer key) {
    return store.pinnedView(options, key);
  }

  /** A reusable pinned_view handle: no allocation per get. Close it before the RocksDB. */
  public PinnedView newPinnedView() {
    return store.newPinnedView();
  }

  /** A reusable batched pinned_view handle. Close it before the RocksDB. */
  public PinnedBatch newPinnedBatch() {
    return store.newPinnedBatch();
  }

  /** As {@link Store#multiGetBufferCopy}. */
  public void multiGetBufferCopy(ReadOptions options, byte[][] keys, byte[][] dsts, int[] sizes) {
    store.multiGetBufferCopy(options, keys, dsts, sizes);
  }

  /** As {@link Store#multiGetDirectCopy}. */
  public void multiGetDirectCopy(
      ReadOptions options, byte[][] keys, ByteBuffer[] dsts, int[] sizes) {
    store.multiGetDirectCopy(options, keys, dsts, sizes);
  }

  /**
   * Waits for reads in flight through this reader, then lets go of the database (RocksJava's stays
   * open). Idempotent. Handles and pinned values taken from it stay usable until closed, as long as
   * the RocksJava database is open.
   */
  @Override
  public void close() {
    store.close();
  }

  public boolean isClosed() {
    return store.isClosed();
  }
}
