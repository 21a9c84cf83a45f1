// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import io.pinget.internal.Checks;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.IntFunction;

/**
 * The batched copies' two kinds of destination ({@link #ARRAYS} for buffer_copy, {@link #BUFFERS}
 * for direct_copy): each one's check, native call and this thread's checked copy of a batch's
 * destinations (which native code reads, the caller cannot change mid-call, and which keeps each
 * one reachable). Store.multiGetCopy runs them; the thread's storage is reused, so a warm batch
 * allocates nothing.
 *
 * @param <D> a destination: byte[] or a direct ByteBuffer
 */
final class BatchCopy<D> {
  /** A check of dsts[0, n), as {@link Checks#arrays}. */
  interface Check<D> {
    void check(D[] dsts, int n, String what);
  }

  /** A NativeReads batched copy. */
  interface Call<D> {
    void read(
        long store,
        int count,
        ByteBuffer keyBytes,
        ByteBuffer keyLengths,
        D[] dsts,
        int[] sizes,
        long snapshot,
        int columnFamily,
        int flags);
  }

  static final BatchCopy<byte[]> ARRAYS =
      new BatchCopy<>(byte[][]::new, Checks::arrays, NativeReads::multiGetBufferCopy);
  static final BatchCopy<ByteBuffer> BUFFERS =
      new BatchCopy<>(
          ByteBuffer[]::new,
          Checks::directs,
          (store, count, keyBytes, keyLengths, dsts, sizes, snapshot, cf, flags) ->
              NativeReads.multiGetDirectCopy(
                  store,
                  count,
                  keyBytes,
                  keyLengths,
                  dsts,
                  Windows.of(dsts, count),
                  sizes,
                  snapshot,
                  cf,
                  flags));

  private static final ThreadLocal<PackedKeys> PACKED = ThreadLocal.withInitial(PackedKeys::new);

  private final IntFunction<D[]> newArray;
  private final ThreadLocal<D[]> scratch;
  final Check<D> check;
  final Call<D> call;

  private BatchCopy(IntFunction<D[]> newArray, Check<D> check, Call<D> call) {
    this.newArray = newArray;
    this.scratch = ThreadLocal.withInitial(() -> newArray.apply(0));
    this.check = check;
    this.call = call;
  }

  /** dsts copied into this thread's array; clear its first dsts.length slots after the call. */
  D[] copyOf(D[] dsts) {
    D[] copy = scratch.get();
    if (copy.length < dsts.length) {
      copy = newArray.apply(dsts.length);
      scratch.set(copy);
    }
    System.arraycopy(dsts, 0, copy, 0, dsts.length);
    return copy;
  }

  /**
   * This thread's table of a batch's direct destinations as native code reads them: per one, two
   * native-order longs, its address at its position ({@link Views#address}) and its remaining
   * bytes. Reading a buffer's window from native code takes about ten calls into the VM, two of
   * them calls back into Java (position and limit).
   */
  private static final class Windows {
    private static final ThreadLocal<Windows> THREADS = ThreadLocal.withInitial(Windows::new);

    private ByteBuffer table = ByteBuffer.allocateDirect(0);
    private long address;

    /**
     * The windows of dsts[0, n) in this thread's table, and its address; 0 if an address is not
     * known in Java (native code then reads each window). REQUIRES: dsts checked.
     */
    static long of(ByteBuffer[] dsts, int n) {
      if (n == 0 || n > Integer.MAX_VALUE / (2 * Long.BYTES)) {
        return 0;
      }
      Windows w = THREADS.get();
      if (w.table.capacity() < n * 2 * Long.BYTES) {
        w.table = ByteBuffer.allocateDirect(n * 2 * Long.BYTES).order(ByteOrder.nativeOrder());
        w.address = NativePinned.addressOf(w.table);
      }
      for (int i = 0; i < n; i++) {
        ByteBuffer dst = dsts[i];
        int off = dst.position();
        int len = dst.limit() - off;
        long at = Views.address(dst, off, len); // 0 unless [off, off + len) is within dst
        if (at == 0) {
          return 0;
        }
        w.table.putLong(i * 2 * Long.BYTES, at);
        w.table.putLong((i * 2 + 1) * Long.BYTES, len);
      }
      return w.address;
    }
  }

  /** keys (checked) packed into this thread's PackedKeys. */
  static PackedKeys packed(byte[][] keys) {
    PackedKeys packed = PACKED.get();
    packed.pack(keys);
    return packed;
  }
}
