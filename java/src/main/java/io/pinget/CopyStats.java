// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/**
 * The calling thread's copy counters (pinget/copy_stats.h): value copies and bytes, key copies and
 * allocations made on this thread's reads, in C++ and in the JNI glue (SetByteArrayRegion counts a
 * copy, NewByteArray an allocation). Counters are per platform thread.
 */
public record CopyStats(long valueCopies, long valueBytesCopied, long keyCopies, long allocations) {

  /** This thread's counters since it started or last called {@link #reset()}. */
  public static CopyStats current() {
    long[] values = new long[4];
    read(values);
    return new CopyStats(values[0], values[1], values[2], values[3]);
  }

  /** Allocation-free form: out = {valueCopies, valueBytesCopied, keyCopies, allocations}. */
  public static void read(long[] out) {
    NativeStats.get(out);
  }

  public static void reset() {
    NativeStats.reset();
  }

  /** The counts made between earlier and this. */
  public CopyStats minus(CopyStats earlier) {
    return new CopyStats(
        valueCopies - earlier.valueCopies,
        valueBytesCopied - earlier.valueBytesCopied,
        keyCopies - earlier.keyCopies,
        allocations - earlier.allocations);
  }
}
