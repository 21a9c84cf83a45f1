// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.internal;

import io.pinget.DecodeException;

/**
 * The rules that {@code io.pinget.Decoders} and {@code io.pinget.ffm.SegmentDecoders} share, so
 * that a decoder of either door refuses the same values with the same message, and both stage UTF-8
 * in one per-thread array. Not for applications.
 */
public final class DecodeRules {
  private DecodeRules() {}

  /** Staging arrays up to this size are kept per thread; larger ones are not. */
  public static final int KEPT_STAGING_BYTES = 64 << 10;

  private static final ThreadLocal<byte[]> STAGING = ThreadLocal.withInitial(() -> new byte[64]);

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
   * This thread's staging array of at least n bytes, for a decoder that hands a value's bytes on as
   * an array (the UTF-8 ones). Valid only until this thread's next call of this: while it holds the
   * array, a caller runs no code that may decode or read (a decoder, a get), and it never keeps the
   * array or hands it out. Above {@link #KEPT_STAGING_BYTES} a new array is returned and not kept.
   *
   * @param n bytes needed, not negative
   * @return an array of at least n bytes
   */
  public static byte[] staging(int n) {
    byte[] staging = STAGING.get();
    if (staging.length < n) {
      staging = new byte[Math.max(n, Math.min(2 * staging.length, KEPT_STAGING_BYTES))];
      if (staging.length <= KEPT_STAGING_BYTES) {
        STAGING.set(staging);
      }
    }
    return staging;
  }
}
