// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Options of a write, immutable and thread-safe, as {@code io.pinget.WriteOptions}: whether the WAL
 * is synced before the write returns, and whether the write skips the WAL (lost on a crash before
 * the next flush). Each {@code with...} makes new native options: make them once.
 */
public final class FfmWriteOptions {
  /** RocksDB's defaults: WAL written, not synced. */
  public static final FfmWriteOptions DEFAULT = new FfmWriteOptions(false, false);

  private final boolean sync;
  private final boolean disableWal;
  private final MemorySegment handle; // NULL for DEFAULT

  private FfmWriteOptions(boolean sync, boolean disableWal) {
    this.sync = sync;
    this.disableWal = disableWal;
    if (!sync && !disableWal) {
      handle = MemorySegment.NULL;
      return;
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment message = arena.allocate(ADDRESS);
      MemorySegment h = Native.create(Native.WRITE_OPTIONS_CREATE, Slots.ofThisThread());
      Native.destroyWhenUnreachable(this, Native.WRITE_OPTIONS_DESTROY, h);
      Native.check(
          (int) Native.WRITE_OPTIONS_SET_SYNC.invokeExact(h, sync ? 1 : 0, message), message);
      Native.check(
          (int) Native.WRITE_OPTIONS_SET_DISABLE_WAL.invokeExact(h, disableWal ? 1 : 0, message),
          message);
      handle = h;
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /**
   * Syncs the WAL before a write returns.
   *
   * @param sync whether to sync
   * @return new options
   */
  public FfmWriteOptions withSync(boolean sync) {
    return new FfmWriteOptions(sync, disableWal);
  }

  /**
   * Skips the WAL: the write is lost on a crash before the next flush.
   *
   * @param disable whether to skip it
   * @return new options
   */
  public FfmWriteOptions withDisableWal(boolean disable) {
    return new FfmWriteOptions(sync, disable);
  }

  MemorySegment handle() {
    return handle;
  }
}
