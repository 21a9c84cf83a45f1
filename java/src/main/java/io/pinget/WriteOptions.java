// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.util.Objects;

/**
 * Options for writes, mirroring pinget::WriteOptions, and the column family that {@link Store#put}
 * and {@link Store#delete} write (a {@link WriteBatch} names one per operation). Immutable and
 * thread-safe; each {@code with...} method returns a new instance.
 */
public final class WriteOptions {
  // The wire form's bits: pinget/c.h's PINGET_WRITE_SYNC, PINGET_WRITE_DISABLE_WAL.
  static final int SYNC = 1;
  static final int DISABLE_WAL = 2;

  /** No fsync, with the WAL, the default column family. */
  public static final WriteOptions DEFAULT = new WriteOptions(0, ColumnFamily.DEFAULT);

  final int flags;
  final ColumnFamily columnFamily;

  private WriteOptions(int flags, ColumnFamily columnFamily) {
    this.flags = flags;
    this.columnFamily = columnFamily;
  }

  /**
   * Whether the WAL is fsynced before the write is acknowledged.
   *
   * @param sync true: fsync (cannot be combined with {@link #withDisableWal})
   * @return new options with that flag
   */
  public WriteOptions withSync(boolean sync) {
    return new WriteOptions(sync ? flags | SYNC : flags & ~SYNC, columnFamily);
  }

  /**
   * Whether the write skips the WAL.
   *
   * @param disableWal true: the write is lost on a crash before the next flush
   * @return new options with that flag
   */
  public WriteOptions withDisableWal(boolean disableWal) {
    return new WriteOptions(disableWal ? flags | DISABLE_WAL : flags & ~DISABLE_WAL, columnFamily);
  }

  /**
   * Writes (puts and deletes) go to this column family.
   *
   * @param columnFamily not null; of the store written (else the write throws
   *     IllegalArgumentException)
   * @return new options writing that column family
   */
  public WriteOptions withColumnFamily(ColumnFamily columnFamily) {
    return new WriteOptions(flags, Objects.requireNonNull(columnFamily, "columnFamily"));
  }

  /**
   * Whether the WAL is fsynced.
   *
   * @return the sync flag
   */
  public boolean sync() {
    return (flags & SYNC) != 0;
  }

  /**
   * Whether the WAL is skipped.
   *
   * @return the disable-WAL flag
   */
  public boolean disableWal() {
    return (flags & DISABLE_WAL) != 0;
  }

  /**
   * The column family written.
   *
   * @return the column family (never null)
   */
  public ColumnFamily columnFamily() {
    return columnFamily;
  }
}
