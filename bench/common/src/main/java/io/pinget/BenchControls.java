// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/**
 * The benchmarks' way to pinget's controls ({@code Controls}: package-private, not public API).
 * Compiled into each benchmark JAR, beside pinget's classes, in pinget's package.
 */
public final class BenchControls {
  private BenchControls() {}

  /**
   * One empty JNI crossing: the {@code jni_nop} row.
   *
   * @return 0
   */
  public static int jniNop() {
    return Controls.jniNop();
  }

  /**
   * pinget's reads in a C++ loop, one JNI crossing per call: the {@code native_*_loop} rows.
   *
   * @param store not null
   * @param keys not null, no element null; read in this order
   * @return a loop; close it
   */
  public static Loop nativeLoop(Store store, byte[][] keys) {
    return new Loop(Controls.nativeLoop(store, keys));
  }

  /** A loop of native reads; see {@link #nativeLoop}. Not thread-safe. */
  public static final class Loop implements AutoCloseable {
    private final Controls.NativeLoop loop;

    Loop(Controls.NativeLoop loop) {
      this.loop = loop;
    }

    /**
     * pinned_view of keys [from, from + count) into one reused pin.
     *
     * @param from the first key's index
     * @param count how many keys
     * @return the sum of the values' sizes
     */
    public long pinnedGets(int from, int count) {
      return loop.pinnedGets(from, count);
    }

    /**
     * Batched pinned_view of keys [from, from + count), batch keys at a time.
     *
     * @param from the first key's index
     * @param count how many keys
     * @param batch at least 1
     * @return the sum of the values' sizes
     */
    public long pinnedBatches(int from, int count, int batch) {
      return loop.pinnedBatches(from, count, batch);
    }

    @Override
    public void close() {
      loop.close();
    }
  }
}
