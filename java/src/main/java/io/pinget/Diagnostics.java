// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/** Controls for benchmarks: calls that measure the cost of the JNI layer itself. */
public final class Diagnostics {
  static {
    NativeLibrary.load();
  }

  private Diagnostics() {}

  /**
   * An empty registered native method (native/jni/stats_jni.cc): one Java-to-native crossing that
   * does nothing and returns 0. The JMH {@code jni_nop} row times it, as the floor under every JNI
   * strategy. No copy, no allocation, no store involved.
   */
  public static native int jniNop();
}
