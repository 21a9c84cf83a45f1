// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import io.pinget.internal.BatchCursor;
import io.pinget.internal.Checks;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * A scan of a reader's entries in key order, forward or backward, lent in batches ({@link
 * Reader#newCursor}): {@link #next(int)} or {@link #prev(int)} lends up to that many entries in one
 * JNI call, shown by read-only views ({@link #key(int)}, {@link #value(int)}) re-pointed at them.
 * Values are RocksDB's own memory, block cache or memtable (0 copies, where RocksDB does not
 * compute the value: a merge, a blob); keys are the cursor's copies (one key copy each: RocksDB
 * rebuilds an SST file's keys in a buffer that moves on). A warm scan allocates nothing per entry.
 *
 * <p>Views are valid until the next batch, seek or close(); then they have capacity 0, so reading
 * them throws (slices and duplicates cannot be invalidated: read them only while valid). Copy what
 * you keep ({@link #copyKey}, {@link #copyValue}: one counted copy).
 *
 * <p>The cursor reads one consistent view for its whole life (the read options' snapshot, or one it
 * takes when it is made) and keeps its database open after its store closes; once the store is
 * closed, its seeks and batches throw {@link StoreClosedException} and it lets go of the database.
 * A long-open cursor holds its snapshot and the files it sees (compaction cannot drop them) and up
 * to 4 MiB of blocks beyond its current batch. Not thread-safe. A cursor never closed is released
 * by a Cleaner (counted in {@link PinnedValue#releasedByCleaner()}).
 */
public final class Cursor extends BatchCursor<ByteBuffer> {
  private static final ByteBuffer[] NO_VIEWS = new ByteBuffer[0];

  /** Visits an entry of {@link #forEach}; key and value are valid during the call only. */
  @FunctionalInterface
  public interface EntryVisitor extends BatchCursor.Visitor<ByteBuffer> {}

  private final Store store;
  private final ColumnFamily columnFamily;
  private final long handle;
  private final Free free;
  private final Cleaner.Cleanable cleanable;
  private ByteBuffer[] keys = NO_VIEWS; // attached to this; grown, never shrunk
  private ByteBuffer[] values = NO_VIEWS;
  // Where Java re-points the views (Views.JAVA_REPOINTED): each batch's addresses and sizes, as
  // native code writes them (NativeCursor.setTable), 4 longs per entry; else null. Package-private
  // for a test.
  ByteBuffer table;
  private boolean closed;

  /** REQUIRES: options checked (the store open, its content acquired: snapshot). */
  Cursor(Store store, CursorOptions options, long snapshotHandle) {
    this.store = store;
    this.columnFamily = options.read.columnFamily;
    this.handle =
        NativeCursor.open(
            store.handle,
            options.lower,
            options.upper,
            options.prefix,
            snapshotHandle,
            columnFamily.id(),
            options.read.flags);
    this.free = new Free(store, handle, options.read.snapshot);
    this.cleanable = Cleaners.CLEANER.register(this, free);
  }

  /**
   * Frees the native cursor once, and ends the read of its snapshot, without referring to the
   * Cursor. A run close() did not ask for is counted as a leak. Over a RocksJava database that
   * RocksJava has closed, the iterator is abandoned (leaked) instead: deleting it would touch the
   * freed database (a forgotten cursor's Cleaner aborted the JVM so).
   */
  private static final class Free implements Runnable {
    private final Store store;
    private final long handle;
    private final Snapshot snapshot;
    private volatile boolean closed;

    Free(Store store, long handle, Snapshot snapshot) {
      this.store = store;
      this.handle = handle;
      this.snapshot = snapshot;
    }

    @Override
    public void run() {
      if (!closed) {
        Cleaners.PINS_RELEASED_BY_CLEANER.incrementAndGet();
      }
      if (store.ownerClosed()) {
        NativeCursor.abandon(handle);
      } else {
        NativeCursor.free(handle);
      }
      if (snapshot != null) {
        snapshot.end();
      }
    }
  }

  /** Positions at the first entry of the range; drops the batch lent. */
  public void seekToFirst() {
    position(0, null, null, 0, 0);
  }

  /** Positions at the last entry of the range; drops the batch lent. */
  public void seekToLast() {
    position(1, null, null, 0, 0);
  }

  /**
   * Positions at the first entry at or after key; drops the batch lent.
   *
   * @param key not null, not empty
   */
  public void seek(byte[] key) {
    seek(key, 0, key == null ? 0 : key.length);
  }

  /**
   * Positions at the first entry at or after key[off, off + len); drops the batch lent.
   *
   * @param key not null
   * @param off start of the key
   * @param len the key's length, more than 0
   */
  public void seek(byte[] key, int off, int len) {
    start();
    Checks.key(key, off, len);
    position(2, key, null, off, len);
  }

  /**
   * Positions at the first entry at or after a key read from a direct buffer; drops the batch.
   *
   * @param key a direct buffer, not null, not empty; its position is left unchanged
   */
  public void seek(ByteBuffer key) {
    start();
    Checks.key(key);
    position(2, null, key, key.position(), key.remaining());
  }

  /**
   * Positions at the last entry at or before key; drops the batch lent.
   *
   * @param key not null, not empty
   */
  public void seekForPrev(byte[] key) {
    seekForPrev(key, 0, key == null ? 0 : key.length);
  }

  /**
   * Positions at the last entry at or before key[off, off + len); drops the batch lent.
   *
   * @param key not null
   * @param off start of the key
   * @param len the key's length, more than 0
   */
  public void seekForPrev(byte[] key, int off, int len) {
    start();
    Checks.key(key, off, len);
    position(3, key, null, off, len);
  }

  @Override
  public ByteBuffer key(int i) {
    long h = checkIndex(i);
    if (Views.REPOINTED) {
      return keys[i];
    }
    try {
      return Views.readOnly(NativeCursor.keyOf(h, i));
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  @Override
  public ByteBuffer value(int i) {
    long h = checkIndex(i);
    if (Views.REPOINTED) {
      return values[i];
    }
    try {
      return Views.readOnly(NativeCursor.valueOf(h, i));
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Whether entry i's value was read in place.
   *
   * @param i from 0 to count() - 1
   * @return true if it is RocksDB's memory (no copy); false if RocksDB computed it (a merge, a
   *     blob) and the cursor holds a copy (one counted copy)
   */
  public boolean valuePinned(int i) {
    long h = checkIndex(i);
    try {
      return NativeCursor.valuePinned(h, i);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Copies min(size, len) bytes of entry i's key into dst[off, off + len): one counted key copy.
   *
   * @param i from 0 to count() - 1
   * @param dst not null
   * @param off where the key goes
   * @param len room in dst
   * @return the key's full size (more than len: dst was too small)
   */
  public int copyKey(int i, byte[] dst, int off, int len) {
    return copyOut(i, false, dst, off, len);
  }

  /**
   * Copies min(size, len) bytes of entry i's value into dst[off, off + len): one counted copy.
   *
   * @param i from 0 to count() - 1
   * @param dst not null
   * @param off where the value goes
   * @param len room in dst
   * @return the value's full size (more than len: dst was too small)
   */
  public int copyValue(int i, byte[] dst, int off, int len) {
    return copyOut(i, true, dst, off, len);
  }

  /** Drops the batch, the iterator and the snapshot, and lets go of the database. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (!store.ownerClosed()) { // else Free abandons the iterator
        NativeCursor.close(handle);
      }
      int shown = count;
      count = 0;
      showBatch(shown);
      free.closed = true;
      cleanable.clean();
      if (table != null) { // the native cursor is gone (or abandoned): nothing writes it now
        giveTable(table);
        table = null;
      }
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * The first checks of every call: this cursor, then its store. A closed store also lets the
   * cursor drop its batch, iterator and snapshot (nothing can be read with them again); the cursor
   * stays open, throwing StoreClosedException, until closed.
   */
  @Override
  protected void start() {
    if (closed) {
      throw new IllegalStateException("Cursor is closed");
    }
    try {
      store.checkOpen(columnFamily);
    } catch (StoreClosedException e) {
      try {
        NativeCursor.close(handle);
        int shown = count;
        count = 0;
        showBatch(shown);
      } finally {
        Reference.reachabilityFence(this);
      }
      throw e;
    }
  }

  private void position(int how, byte[] key, ByteBuffer keyBuffer, int off, int len) {
    if (how < 2) {
      start();
    }
    int shown = count;
    count = 0;
    try {
      long keyAt = how < 2 ? 0 : KeyCopy.ofThisThread(key, keyBuffer, off, len);
      NativeCursor.seek(handle, how, key, keyBuffer, keyAt, off, len);
    } finally {
      showBatch(shown);
      Reference.reachabilityFence(store);
      Reference.reachabilityFence(this);
    }
  }

  @Override
  protected int lend(int n, boolean forward) {
    if (Views.REPOINTED) {
      grow(n);
    }
    int shown = count;
    count = 0;
    try {
      count = NativeCursor.lend(handle, n, forward);
      return count;
    } finally {
      showBatch(shown);
      Reference.reachabilityFence(store);
      Reference.reachabilityFence(this);
    }
  }

  private long checkIndex(int i) {
    if (closed) {
      throw new IllegalStateException("Cursor is closed");
    }
    Objects.checkIndex(i, count);
    return handle;
  }

  private int copyOut(int i, boolean value, byte[] dst, int off, int len) {
    long h = checkIndex(i);
    Checks.range(dst, off, len, "dst");
    try {
      return NativeCursor.copyOut(h, i, value, dst, off, len);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Views for n entries (native code gets the grown arrays, or the grown table, once). */
  private void grow(int n) {
    if (n <= keys.length) {
      return;
    }
    ByteBuffer[] k = Arrays.copyOf(keys, n);
    ByteBuffer[] v = Arrays.copyOf(values, n);
    for (int i = keys.length; i < n; i++) {
      k[i] = Views.attachedTo(this);
      v[i] = Views.attachedTo(this);
    }
    if (Views.JAVA_REPOINTED) {
      if (table == null || table.capacity() < n * TABLE_BYTES) {
        ByteBuffer t = takeTable(n * TABLE_BYTES);
        NativeCursor.setTable(handle, t);
        if (table != null) {
          giveTable(table); // native code writes t from now on
        }
        table = t;
      }
    } else {
      NativeCursor.setViews(handle, k, v);
    }
    keys = k;
    values = v;
  }

  private static final int TABLE_BYTES = 4 * Long.BYTES;

  /**
   * Each thread's spare tables, given by cursors closed on it, so that the next cursors'
   * first batches do not allocate direct memory (which a Cleaner frees, after a GC). Two, for a
   * cursor read inside another's scan. A table is one cursor's from take until the cursor closes or
   * outgrows it: native code writes it only in that cursor's calls.
   */
  private static final ThreadLocal<ByteBuffer[]> SPARE_TABLES =
      ThreadLocal.withInitial(() -> new ByteBuffer[2]);

  /** The largest table kept spare: a batch of 256 entries (8 KiB), as forEach lends. */
  private static final int SPARE_TABLE_BYTES = 256 * TABLE_BYTES;

  /** The smallest spare table of at least bytes, or a new one. */
  private static ByteBuffer takeTable(int bytes) {
    ByteBuffer[] spare = SPARE_TABLES.get();
    int best = -1;
    for (int i = 0; i < spare.length; i++) {
      if (spare[i] != null
          && spare[i].capacity() >= bytes
          && (best < 0 || spare[i].capacity() < spare[best].capacity())) {
        best = i;
      }
    }
    if (best < 0) {
      return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
    }
    ByteBuffer t = spare[best];
    spare[best] = null;
    return t;
  }

  /**
   * Keeps t as one of this thread's spare tables, in place of a smaller one if none is free.
   * REQUIRES: no native cursor writes t any more.
   */
  private static void giveTable(ByteBuffer t) {
    if (t.capacity() > SPARE_TABLE_BYTES) {
      return;
    }
    ByteBuffer[] spare = SPARE_TABLES.get();
    int at = 0;
    for (int i = 0; i < spare.length; i++) {
      if (spare[i] == null) {
        at = i;
        break;
      }
      if (spare[i].capacity() < spare[at].capacity()) {
        at = i;
      }
    }
    if (spare[at] == null || spare[at].capacity() < t.capacity()) {
      spare[at] = t;
    }
  }

  /**
   * After a native call: the views show the batch (count entries), and those that showed the one
   * before (shown entries) and are past it show nothing. Where Java re-points, it does so here from
   * the table; else native code did, and the views' position and mark are reset.
   */
  private void showBatch(int shown) {
    int n = Math.min(count, keys.length);
    int last = Math.min(Math.max(shown, count), keys.length);
    if (!Views.JAVA_REPOINTED) {
      for (int i = 0; i < last; i++) {
        Views.reset(keys[i]);
        Views.reset(values[i]);
      }
      return;
    }
    ByteBuffer t = table;
    for (int i = 0; i < n; i++) {
      int at = i * TABLE_BYTES;
      Views.point(keys[i], t.getLong(at), (int) t.getLong(at + 8));
      Views.point(values[i], t.getLong(at + 16), (int) t.getLong(at + 24));
    }
    for (int i = n; i < last; i++) {
      Views.pointAtNothing(keys[i]);
      Views.pointAtNothing(values[i]);
    }
  }
}
