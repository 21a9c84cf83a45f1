// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.util.Objects;

/**
 * Options of a {@link Cursor}, mirroring pinget::CursorOptions: the read options (snapshot, column
 * family, fill cache, checksums) and the range scanned. Immutable and thread-safe; each {@code
 * with...} returns a new instance. Without a snapshot the cursor takes its own when it is made: all
 * of its batches read the database as it was then.
 */
public final class CursorOptions {
  /** Every entry of the default column family, with {@link ReadOptions#DEFAULT}. */
  public static final CursorOptions DEFAULT =
      new CursorOptions(ReadOptions.DEFAULT, null, null, null);

  final ReadOptions read;
  final byte[] lower;
  final byte[] upper;
  final byte[] prefix;

  private CursorOptions(ReadOptions read, byte[] lower, byte[] upper, byte[] prefix) {
    this.read = read;
    this.lower = lower;
    this.upper = upper;
    this.prefix = prefix;
  }

  /**
   * Reads with these options.
   *
   * @param read not null
   * @return new options
   */
  public CursorOptions withReadOptions(ReadOptions read) {
    return new CursorOptions(Objects.requireNonNull(read, "read"), lower, upper, prefix);
  }

  /**
   * Only keys at or after lower and before upper.
   *
   * @param lower null or empty: unbounded; copied
   * @param upper null or empty: unbounded; copied
   * @return new options
   */
  public CursorOptions withBounds(byte[] lower, byte[] upper) {
    return new CursorOptions(read, copy(lower), copy(upper), prefix);
  }

  /**
   * Only keys that start with prefix (within the bounds, if any).
   *
   * @param prefix null or empty: all keys; copied
   * @return new options
   */
  public CursorOptions withPrefix(byte[] prefix) {
    return new CursorOptions(read, lower, upper, copy(prefix));
  }

  /**
   * The read options.
   *
   * @return them (never null)
   */
  public ReadOptions readOptions() {
    return read;
  }

  /**
   * The lower bound.
   *
   * @return a copy of it, or null for none
   */
  public byte[] lowerBound() {
    return lower == null ? null : lower.clone();
  }

  /**
   * The upper bound.
   *
   * @return a copy of it, or null for none
   */
  public byte[] upperBound() {
    return upper == null ? null : upper.clone();
  }

  /**
   * The prefix.
   *
   * @return a copy of it, or null for none
   */
  public byte[] prefix() {
    return prefix == null ? null : prefix.clone();
  }

  private static byte[] copy(byte[] bytes) {
    return bytes == null || bytes.length == 0 ? null : bytes.clone();
  }
}
