// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;

/** The Cleaner that frees native objects whose Java owner became unreachable. */
final class Cleaners {
  static final Cleaner CLEANER = Cleaner.create();
  static final AtomicLong PINS_RELEASED_BY_CLEANER = new AtomicLong();

  private Cleaners() {}

  /**
   * The native object behind a pin holder (PinnedValue, PinnedView, PinnedBatch), freed exactly
   * once: by {@link #free()} from the owner's close(), or by the Cleaner once the owner is
   * unreachable. Not thread-safe, like its owner.
   */
  static final class PinHandle {
    private long handle;
    private final FreePin free;
    private final Cleaner.Cleanable cleanable;

    PinHandle(Object owner, long handle, boolean batch) {
      this.handle = handle;
      this.free = new FreePin(handle, batch);
      this.cleanable = CLEANER.register(owner, free);
    }

    /** The native handle; throws IllegalStateException ("what is closed") once freed. */
    long checkOpen(String what) {
      if (handle == 0) {
        throw new IllegalStateException(what + " is closed");
      }
      return handle;
    }

    boolean isOpen() {
      return handle != 0;
    }

    /** REQUIRES: isOpen(). The caller has released the pins. */
    void free() {
      handle = 0;
      free.markClosed();
      cleanable.clean();
    }
  }

  /**
   * Frees a native pin holder exactly once. Holds only the handle, never the Java owner. A run that
   * close() did not ask for is counted as a leak.
   */
  private static final class FreePin implements Runnable {
    private final long handle;
    private final boolean batch;
    private volatile boolean closed;

    FreePin(long handle, boolean batch) {
      this.handle = handle;
      this.batch = batch;
    }

    void markClosed() {
      closed = true;
    }

    @Override
    public void run() {
      if (!closed) {
        PINS_RELEASED_BY_CLEANER.incrementAndGet();
      }
      if (batch) {
        NativePinned.freeBatch(handle);
      } else {
        NativePinned.freePinned(handle);
      }
    }
  }
}
