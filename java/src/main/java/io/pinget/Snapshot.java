// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;

/**
 * A consistent read view, used through {@link ReadOptions#withSnapshot}. Keeps its database open
 * (even after its Store closes) until closed. Thread-safe: reads in flight count as users, and the
 * native snapshot is freed by whichever of close() and the last such read comes last, so close()
 * never frees it under a read. Reads that start after close() throw IllegalStateException.
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

  private final long handle;
  private final Cleaner.Cleanable cleanable;

  @SuppressWarnings("unused") // accessed through STATE: reads in flight, plus CLOSED
  private volatile int state;

  Snapshot(long handle) {
    this.handle = handle;
    this.cleanable = Cleaners.CLEANER.register(this, new Free(handle));
  }

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

  long acquire() {
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

  void release() {
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
