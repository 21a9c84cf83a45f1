// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/** Options for writes, mirroring pinget::WriteOptions. Immutable and thread-safe. */
public final class WriteOptions {
  static final int SYNC = 1;
  static final int DISABLE_WAL = 2;

  public static final WriteOptions DEFAULT = new WriteOptions(0);

  final int flags;

  private WriteOptions(int flags) {
    this.flags = flags;
  }

  /** fsync the WAL before acknowledging the write. */
  public WriteOptions withSync(boolean sync) {
    return new WriteOptions(sync ? flags | SYNC : flags & ~SYNC);
  }

  /** Skip the WAL: the write is lost on a crash before the next flush. */
  public WriteOptions withDisableWal(boolean disableWal) {
    return new WriteOptions(disableWal ? flags | DISABLE_WAL : flags & ~DISABLE_WAL);
  }

  public boolean sync() {
    return (flags & SYNC) != 0;
  }

  public boolean disableWal() {
    return (flags & DISABLE_WAL) != 0;
  }
}
