// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;

/**
 * A consistent read view ({@link FfmStore#snapshot()}): reads with {@link
 * FfmReadOptions#withSnapshot} see the database as it was when it was taken. It keeps the database
 * open until closed. Thread-safe: closing it while other threads read with it lets those reads
 * finish; the native snapshot goes after the last of them, and later reads throw
 * IllegalStateException.
 */
public final class FfmSnapshot implements AutoCloseable {
  private final FfmStore store;
  private final MemorySegment handle;
  private final Cleaner.Cleanable cleanable;
  private int readers; // guarded by this
  private boolean closed; // guarded by this

  FfmSnapshot(FfmStore store, MemorySegment handle) {
    this.store = store;
    this.handle = handle;
    cleanable = Native.destroyWhenUnreachable(this, Native.SNAPSHOT_DESTROY, handle);
  }

  FfmStore store() {
    return store;
  }

  /** The native pinget_snapshot*, held for one read: pair with {@link #release()}. */
  MemorySegment acquire() {
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("snapshot is closed");
      }
      readers++;
    }
    return handle;
  }

  void release() {
    boolean last;
    synchronized (this) {
      last = --readers == 0 && closed;
    }
    if (last) {
      cleanable.clean();
    }
  }

  /** Releases the snapshot once no read uses it. Idempotent. */
  @Override
  public void close() {
    boolean now;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      now = readers == 0;
    }
    if (now) {
      cleanable.clean();
    }
  }
}
