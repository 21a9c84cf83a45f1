// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A consistent read view, used through {@link ReadOptions#withSnapshot}, taken from a store ({@link
 * Store#snapshot()}) or wrapped around a RocksJava snapshot ({@code RocksJavaReader.snapshot}). It
 * keeps its database open (even after its store closes) until closed. Reads with it through another
 * store, or another binding, throw IllegalArgumentException.
 *
 * <p>Thread-safe: reads in flight count as users, and the native snapshot is freed by whichever of
 * close() and the last such read comes last, so close() never frees it under a read. Reads that
 * start after close() throw IllegalStateException.
 *
 * <p>A store's snapshots serve reads through each of its doors ({@code Store}, the {@code FfmStore}
 * over it); the one subclass is package-private.
 */
public abstract class Snapshot implements AutoCloseable {
  private static final int CLOSED = 1 << 30;
  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(Snapshot.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Object owner;

  @SuppressWarnings("unused") // accessed through STATE: reads in flight, plus CLOSED
  private volatile int state;

  /**
   * For a binding's subclass.
   *
   * @param owner the store or reader the snapshot was taken of; not null
   */
  protected Snapshot(Object owner) {
    this.owner = java.util.Objects.requireNonNull(owner, "owner");
  }

  /**
   * Whether it was taken of owner.
   *
   * @param owner a store or reader
   * @return true if reads through owner may use it
   */
  protected final boolean belongsTo(Object owner) {
    return this.owner == owner;
  }

  /**
   * Counts a read in flight; pair with {@link #release()}.
   *
   * @throws IllegalStateException if closed
   */
  protected final void acquire() {
    for (; ; ) {
      int s = (int) STATE.getVolatile(this);
      if ((s & CLOSED) != 0) {
        throw new IllegalStateException("snapshot is closed");
      }
      if (STATE.compareAndSet(this, s, s + 1)) {
        return;
      }
    }
  }

  /**
   * Ends a read counted by {@link #acquire()}; frees the snapshot if it was the last after close.
   */
  protected final void release() {
    if ((int) STATE.getAndAdd(this, -1) - 1 == CLOSED) {
      free();
    }
  }

  /** Frees the native snapshot; called once, when closed and no read uses it. */
  protected abstract void free();

  /** Idempotent. */
  @Override
  public final void close() {
    if ((int) STATE.getAndBitwiseOr(this, CLOSED) == 0) {
      free();
    }
  }
}
