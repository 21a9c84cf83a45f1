// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.Cursor;
import io.pinget.Store;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;

/**
 * The benchmarks' controls, in their own native library (bench/jni: libpinget_bench_jni, packed
 * into each benchmark JAR, never into pinget's): an empty JNI call ({@code jni_nop}) and pinget's
 * reads made by native code through the C API on a {@link Store#nativeHandle()}, many per JNI call
 * (the {@code native_*_loop} rows: the in-process floor of a Java strategy). Loops are not
 * thread-safe; close them.
 */
public final class NativeControls {
  /** Overrides the packed library: a path to libpinget_bench_jni.so. */
  public static final String PATH_PROPERTY = "pinget.bench.jni";

  private static final String RESOURCE = "/META-INF/pinget-bench/libpinget_bench_jni.so";

  static {
    Store.rocksdbVersion(); // pinget's library first: this one takes the C API from it
    String path = System.getProperty(PATH_PROPERTY);
    System.load(path != null ? Path.of(path).toAbsolutePath().toString() : extract());
  }

  private NativeControls() {}

  private static String extract() {
    try (InputStream in = NativeControls.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new UnsatisfiedLinkError(
            RESOURCE + " is not in this JAR (built by bench/run; or set -D" + PATH_PROPERTY + ")");
      }
      Path file = Files.createTempFile("pinget-bench-", ".so");
      file.toFile().deleteOnExit();
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * One empty JNI crossing: the {@code jni_nop} row. No copy, no allocation.
   *
   * @return 0
   */
  public static native int jniNop();

  /**
   * pinget's reads of keys (copied once, here) in a native loop over store.
   *
   * @param store not null, open
   * @param keys not null, no element null
   * @return a loop; close it
   */
  public static KeyLoop keyLoop(Store store, byte[][] keys) {
    Objects.requireNonNull(store, "store");
    return new KeyLoop(store, Objects.requireNonNull(keys, "keys"));
  }

  /**
   * A C API cursor over the whole of store (default read options) at its first entry, for scans
   * made in native code: the {@code native_cursor_loop} rows.
   *
   * @param store not null, open
   * @return a loop; close it
   */
  public static CursorLoop cursorLoop(Store store) {
    return new CursorLoop(Objects.requireNonNull(store, "store"));
  }

  /** A native object of this library over a store: open until closed. */
  abstract static class Loop implements AutoCloseable {
    final Store store;
    private long handle;

    Loop(Store store, long handle) {
      this.store = store;
      this.handle = handle;
    }

    long open() {
      if (handle == 0) {
        throw new IllegalStateException("the loop is closed");
      }
      return handle;
    }

    abstract void free(long handle);

    /** Idempotent. */
    @Override
    public void close() {
      if (handle != 0) {
        free(handle);
        handle = 0;
      }
    }
  }

  /** See {@link #keyLoop}. */
  public static final class KeyLoop extends Loop {
    private final int keyCount;

    KeyLoop(Store store, byte[][] keys) {
      super(store, newKeyLoop(keys));
      this.keyCount = keys.length;
    }

    /**
     * pinned_view of keys [from, from + count) in order into one reused pin (pinget_pinned_view): P
     * copies each, no allocation.
     *
     * @return the sum of the values' sizes
     * @throws IllegalStateException for the first error other than not-found, after every read
     */
    public long pinnedGets(int from, int count) {
      return gets(from, count, false);
    }

    /**
     * {@link #pinnedGets}, each value found then made a Java {@code String} by native code
     * (NewStringUTF of a NUL-terminated copy of the value) and dropped: the get and UTF-8 decode of
     * native_utf8_loop. The values must be UTF-8 without NUL or supplementary characters, whose
     * modified UTF-8 is the same bytes.
     *
     * @return the sum of the values' sizes
     * @throws IllegalStateException for the first error other than not-found, after every read
     */
    public long pinnedStrings(int from, int count) {
      return gets(from, count, true);
    }

    /**
     * {@link #pinnedGets}, each value found copied into its slot of dst: native_avro_loop's gets,
     * whose values Java then decodes where they lie (docs/benchmarks.md, "Paired: the Avro event's
     * floor"). The copy is the one decode on read makes into its thread's slot where Java
     * re-points views (JDK 17 to 23; its count: docs/strategies.md, utf8_ and avro_decode_on_read).
     *
     * @param dst direct and writable; it receives count sizes ({@code int}, native byte order; -1
     *     for a key without a value, or a value longer than stride), then count slots of stride
     *     bytes: value j of the call at {@code 4 * count + j * stride}
     * @return the sum of the values' sizes
     * @throws IllegalArgumentException if dst is not direct, is read-only or holds less than
     *     count * (4 + stride) bytes, or stride is negative
     * @throws IllegalStateException for the first error other than not-found, after every read
     */
    public long pinnedCopies(int from, int count, ByteBuffer dst, int stride) {
      Objects.checkFromIndexSize(from, count, keyCount);
      if (!dst.isDirect()
          || dst.isReadOnly()
          || stride < 0
          || dst.capacity() < (long) count * (4L + stride)) {
        throw new IllegalArgumentException(
            "dst: a writable direct buffer of count * (4 + stride) bytes or more, stride >= 0");
      }
      try {
        return NativeControls.pinnedCopies(store.nativeHandle(), open(), from, count, dst, stride);
      } finally {
        Reference.reachabilityFence(store);
      }
    }

    private long gets(int from, int count, boolean strings) {
      Objects.checkFromIndexSize(from, count, keyCount);
      try {
        long s = store.nativeHandle();
        return strings
            ? NativeControls.pinnedStrings(s, open(), from, count)
            : NativeControls.pinnedGets(s, open(), from, count);
      } finally {
        Reference.reachabilityFence(store);
      }
    }

    /**
     * Batched pinned_view (pinget_multi_pinned_view) of keys [from, from + count), batch keys at a
     * time.
     *
     * @return the sum of the values' sizes
     */
    public long pinnedBatches(int from, int count, int batch) {
      Objects.checkFromIndexSize(from, count, keyCount);
      if (batch < 1) {
        throw new IllegalArgumentException("batch is " + batch + ": at least 1");
      }
      try {
        return NativeControls.pinnedBatches(store.nativeHandle(), open(), from, count, batch);
      } finally {
        Reference.reachabilityFence(store);
      }
    }

    @Override
    void free(long handle) {
      freeKeyLoop(handle);
    }
  }

  /** See {@link #cursorLoop}. */
  public static final class CursorLoop extends Loop {
    CursorLoop(Store store) {
      super(store, newCursorLoop(store.nativeHandle(), Cursor.MAX_BATCH));
      Reference.reachabilityFence(store);
    }

    /**
     * total entries from the position, in batches of batch, starting over at the first entry when
     * the range ends. out = {entries, key and value bytes}.
     */
    public void scan(int batch, int total, long[] out) {
      checkBatch(batch);
      if (total < 0) {
        throw new IllegalArgumentException("total is " + total);
      }
      checkOut(out);
      try {
        NativeControls.scan(open(), batch, total, out);
      } finally {
        Reference.reachabilityFence(store);
      }
    }

    /** A seek to key and one batch of count entries. out = {entries, key and value bytes}. */
    public void seek(byte[] key, int count, long[] out) {
      Objects.requireNonNull(key, "key");
      checkBatch(count);
      checkOut(out);
      try {
        NativeControls.seek(open(), key, count, out);
      } finally {
        Reference.reachabilityFence(store);
      }
    }

    private static void checkOut(long[] out) {
      if (Objects.requireNonNull(out, "out").length < 2) {
        throw new IllegalArgumentException("out holds " + out.length + " longs: 2 needed");
      }
    }

    private static void checkBatch(int batch) {
      if (batch < 1 || batch > Cursor.MAX_BATCH) {
        throw new IllegalArgumentException("batch is " + batch + ": 1 to " + Cursor.MAX_BATCH);
      }
    }

    @Override
    void free(long handle) {
      freeCursorLoop(handle);
    }
  }

  private static native long newKeyLoop(byte[][] keys);

  private static native void freeKeyLoop(long loop);

  private static native long pinnedGets(long store, long loop, int from, int count);

  private static native long pinnedStrings(long store, long loop, int from, int count);

  private static native long pinnedCopies(
      long store, long loop, int from, int count, ByteBuffer dst, int stride);

  private static native long pinnedBatches(long store, long loop, int from, int count, int batch);

  private static native long newCursorLoop(long store, int maxBatch);

  private static native void freeCursorLoop(long loop);

  private static native void scan(long loop, int batch, int total, long[] out);

  private static native void seek(long loop, byte[] key, int count, long[] out);
}
