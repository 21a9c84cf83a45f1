// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Options of a read, immutable and thread-safe, as {@code io.pinget.ReadOptions}: a snapshot, the
 * column family (by id, {@link FfmStore#columnFamilyId}), whether blocks read from files fill the
 * block cache, and whether they are checked. Each {@code with...} makes a new one (with native
 * options of its own, freed when it is unreachable): make them once, not per read.
 */
public final class FfmReadOptions {
  /** RocksDB's defaults: latest data, default column family, fill the cache, verify checksums. */
  public static final FfmReadOptions DEFAULT = new FfmReadOptions(null, 0, true, true);

  private final FfmSnapshot snapshot;
  private final int columnFamily;
  private final boolean fillCache;
  private final boolean verifyChecksums;

  /** The native pinget_read_options* (NULL for DEFAULT: the C API's defaults). */
  private final MemorySegment handle;

  private FfmReadOptions(
      FfmSnapshot snapshot, int columnFamily, boolean fillCache, boolean verifyChecksums) {
    this.snapshot = snapshot;
    this.columnFamily = columnFamily;
    this.fillCache = fillCache;
    this.verifyChecksums = verifyChecksums;
    if (snapshot == null && columnFamily == 0 && fillCache && verifyChecksums) {
      handle = MemorySegment.NULL;
      return;
    }
    try (Arena arena = Arena.ofConfined()) {
      MemorySegment message = arena.allocate(ADDRESS);
      MemorySegment h = Native.create(Native.READ_OPTIONS_CREATE, Slots.ofThisThread());
      Native.destroyWhenUnreachable(this, Native.READ_OPTIONS_DESTROY, h);
      if (snapshot != null) {
        // Set once: every read acquires the snapshot first, so a closed one is never used.
        MemorySegment sh = snapshot.acquire();
        try {
          Native.check((int) Native.READ_OPTIONS_SET_SNAPSHOT.invokeExact(h, sh, message), message);
        } finally {
          snapshot.release();
        }
      }
      Native.check(
          (int) Native.READ_OPTIONS_SET_COLUMN_FAMILY.invokeExact(h, columnFamily, message),
          message);
      Native.check(
          (int) Native.READ_OPTIONS_SET_FILL_CACHE.invokeExact(h, fillCache ? 1 : 0, message),
          message);
      Native.check(
          (int)
              Native.READ_OPTIONS_SET_VERIFY_CHECKSUMS.invokeExact(
                  h, verifyChecksums ? 1 : 0, message),
          message);
      handle = h;
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /**
   * Reads as of snapshot.
   *
   * @param snapshot null for the latest data
   * @return new options
   */
  public FfmReadOptions withSnapshot(FfmSnapshot snapshot) {
    return new FfmReadOptions(snapshot, columnFamily, fillCache, verifyChecksums);
  }

  /**
   * Reads this column family.
   *
   * @param id from {@link FfmStore#columnFamilyId}; 0 is "default"
   * @return new options
   */
  public FfmReadOptions withColumnFamily(int id) {
    return new FfmReadOptions(snapshot, id, fillCache, verifyChecksums);
  }

  /**
   * Whether a block read from a file goes into the block cache (false: P = 1, see README).
   *
   * @param fill whether to fill
   * @return new options
   */
  public FfmReadOptions withFillCache(boolean fill) {
    return new FfmReadOptions(snapshot, columnFamily, fill, verifyChecksums);
  }

  /**
   * Whether blocks read from files are checked (false only for files you trust).
   *
   * @param verify whether to verify
   * @return new options
   */
  public FfmReadOptions withVerifyChecksums(boolean verify) {
    return new FfmReadOptions(snapshot, columnFamily, fillCache, verify);
  }

  /**
   * The native options for one read on store, with the snapshot (if any) held until {@link
   * #release()}.
   *
   * @throws IllegalStateException if the snapshot is closed
   * @throws IllegalArgumentException if the snapshot is another store's
   */
  MemorySegment acquire(FfmStore store) {
    if (snapshot == null) {
      return handle;
    }
    if (snapshot.store() != store) {
      throw new IllegalArgumentException("the snapshot is another store's");
    }
    snapshot.acquire();
    return handle;
  }

  void release() {
    if (snapshot != null) {
      snapshot.release();
    }
  }
}
