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
}
