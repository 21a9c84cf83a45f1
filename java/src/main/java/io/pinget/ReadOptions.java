// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.util.Objects;

/**
 * Options for every read strategy, mirroring pinget::ReadOptions: a snapshot, a column family and
 * two flags. Immutable and thread-safe; each {@code with...} method returns a new instance.
 */
public final class ReadOptions {
  // The wire form's bits: pinget/c.h's PINGET_READ_FILL_CACHE, _VERIFY_CHECKSUMS, _PIN_MEMTABLE.
  static final int FILL_CACHE = 1;
  static final int VERIFY_CHECKSUMS = 2;
  static final int PIN_MEMTABLE = 4;

  /** Latest data, the default column family, fill the cache, verify checksums. */
  public static final ReadOptions DEFAULT =
      new ReadOptions(null, ColumnFamily.DEFAULT, FILL_CACHE | VERIFY_CHECKSUMS);

  final Snapshot snapshot;
  final ColumnFamily columnFamily;
  final int flags;

  private ReadOptions(Snapshot snapshot, ColumnFamily columnFamily, int flags) {
    this.snapshot = snapshot;
    this.columnFamily = columnFamily;
    this.flags = flags;
  }

  /**
   * Reads as of a snapshot.
   *
   * @param snapshot taken from the store that is read (else reads throw IllegalArgumentException);
   *     null reads the latest data
   * @return new options with that snapshot
   */
  public ReadOptions withSnapshot(Snapshot snapshot) {
    return new ReadOptions(snapshot, columnFamily, flags);
  }

  /**
   * Whether a block read from a file goes into the block cache.
   *
   * @param fillCache false: the block is not cached, so its value is copied (P = 1)
   * @return new options with that flag
   */
  public ReadOptions withFillCache(boolean fillCache) {
    return new ReadOptions(snapshot, columnFamily, with(FILL_CACHE, fillCache));
  }

  /**
   * Whether blocks read from files are checked against their checksums.
   *
   * @param verifyChecksums false: blocks are not checked, and not inserted into the block cache
   *     (verified reads trust what is cached). Only for files you trust: a damaged block read
   *     unchecked can give wrong bytes or make RocksDB read past it (docs/security.md)
   * @return new options with that flag
   */
  public ReadOptions withVerifyChecksums(boolean verifyChecksums) {
    return new ReadOptions(snapshot, columnFamily, with(VERIFY_CHECKSUMS, verifyChecksums));
  }

  /**
   * Whether a pinned read ({@link PinnedView#get}, {@link Store#pinnedValue}) looks for the key in
   * the memtables first and pins a value found there in place: 0 copies for a recent write too,
   * where RocksDB's get copies it (P = 1). A key not in the memtables is then read as usual, after
   * that probe (a seek in the memtables only: the files below do not change its cost). Worth it
   * where reads of recent writes dominate (docs/benchmarks.md, "Memtable"); other reads ignore it.
   * A reused {@link PinnedView} keeps the probe's iterator, and with it the memtables' version,
   * until its release() or close(); a per-call pinned value makes one per call.
   *
   * @param pin true to pin memtable hits
   * @return new options with that flag
   */
  public ReadOptions withPinMemtable(boolean pin) {
    return new ReadOptions(snapshot, columnFamily, with(PIN_MEMTABLE, pin));
  }

  /**
   * Reads this column family.
   *
   * @param columnFamily not null; of the store that is read (else reads throw
   *     IllegalArgumentException)
   * @return new options reading that column family
   */
  public ReadOptions withColumnFamily(ColumnFamily columnFamily) {
    return new ReadOptions(snapshot, Objects.requireNonNull(columnFamily, "columnFamily"), flags);
  }

  /**
   * The snapshot read as of.
   *
   * @return the snapshot, or null for the latest data
   */
  public Snapshot snapshot() {
    return snapshot;
  }

  /**
   * The column family read.
   *
   * @return the column family (never null)
   */
  public ColumnFamily columnFamily() {
    return columnFamily;
  }

  /**
   * Whether a block read from a file goes into the block cache.
   *
   * @return the fill-cache flag
   */
  public boolean fillCache() {
    return (flags & FILL_CACHE) != 0;
  }

  /**
   * Whether pinned reads pin memtable hits in place.
   *
   * @return the pin-memtable flag
   */
  public boolean pinMemtable() {
    return (flags & PIN_MEMTABLE) != 0;
  }

  /**
   * Whether blocks read from files are checked.
   *
   * @return the verify-checksums flag
   */
  public boolean verifyChecksums() {
    return (flags & VERIFY_CHECKSUMS) != 0;
  }

  private int with(int bit, boolean on) {
    return on ? flags | bit : flags & ~bit;
  }

  /**
   * The checks of the options' content, last of every read through store: its column family's id
   * there, and its snapshot's handle (0 for the latest data), held until {@link #release()}.
   *
   * @return the snapshot handle
   * @throws IllegalArgumentException if the column family or snapshot is another store's
   * @throws IllegalStateException if the snapshot is closed
   */
  long acquire(Store store) {
    columnFamily.idIn(store);
    if (snapshot == null) {
      return 0;
    }
    return snapshot.begin(store);
  }

  /** Ends what {@link #acquire} began. */
  void release() {
    if (snapshot != null) {
      snapshot.end();
    }
  }
}
