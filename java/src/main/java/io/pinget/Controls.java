// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.Objects;

/**
 * Controls for benchmarks and tests: calls that show the JNI layer itself. Not public API: the
 * benchmarks reach it through their own {@code io.pinget.BenchControls} (bench/common).
 */
final class Controls {
  static {
    NativeLibrary.load();
  }

  private Controls() {}

  /**
   * An empty registered native method (native/jni/stats_jni.cc): one Java-to-native crossing that
   * does nothing. The JMH {@code jni_nop} row times it, as the floor under every JNI strategy. No
   * copy, no allocation, no store involved.
   *
   * @return 0
   */
  static native int jniNop();

  /**
   * The native side of the tables that Java keeps in step with it, for a test that compares them:
   * the status code names in pinget::Status::Code order, then the option flag bits, as {@code
   * "OK,NotFound,...,|fill_cache=1,verify_checksums=2,..."}.
   *
   * @return the native tables
   */
  static native String constants();

  /**
   * A loop of pinget's reads made in C++ (pinget/controls.h), one JNI crossing per call: the
   * control that a Java strategy's time per read is divided by to give its JNI tax in one process
   * (same data, block cache and JIT state). The keys are copied once, when the loop is made.
   *
   * @param store not null
   * @param keys not null, no element null; read in this order
   * @return a loop; close it (a loop never closed is freed by a Cleaner)
   */
  static NativeLoop nativeLoop(Store store, byte[][] keys) {
    return new NativeLoop(store, keys);
  }

  /** See {@link #nativeLoop}. Not thread-safe. */
  static final class NativeLoop implements AutoCloseable {
    private final Store store;
    private final long handle;
    private final int keyCount;
    private final Cleaner.Cleanable cleanable;
    private boolean closed;

    NativeLoop(Store store, byte[][] keys) {
      this.store = Objects.requireNonNull(store, "store");
      Checks.keys(keys);
      long h = newLoop(keys);
      this.handle = h;
      this.keyCount = keys.length;
      this.cleanable = Cleaners.CLEANER.register(this, () -> freeLoop(h));
    }

    /**
     * pinned_view of keys [from, from + count) in order into one reused pin, as a C++ caller makes
     * it (Store::GetPinned): P copies each, no allocation.
     *
     * @param from the first key's index
     * @param count how many keys to read
     * @return the sum of the values' sizes
     * @throws IndexOutOfBoundsException if the range is not in the keys
     * @throws PingetException for the first error other than not-found, after every read
     */
    public long pinnedGets(int from, int count) {
      store.checkOpen((ColumnFamily) null);
      Objects.checkFromIndexSize(from, count, keyCount);
      try {
        return pinnedGetLoop(store.handle, checkOpen(), from, count);
      } finally {
        Reference.reachabilityFence(store);
        Reference.reachabilityFence(this);
      }
    }

    /**
     * Batched pinned_view of keys [from, from + count) as a C++ caller makes it
     * (Store::MultiGetPinned), in consecutive batches of batch keys.
     *
     * @param from the first key's index
     * @param count how many keys to read
     * @param batch at least 1
     * @return the sum of the values' sizes
     * @throws IndexOutOfBoundsException if the range is not in the keys
     * @throws IllegalArgumentException if batch is below 1
     * @throws PingetException for the first error other than not-found
     */
    public long pinnedBatches(int from, int count, int batch) {
      store.checkOpen((ColumnFamily) null);
      Objects.checkFromIndexSize(from, count, keyCount);
      if (batch < 1) {
        throw new IllegalArgumentException("batch is " + batch + ": at least 1");
      }
      try {
        return pinnedBatchLoop(store.handle, checkOpen(), from, count, batch);
      } finally {
        Reference.reachabilityFence(store);
        Reference.reachabilityFence(this);
      }
    }

    /** Frees the keys and drops the pins. Idempotent. */
    @Override
    public void close() {
      if (!closed) {
        closed = true;
        cleanable.clean();
      }
    }

    private long checkOpen() {
      if (closed) {
        throw new IllegalStateException("NativeLoop is closed");
      }
      return handle;
    }
  }

  private static native long newLoop(byte[][] keys);

  private static native void freeLoop(long loop);

  private static native long pinnedGetLoop(long store, long loop, int from, int count);

  private static native long pinnedBatchLoop(long store, long loop, int from, int count, int batch);
}
