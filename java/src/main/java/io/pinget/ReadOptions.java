// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/** Options for every read strategy, mirroring pinget::ReadOptions. Immutable and thread-safe. */
public final class ReadOptions {
  static final int FILL_CACHE = 1;
  static final int VERIFY_CHECKSUMS = 2;

  /** Latest data, default column family, fill the cache, verify checksums. */
  public static final ReadOptions DEFAULT = new ReadOptions(null, 0, FILL_CACHE | VERIFY_CHECKSUMS);

  final Snapshot snapshot;
  final int columnFamily;
  final int flags;

  private ReadOptions(Snapshot snapshot, int columnFamily, int flags) {
    this.snapshot = snapshot;
    this.columnFamily = columnFamily;
    this.flags = flags;
  }

  /** Reads as of snapshot (null: latest). It must come from the store being read. */
  public ReadOptions withSnapshot(Snapshot snapshot) {
    return new ReadOptions(snapshot, columnFamily, flags);
  }

  /** false: a block read from disk is not inserted into the block cache (P = 1). */
  public ReadOptions withFillCache(boolean fillCache) {
    return new ReadOptions(snapshot, columnFamily, with(FILL_CACHE, fillCache));
  }

  /**
   * false: blocks read from files are not checked, and are not inserted into the block cache
   * (verified reads trust what is cached). Only for files you trust: a damaged block read unchecked
   * can abort the process (docs/security.md).
   */
  public ReadOptions withVerifyChecksums(boolean verifyChecksums) {
    return new ReadOptions(snapshot, columnFamily, with(VERIFY_CHECKSUMS, verifyChecksums));
  }

  /** A column family id from {@link Store#columnFamilyId}; 0 is "default". */
  public ReadOptions withColumnFamily(int columnFamily) {
    if (columnFamily < 0) {
      throw new IllegalArgumentException("negative column family id: " + columnFamily);
    }
    return new ReadOptions(snapshot, columnFamily, flags);
  }

  public Snapshot snapshot() {
    return snapshot;
  }

  public int columnFamily() {
    return columnFamily;
  }

  public boolean fillCache() {
    return (flags & FILL_CACHE) != 0;
  }

  public boolean verifyChecksums() {
    return (flags & VERIFY_CHECKSUMS) != 0;
  }

  private int with(int bit, boolean on) {
    return on ? flags | bit : flags & ~bit;
  }

  /** The snapshot's handle (0 for latest), held until {@link #release()}. */
  long acquire() {
    return snapshot == null ? 0 : snapshot.acquire();
  }

  void release() {
    if (snapshot != null) {
      snapshot.release();
    }
  }
}
