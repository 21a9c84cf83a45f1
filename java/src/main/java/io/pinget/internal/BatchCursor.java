// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.internal;

import java.util.Objects;

/**
 * What the JNI cursor ({@code io.pinget.Cursor}) and the FFM cursor ({@code
 * io.pinget.ffm.FfmCursor}) share: lending in batches, the batch's count and the entry loop. V is
 * how a door shows an entry's bytes (a ByteBuffer view, a MemorySegment); how it is lent, shown and
 * invalidated is each door's. Not thread-safe, as its subclasses.
 *
 * @param <V> the type of an entry's key and value
 */
public abstract class BatchCursor<V> implements AutoCloseable {
  /** The most entries one batch lends; a larger max lends this many. */
  public static final int MAX_BATCH = 4096;

  /**
   * Visits an entry of {@link #forEach}; key and value are valid during the call only.
   *
   * @param <V> the type of an entry's key and value
   */
  @FunctionalInterface
  public interface Visitor<V> {
    /**
     * Visits one entry.
     *
     * @param key its key, read-only
     * @param value its value, read-only
     * @return true to go on, false to stop after this entry
     */
    boolean visit(V key, V value);
  }

  /** The entries of the last batch: set by {@link #lend}; 0 after a seek, a failure or close(). */
  protected int count;

  /** For pinget's cursors only. */
  protected BatchCursor() {}

  /**
   * Drops the batch lent, then lends up to max entries from the position forward: the entry at the
   * position, then those after it; the position moves past them.
   *
   * @param max at least 1; at most {@link #MAX_BATCH} are lent
   * @return the entries lent; fewer than max (0 included): the range is exhausted forward (or no
   *     seek was made), and the next batch lends 0
   * @throws IllegalStateException if closed
   * @throws IllegalArgumentException if max is below 1
   * @throws io.pinget.PingetException if RocksDB fails (the entries lent before it stay readable)
   */
  public final int next(int max) {
    start();
    return lend(size(max), true);
  }

  /**
   * As {@link #next(int)}, backward: the entry at the position, then those before it.
   *
   * @param max at least 1; at most {@link #MAX_BATCH} are lent
   * @return the entries lent; fewer than max (0 included): the range is exhausted backward
   */
  public final int prev(int max) {
    start();
    return lend(size(max), false);
  }

  /**
   * The entries of the last batch.
   *
   * @return their count (0 after a seek or close())
   */
  public final int count() {
    return count;
  }

  /**
   * Entry i's key: the cursor's copy.
   *
   * @param i from 0 to count() - 1
   * @return read-only, valid until the next batch, seek or close()
   * @throws IllegalStateException if closed
   * @throws IndexOutOfBoundsException if i is not below count()
   */
  public abstract V key(int i);

  /**
   * Entry i's value: RocksDB's memory read in place.
   *
   * @param i from 0 to count() - 1
   * @return read-only, valid until the next batch, seek or close()
   * @throws IllegalStateException if closed
   * @throws IndexOutOfBoundsException if i is not below count()
   */
  public abstract V value(int i);

  /**
   * Visits every entry from the position forward, batch by batch, until the range ends or the
   * visitor returns false: no allocation per entry. What the visitor is passed is valid during the
   * call only.
   *
   * @param visitor not null
   * @return the entries visited
   */
  public final long forEach(Visitor<? super V> visitor) {
    start();
    Objects.requireNonNull(visitor, "visitor");
    long visited = 0;
    for (int n = next(256); n > 0; n = next(256)) {
      for (int i = 0; i < n; i++) {
        visited++;
        if (!visitor.visit(key(i), value(i))) {
          return visited;
        }
      }
    }
    return visited;
  }

  /**
   * The first checks of every call but key(i) and value(i): this cursor is open, then its store.
   *
   * @throws IllegalStateException if this cursor is closed
   * @throws io.pinget.StoreClosedException if its store is (the cursor drops its batch)
   */
  protected abstract void start();

  /**
   * Drops the batch lent and lends the next one, setting {@link #count}. REQUIRES: start() passed.
   *
   * @param n from 1 to {@link #MAX_BATCH}
   * @param forward the direction
   * @return count
   */
  protected abstract int lend(int n, boolean forward);

  /** Drops the batch and frees the cursor; idempotent. */
  @Override
  public abstract void close();

  private static int size(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max is " + max + ": at least 1");
    }
    return Math.min(max, MAX_BATCH);
  }
}
