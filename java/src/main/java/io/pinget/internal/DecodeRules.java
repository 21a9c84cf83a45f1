// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.internal;

import io.pinget.DecodeException;

/**
 * The rules that {@code io.pinget.Decoders} and {@code io.pinget.ffm.SegmentDecoders} share, so
 * that a decoder of either door refuses the same values with the same message and keeps the same
 * staging memory. Each class keeps its own per-thread staging array: one array shared through this
 * class measured 1% slower on the JNI UTF-8 decode (docs/benchmarks.md, "A shared staging array,
 * tried and not kept"). Not for applications.
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
}
