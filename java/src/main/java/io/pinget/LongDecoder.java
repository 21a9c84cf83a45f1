// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;

/**
 * A {@link ValueDecoder} to a primitive long, so that a counter is read without a boxed Long: the
 * decode step of {@link Reader#getLong} and {@link Reader#multiGetLong}. The value is given, and
 * must be left, as {@link ValueDecoder} says. {@link Decoders#longBE()}, {@link Decoders#longLE()},
 * {@link Decoders#intBE()} and {@link Decoders#intLE()} are the built-in ones.
 */
@FunctionalInterface
public interface LongDecoder {
  /**
   * Decodes a value.
   *
   * @param value the value's bytes, read-only, valid only during this call
   * @return the decoded value
   */
  long decode(ByteBuffer value);
}
