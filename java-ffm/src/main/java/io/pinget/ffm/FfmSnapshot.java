// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import io.pinget.Snapshot;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;

/**
 * The FFM binding's snapshot ({@link FfmStore#snapshot()}): a pinget_snapshot*, freed once, by
 * close() after the last read that uses it, or by the Cleaner when unreachable. Reads through
 * another store, or through the JNI API, refuse it.
 */
final class FfmSnapshot extends Snapshot {
  private final MemorySegment handle;
  private final Cleaner.Cleanable cleanable;

  FfmSnapshot(FfmStore store, MemorySegment handle) {
    super(store);
    this.handle = handle;
    cleanable = Native.destroyWhenUnreachable(this, Native.SNAPSHOT_DESTROY, handle);
  }

  @Override
  protected void free() {
    cleanable.clean();
  }

  /**
   * The native snapshot of snapshot, for one read through store, held until {@link #end}; NULL for
   * none.
   *
   * @throws IllegalArgumentException if taken of another store or through the JNI API
   * @throws IllegalStateException if closed
   */
  static MemorySegment begin(Snapshot snapshot, FfmStore store) {
    if (snapshot == null) {
      return MemorySegment.NULL;
    }
    if (!(snapshot instanceof FfmSnapshot s) || !s.belongsTo(store)) {
      throw new IllegalArgumentException("the snapshot was taken of another store");
    }
    s.acquire();
    return s.handle;
  }

  /** Ends what {@link #begin} began. */
  static void end(Snapshot snapshot) {
    if (snapshot != null) {
      ((FfmSnapshot) snapshot).release();
    }
  }
}
