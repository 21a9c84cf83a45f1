// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;
import java.util.function.IntFunction;

/**
 * This thread's storage for the batched copies (a PinnedBatch has its own): the checked copy of a
 * batch's destinations, which native code reads and the caller cannot change mid-call (and which
 * keeps each one reachable), and the packed keys. Reused, so a warm batch allocates nothing.
 */
final class BatchScratch {
  private static final ThreadLocal<byte[][]> ARRAYS = ThreadLocal.withInitial(() -> new byte[0][]);
  private static final ThreadLocal<ByteBuffer[]> BUFFERS =
      ThreadLocal.withInitial(() -> new ByteBuffer[0]);
  private static final ThreadLocal<PackedKeys> PACKED = ThreadLocal.withInitial(PackedKeys::new);

  private BatchScratch() {}

  /** dsts copied into this thread's array; clear its first dsts.length slots after the call. */
  static byte[][] arrays(byte[][] dsts) {
    byte[][] copy = scratch(ARRAYS, dsts.length, byte[][]::new);
    System.arraycopy(dsts, 0, copy, 0, dsts.length);
    return copy;
  }

  /** As {@link #arrays}, for direct buffers. */
  static ByteBuffer[] buffers(ByteBuffer[] dsts) {
    ByteBuffer[] copy = scratch(BUFFERS, dsts.length, ByteBuffer[]::new);
    System.arraycopy(dsts, 0, copy, 0, dsts.length);
    return copy;
  }

  /** keys (checked) packed into this thread's PackedKeys. */
  static PackedKeys packed(byte[][] keys) {
    PackedKeys packed = PACKED.get();
    packed.pack(keys);
    return packed;
  }

  private static <T> T[] scratch(ThreadLocal<T[]> local, int n, IntFunction<T[]> newArray) {
    T[] array = local.get();
    if (array.length < n) {
      array = newArray.apply(n);
      local.set(array);
    }
    return array;
  }
}
