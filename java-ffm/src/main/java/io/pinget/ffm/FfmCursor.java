// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.pinget.CursorOptions;
import io.pinget.ReadOptions;
import io.pinget.StoreClosedException;
import io.pinget.internal.BatchCursor;
import io.pinget.internal.Checks;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.Objects;

/**
 * The FFM binding's cursor ({@link FfmStore#newCursor}), as {@code io.pinget.Cursor} is the JNI
 * API's, enforced: a batch's keys and values are read-only segments of a confined Arena closed at
 * the cursor's next batch, seek or close, so reading one afterwards (or a slice, or a buffer made
 * from it) throws IllegalStateException instead of reading memory whose pin is gone. Values are
 * RocksDB's memory (0 copies from the block cache and the memtable); keys are the cursor's copies.
 * One downcall per batch; a batch allocates one Arena and one segment over the address space, and
 * copies its entries' addresses and sizes into the cursor's arrays. Each {@link #key}/{@link
 * #value} is a slice of that segment, which the JIT scalar-replaces when it does not escape: an
 * entry read in place allocates nothing (docs/benchmarks.md).
 *
 * <p>Threads: as {@link FfmPinnedView}: one thread at a time; a batch's segments are confined to
 * the thread that got them. Once its store is closed, seeks and batches throw {@link
 * StoreClosedException}. A cursor never closed is freed by a Cleaner.
 */
public final class FfmCursor extends BatchCursor<MemorySegment> {
  /** Visits an entry of {@link #forEach}; its segments are valid during the call only. */
  @FunctionalInterface
  public interface EntryVisitor extends BatchCursor.Visitor<MemorySegment> {}

  private final FfmStore store;
  private final MemorySegment handle;
  private final Cleaner.Cleanable cleanable;
  private final Slots slots = new Slots();
  private final ValueScope scope = new ValueScope(this);
  // Per entry, in native memory, as the downcall writes them: key address and size, value address
  // and size; and the count.
  private MemorySegment keys = MemorySegment.NULL;
  private MemorySegment keySizes = MemorySegment.NULL;
  private MemorySegment values = MemorySegment.NULL;
  private MemorySegment valueSizes = MemorySegment.NULL;
  private final MemorySegment countSlot = Arena.ofAuto().allocate(JAVA_LONG);
  // The same, copied once a batch: key(i) and value(i) read an array's element for less than a
  // segment's (FFM cursor 2% to 3% faster per entry at 128 B, docs/benchmarks.md).
  private long[] keyAt = new long[0];
  private long[] keySize = new long[0];
  private long[] valueAt = new long[0];
  private long[] valueSize = new long[0];
  private int capacity;
  private boolean closed;

  /** REQUIRES: options checked, its snapshot (if any) begun for this cursor's life. */
  FfmCursor(FfmStore store, CursorOptions options, MemorySegment readOptions) {
    this.store = store;
    byte[] lower = options.lowerBound();
    byte[] upper = options.upperBound();
    byte[] prefix = options.prefix();
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment out = arena.allocate(ADDRESS);
      Native.check(
          (int)
              Native.CURSOR_CREATE.invokeExact(
                  store.handle(),
                  readOptions,
                  bytes(arena, lower),
                  (long) length(lower),
                  bytes(arena, upper),
                  (long) length(upper),
                  bytes(arena, prefix),
                  (long) length(prefix),
                  out,
                  slots.message),
          slots.message);
      handle = out.get(ADDRESS, 0);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
    MemorySegment h = handle;
    ReadOptions begun = options.readOptions();
    cleanable =
        Native.cleanWhenUnreachable(
            this,
            () -> {
              Native.call(Native.CURSOR_DESTROY, h);
              FfmStore.end(begun);
            });
  }

  private static int length(byte[] b) {
    return b == null ? 0 : b.length;
  }

  private static MemorySegment bytes(Arena arena, byte[] b) {
    if (b == null) {
      return MemorySegment.NULL;
    }
    MemorySegment s = arena.allocate(Math.max(1, b.length));
    MemorySegment.copy(b, 0, s, JAVA_BYTE, 0, b.length);
    return s;
  }

