// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.rocksjava;

import io.pinget.ColumnFamily;
import io.pinget.PinnedBatch;
import io.pinget.PinnedValue;
import io.pinget.PinnedView;
import io.pinget.ReadOptions;
import io.pinget.Reader;
import io.pinget.Snapshot;
import io.pinget.Store;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * pinget's strategies over a database that RocksJava opened: the same {@code RocksDB} instance,
 * read without RocksJava's copies. It lends a {@link Store} over that database ({@link #store()}),
 * a {@link Reader} whose methods, copy counts, copy accounting and order of checks are the
 * contract's: {@code stringCopy} (the baseline: 2 copies), {@code pinnableCopy} (P + 1 copies, one
 * new array), {@code bufferCopy} and {@code directCopy} (P + 1, no allocation), {@code
 * pinnedValue}, {@link PinnedView} and {@link PinnedBatch} (P: the caller reads the pinned
 * block-cache bytes). P is 0 for a value in the block cache, 1 otherwise (a memtable hit, {@code
 * fill_cache=false}).
 *
 * <p>Column families: {@link #columnFamily(ColumnFamilyHandle)} resolves db's default one or a
 * handle given to {@link #open}; pass it with {@link ReadOptions#withColumnFamily}. Snapshots: wrap
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
    this.store = RocksJavaNatives.borrow(db.getNativeHandle(), handles, this::checkOwned);
  }

  /**
   * A reader over a RocksJava database.
   *
   * @param db not null, open
   * @param columnFamilies handles of db besides its default column family, none null or closed;
   *     resolve them with {@link #columnFamily(ColumnFamilyHandle)}
   * @return the reader; close it before db
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
      if (ownerOf(h) != db) {
        throw new IllegalArgumentException("columnFamilies[" + i + "] belongs to another RocksDB");
      }
      if (!h.isOwningHandle() && !isDefault(db, h)) {
        throw new IllegalStateException("columnFamilies[" + i + "] is closed");
      }
    }
    return new RocksJavaReader(db, families);
  }

  /**
   * Whether h is db's default column family handle, which db owns (RocksJava's handle for it does
   * not own its native object, so its isOwningHandle() is always false). Compares native addresses
   * only. REQUIRES: db is open.
   */
  private static boolean isDefault(RocksDB db, ColumnFamilyHandle h) {
    return ownerOf(h) == db && h.getNativeHandle() == db.getDefaultColumnFamily().getNativeHandle();
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
    if (columnFamily > 0 && columnFamily <= families.length) {
      ColumnFamilyHandle h = families[columnFamily - 1];
      if (!h.isOwningHandle() && !isDefault(db, h)) {
        throw new IllegalStateException("column family " + columnFamily + " is closed");
      }
    }
  }

  /**
   * The column family of one of db's handles, for {@link ReadOptions#withColumnFamily}.
   *
   * @param handle not null, open: db's default column family, or one given to {@link #open}
   * @return the column family
   * @throws IllegalArgumentException if this reader was not opened with that handle
   * @throws IllegalStateException if the handle is closed
   */
  public ColumnFamily columnFamily(ColumnFamilyHandle handle) {
    checkOpen();
    Objects.requireNonNull(handle, "handle");
    if (isDefault(db, handle)) {
      return ColumnFamily.DEFAULT;
    }
    if (!handle.isOwningHandle()) {
      throw new IllegalStateException("the column family handle is closed");
    }
    for (ColumnFamilyHandle family : families) {
      if (family == handle) {
        try {
          return store.columnFamily(new String(handle.getName(), StandardCharsets.UTF_8));
        } catch (RocksDBException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    throw new IllegalArgumentException("this reader was not opened with that handle");
  }

  /**
   * A pinget Snapshot over a snapshot RocksJava took of this database, for {@link
   * ReadOptions#withSnapshot}. Closing it does not release RocksJava's snapshot; release that (with
   * {@code RocksDB.releaseSnapshot}) only after this wrapper is closed and no read uses it.
   *
   * @param snapshot not null, taken of this reader's database and not released
   * @return the wrapper; close it before releasing the RocksJava snapshot
   */
  public Snapshot snapshot(org.rocksdb.Snapshot snapshot) {
    checkOpen();
    Objects.requireNonNull(snapshot, "snapshot");
    return RocksJavaNatives.borrowSnapshot(store, snapshot.getNativeHandle());
  }

  /**
   * The first check of every call but the reads (which the store makes): closed, then RocksJava.
   */
  private void checkOpen() {
    if (store.isClosed()) {
      throw new io.pinget.StoreClosedException("Closed: the reader is closed");
    }
    checkOwned(0);
  }

  /**
   * The RocksJava database this reader reads.
   *
   * @return the RocksDB given to {@link #open}
   */
  public RocksDB db() {
    return db;
  }

  /**
   * The pinget store over this database, lent for this reader's life: every read of the {@link
   * Reader} contract, whose checks run RocksJava's ownership check first (closed database or column
   * family: IllegalStateException). It reads only: its writes and {@code snapshot()} throw
   * UnsupportedOperationException (write through RocksJava; wrap RocksJava's snapshots with {@link
   * #snapshot(org.rocksdb.Snapshot)}). Closing it closes this reader.
   *
   * @return the store, the same one at every call
   */
  public Store store() {
    return store;
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

  /**
   * Whether this reader (its store) is closed.
   *
   * @return true once closed
   */
  public boolean isClosed() {
    return store.isClosed();
  }
}
