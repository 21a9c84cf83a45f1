// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.util.Objects;

/**
 * The calling thread's copy counters (pinget/copy_stats.h): value copies and bytes, key copies and
 * allocations made on this thread's reads, in C++ and in the JNI glue (SetByteArrayRegion counts a
 * copy, NewByteArray an allocation), and the reads by which RocksDB copied SST file bytes into
 * memory (a block not in the block cache: F in the design's copy table). Counters are per platform
 * thread.
 *
 * @param valueCopies copies of value bytes between RocksDB's memory and the caller's
 * @param valueBytesCopied the bytes those copies moved
 * @param keyCopies copies of key bytes (a byte[] key is copied once into native memory)
 * @param allocations allocations of buffers that hold a value for the caller
 * @param fileReads reads that copied bytes of an SST file into memory (a data block, or an index or
 *     filter block, that was not in the block cache; a read from a memory map is not counted, as it
 *     copies nothing). Not counted for a store over a database RocksJava opened.
 * @param fileBytesRead the bytes those reads copied
 */
public record CopyStats(
    long valueCopies,
    long valueBytesCopied,
    long keyCopies,
    long allocations,
    long fileReads,
    long fileBytesRead) {

  /** How many longs {@link #read(long[])} fills when given room for them all. */
  public static final int COUNTERS = 6;

  /**
   * This thread's counters since it started or last called {@link #reset()}.
   *
   * @return a snapshot of the counters
   */
  public static CopyStats current() {
    long[] values = new long[COUNTERS];
    read(values);
    return new CopyStats(values[0], values[1], values[2], values[3], values[4], values[5]);
  }

  /**
   * Allocation-free form of {@link #current()}.
   *
   * @param out not null, at least 4 long: receives {valueCopies, valueBytesCopied, keyCopies,
   *     allocations}, then {fileReads, fileBytesRead} if it holds {@link #COUNTERS} or more
   * @throws IllegalArgumentException if out is shorter than 4
   */
  public static void read(long[] out) {
    Objects.requireNonNull(out, "out");
    if (out.length < 4) {
      throw new IllegalArgumentException("out must hold 4 longs, holds " + out.length);
    }
    NativeStats.get(out);
  }

  /**
   * Counts, on this thread, a copy of value bytes that code made on pinget's behalf (a {@link
   * ValueDecoder} that copies what it was lent, as C++'s {@code pinget::RecordValueCopy} for a
   * visitor), so that the totals show it.
   *
   * @param bytes the bytes copied, 0 or more
   * @throws IllegalArgumentException if bytes is negative
   */
  public static void recordValueCopy(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes is negative: " + bytes);
    }
    NativeStats.record(bytes, false);
  }

  /**
   * Counts, on this thread, an allocation of a buffer that holds a value for the caller, made on
   * pinget's behalf (as C++'s {@code pinget::RecordAllocation}).
   */
  public static void recordAllocation() {
    NativeStats.record(-1, true);
  }

  /** Sets this thread's counters to 0. */
  public static void reset() {
    NativeStats.reset();
  }

  /**
   * The counts made between earlier and this.
   *
   * @param earlier not null
   * @return this minus earlier, counter by counter
   */
  public CopyStats minus(CopyStats earlier) {
    Objects.requireNonNull(earlier, "earlier");
    return new CopyStats(
        valueCopies - earlier.valueCopies,
        valueBytesCopied - earlier.valueBytesCopied,
        keyCopies - earlier.keyCopies,
        allocations - earlier.allocations,
        fileReads - earlier.fileReads,
        fileBytesRead - earlier.fileBytesRead);
  }
}