  /** Positions at the first entry of the range; the last batch's segments close. */
  public void seekToFirst() {
    start();
    position(Native.CURSOR_SEEK_TO_FIRST, null);
  }

  /** Positions at the last entry of the range; the last batch's segments close. */
  public void seekToLast() {
    start();
    position(Native.CURSOR_SEEK_TO_LAST, null);
  }

  /**
   * Positions at the first entry at or after key; the last batch's segments close.
   *
   * @param key not null, not empty
   */
  public void seek(byte[] key) {
    start();
    Checks.key(key, 0, key == null ? 0 : key.length);
    position(Native.CURSOR_SEEK, key);
  }

  /**
   * Positions at the last entry at or before key; the last batch's segments close.
   *
   * @param key not null, not empty
   */
  public void seekForPrev(byte[] key) {
    start();
    Checks.key(key, 0, key == null ? 0 : key.length);
    position(Native.CURSOR_SEEK_FOR_PREV, key);
  }

  @Override
  public MemorySegment key(int i) {
    checkIndex(i);
    return scope.slice(keyAt[i], keySize[i]);
  }

  @Override
  public MemorySegment value(int i) {
    checkIndex(i);
    return scope.slice(valueAt[i], valueSize[i]);
  }

  /** Closes the batch's segments and frees the cursor (and its snapshot). Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      scope.close();
      count = 0;
      closed = true;
      cleanable.clean();
    }
  }

  @Override
  protected void start() {
    if (closed) {
      throw new IllegalStateException("cursor is closed");
    }
    try {
      store.checkOpen();
    } catch (StoreClosedException e) {
      scope.close(); // nothing can be read with the batch again
      count = 0;
      throw e;
    }
  }

  private void position(MethodHandle seek, byte[] key) {
    scope.close();
    count = 0;
    try {
      int code =
          key == null
              ? (int) seek.invokeExact(handle, slots.message)
              : (int) seek.invokeExact(handle, slots.key(key), (long) key.length, slots.message);
      Native.check(code, slots.message);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this); // its Cleaner must not free the cursor during the call
    }
  }

  @Override
  protected int lend(int n, boolean forward) {
    scope.close();
    count = 0;
    reserve(n);
    MethodHandle call =
        n <= Native.CRITICAL_BATCH_KEYS
            ? (forward ? Native.CURSOR_NEXT : Native.CURSOR_PREV)
            : (forward ? Native.CURSOR_NEXT_LARGE : Native.CURSOR_PREV_LARGE);
    try {
      int code =
          (int)
              call.invokeExact(
                  handle, (long) n, keys, keySizes, values, valueSizes, countSlot, slots.message);
      scope.open();
      int c = (int) countSlot.get(JAVA_LONG, 0);
      MemorySegment.copy(keys, JAVA_LONG, 0, keyAt, 0, c);
      MemorySegment.copy(keySizes, JAVA_LONG, 0, keySize, 0, c);
      MemorySegment.copy(values, JAVA_LONG, 0, valueAt, 0, c);
      MemorySegment.copy(valueSizes, JAVA_LONG, 0, valueSize, 0, c);
      count = c;
      Native.check(code, slots.message); // the entries lent before an error stay readable
      return count;
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private void reserve(int n) {
    if (n > capacity) {
      int c = Math.max(n, 2 * capacity);
      Arena arena = Arena.ofAuto();
      keys = arena.allocate(JAVA_LONG, c);
      keySizes = arena.allocate(JAVA_LONG, c);
      values = arena.allocate(JAVA_LONG, c);
      valueSizes = arena.allocate(JAVA_LONG, c);
      keyAt = new long[c];
      keySize = new long[c];
      valueAt = new long[c];
      valueSize = new long[c];
      capacity = c;
    }
  }

  private void checkIndex(int i) {
    if (closed) {
      throw new IllegalStateException("cursor is closed");
    }
    Objects.checkIndex(i, count);
  }
}
