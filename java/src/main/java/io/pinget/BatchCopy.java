// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import io.pinget.internal.Checks;
import java.nio.ByteBuffer;
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
      new BatchCopy<>(ByteBuffer[]::new, Checks::directs, NativeReads::multiGetDirectCopy);

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

  /** keys (checked) packed into this thread's PackedKeys. */
  static PackedKeys packed(byte[][] keys) {
    PackedKeys packed = PACKED.get();
    packed.pack(keys);
    return packed;
  }
}
