// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.internal;

import io.pinget.DecodeException;

/**
 * The rules that {@code io.pinget.Decoders} and {@code io.pinget.ffm.SegmentDecoders} share, so
 * that a decoder of either door refuses the same values with the same message and grows its UTF-8
 * staging array by the same rule. Each class keeps its own per-thread array: one array shared
 * through this class measured 1% slower on the JNI UTF-8 decode (docs/benchmarks.md, "A shared
 * staging array, tried and not kept"). Not for applications.
 */
public final class DecodeRules {
  private DecodeRules() {}

  /** A UTF-8 decoder's staging array up to this size is kept per thread; a larger one is not. */
  public static final int KEPT_STAGING_BYTES = 64 << 10;

  /**
   * A number decoder's size rule: exactly {@code needed} bytes, never a guess.
   *
   * @param decoder its name in messages ("longBE")
   * @param size the value's size
   * @param needed the number's size
   * @throws DecodeException naming both sizes if they differ
   */
  public static void exactSize(String decoder, long size, int needed) {
    if (size != needed) {
      throw new DecodeException(
          decoder + ": the value has " + size + " bytes; it needs exactly " + needed);
    }
  }

  /**
   * A UTF-8 decoder's staging array too small for n bytes, replaced: a new array of at least n
   * bytes (twice the old one's size, up to {@link #KEPT_STAGING_BYTES}), which becomes the thread's
   * own array if it is no larger than that.
   *
   * @param own the decoder class's per-thread array
   * @param current this thread's array, shorter than n
   * @param n bytes needed
   * @return the new array
   */
  public static byte[] grownStaging(ThreadLocal<byte[]> own, byte[] current, int n) {
    byte[] grown = new byte[Math.max(n, Math.min(2 * current.length, KEPT_STAGING_BYTES))];
    if (grown.length <= KEPT_STAGING_BYTES) {
      own.set(grown);
    }
    return grown;
  }
}
