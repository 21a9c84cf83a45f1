// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/** Natives of native/jni/stats_jni.cc: this thread's copy counters. */
final class NativeStats {
  static {
    NativeLibrary.load();
  }

  private NativeStats() {}

  /** out = {valueCopies, valueBytesCopied, keyCopies, allocations[, fileReads, fileBytesRead]}. */
  static native void get(long[] out);

  static native void reset();

  /**
   * Counts, on this thread, one value copy of copyBytes bytes (none if copyBytes is negative) and
   * one allocation if allocation: a copy made in Java on pinget's behalf (Decoders.bytes).
   */
  static native void record(long copyBytes, boolean allocation);
}
