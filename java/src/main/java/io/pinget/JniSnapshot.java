// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.ref.Cleaner;

/**
 * The JNI API's snapshot: a pinget::Snapshot*, freed once (by close() after the last read, or by
 * the Cleaner when unreachable). Made by {@link Store#snapshot()} and, for a RocksJava snapshot, by
 * native code (io.pinget.rocksjava's borrow).
 */
final class JniSnapshot extends Snapshot {
  final long handle;
  private final Cleaner.Cleanable cleanable;

  JniSnapshot(Store owner, long handle) {
    super(owner);
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

  @Override
  protected void free() {
    cleanable.clean();
  }

  /**
   * The handle for one read through store, held until {@link #end()}.
   *
   * @throws IllegalArgumentException if taken of another store
   * @throws IllegalStateException if closed
   */
  long begin(Store store) {
    if (!belongsTo(store)) {
      throw new IllegalArgumentException("the snapshot was taken of another store");
    }
    acquire();
    return handle;
  }

  void end() {
    release();
  }
}
