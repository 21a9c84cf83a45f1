// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/** Controls for benchmarks and tests: calls that show the JNI layer itself. */
public final class Diagnostics {
  static {
    NativeLibrary.load();
  }

  private Diagnostics() {}

  /**
   * An empty registered native method (native/jni/stats_jni.cc): one Java-to-native crossing that
   * does nothing. The JMH {@code jni_nop} row times it, as the floor under every JNI strategy. No
   * copy, no allocation, no store involved.
   *
   * @return 0
   */
  public static native int jniNop();

  /**
   * The native side of the tables that Java keeps in step with it, for a test that compares them:
   * the status code names in pinget::Status::Code order, then the option flag bits, as {@code
   * "OK,NotFound,...,|fill_cache=1,verify_checksums=2,..."}.
   *
   * @return the native tables
   */
  public static native String constants();
}
