// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import java.lang.foreign.MemorySegment;

/**
 * A {@link SegmentDecoder} to a primitive long, so that a counter is read without a boxed Long: the
 * decode step of {@link FfmStore#getLong}. The value is lent as {@link SegmentDecoder} says.
 */
@FunctionalInterface
public interface LongSegmentDecoder {
  /**
   * Decodes a value.
   *
   * @param value the value's bytes, read-only, valid only during this call
   * @return the decoded value
   */
  long decode(MemorySegment value);
}
