// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.paired;

import org.openjdk.jmh.infra.Blackhole;

/**
 * One side of a paired comparison: a loop of operations over the keys in their visiting order.
 *
 * <p>Write each side as its own lambda or class with its own loop, or as a read that {@link Loops}
 * runs, never as a call into a loop shared with the other side: a shared loop would carry one type
 * profile for both sides, and the JIT would inline (or not) both the same way by accident rather
 * than by their own shape.
 */
@FunctionalInterface
public interface Side {
  /**
   * Runs {@code ops} operations, the first on the key at position {@code start} of the visiting
   * order, then the next positions (wrapping around), handing every result to {@code bh}.
   *
   * @param start a position in [0, key count)
   * @param ops a multiple of the side's unit (see {@link Paired.Entry})
   * @param bh consumes every result
   * @throws Exception what the operation throws; the comparison fails
   */
  void run(int start, int ops, Blackhole bh) throws Exception;
}
