// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;

/**
 * A consistent read view, used through {@link ReadOptions#withSnapshot}, taken from a store ({@link
 * Store#snapshot()}) or wrapped around a RocksJava snapshot ({@code RocksJavaReader.snapshot}). It
 * keeps its database open (even after its store closes) until closed. It serves reads through each
 * door onto its store ({@code Store}, an {@code FfmStore} over it); reads with it through another
 * store throw IllegalArgumentException.
 *
 * <p>Thread-safe: reads in flight count as users, and the native snapshot (a pinget::Snapshot*) is
 * freed by whichever of close() and the last such read comes last, so close() never frees it under
 * a read; the Cleaner frees it if it becomes unreachable unclosed. Reads that start after close()
 * throw IllegalStateException.
 */
public final class Snapshot implements AutoCloseable {
  private static final int CLOSED = 1 << 30;
  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(Snapshot.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Store owner;
  private final long handle;
  private final Cleaner.Cleanable cleanable;

  @SuppressWarnings("unused") // accessed through STATE: reads in flight, plus CLOSED
  private volatile int state;

  /** Made by {@link Store#snapshot()} and, for a RocksJava snapshot, by native code. */
  Snapshot(Store owner, long handle) {
    this.owner = owner;
    this.handle = handle;
    this.cleanable = Cleaners.CLEANER.register(this, new Free(handle));
  }

  /** Holds only the handle, never the snapshot. */
  private static final class Free implements Runnable {
    private final long handle;

    Free(long handle) {
      this.handle = handle;
    }

    @Override
    public void run() {
      NativeStore.freeSnapshot(handle);
    }
  }

  /**
   * The handle for one read through store, held until {@link #end()}.
   *
   * @throws IllegalArgumentException if taken of another store
   * @throws IllegalStateException if closed
   */
  long begin(Store store) {
    if (owner != store) {
      throw new IllegalArgumentException("the snapshot was taken of another store");
    }
    for (; ; ) {
      int s = (int) STATE.getVolatile(this);
      if ((s & CLOSED) != 0) {
        throw new IllegalStateException("snapshot is closed");
      }
      if (STATE.compareAndSet(this, s, s + 1)) {
        return handle;
      }
    }
  }

  /** Ends a read counted by {@link #begin}; frees the snapshot if it was the last after close. */
  void end() {
    if ((int) STATE.getAndAdd(this, -1) - 1 == CLOSED) {
      cleanable.clean();
    }
  }

  /** Idempotent. */
  @Override
  public void close() {
    if ((int) STATE.getAndBitwiseOr(this, CLOSED) == 0) {
      cleanable.clean();
    }
  }
}
