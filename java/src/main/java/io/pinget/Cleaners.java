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
   * Frees a native pin holder (PinnedValue, PinnedView, PinnedBatch) exactly once. Holds only the
   * handle, never the Java owner. A run that close() did not ask for is counted as a leak.
   */
  static final class FreePin implements Runnable {
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
