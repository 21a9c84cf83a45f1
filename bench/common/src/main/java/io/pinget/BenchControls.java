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

  /**
   * total entries from the cursor's position, made in C++ in batches of batch, starting over at the
   * range's end, in one JNI call: the in-process floor of a Java scan (the {@code
   * native_cursor_loop} row).
   *
   * @param cursor not null, open, positioned
   * @param batch 1 to Cursor.MAX_BATCH
   * @param total entries to lend
   * @param out {entries, key and value bytes}
   */
  public static void scanInNative(Cursor cursor, int batch, int total, long[] out) {
    cursor.scanInNative(batch, total, out);
  }

  /**
   * A seek and one batch of count entries made in C++ through cursor's native cursor.
   *
   * @param cursor not null, open
   * @param key not null, not empty
   * @param count entries to lend
   * @param out {entries, key and value bytes}
   */
  public static void seekInNative(Cursor cursor, byte[] key, int count, long[] out) {
    cursor.seekInNative(key, count, out);
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
