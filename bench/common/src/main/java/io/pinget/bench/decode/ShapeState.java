// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.decode;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The JMH parameters and life cycle of one decode shape's data, which DecodeBenchmark and
 * FfmDecodeBenchmark share: {@code keys} keys of the shape's one value size, in the block cache or
 * the memtable. Each shape's {@code @State} class declares {@code valueSize} as a {@code @Param} of
 * its one size (so that a method runs at its own shape's size only) and returns it from {@link
 * #valueSize()}; each suite opens its data in {@link #open}.
 */
@State(Scope.Thread)
public abstract class ShapeState {
  @Param("1000")
  public int keys;

  @Param({"block_cache", "memtable"})
  public String residency;

  /** The shape's value size: its {@code valueSize} parameter. */
  protected abstract int valueSize();

  protected abstract void open(int valueSize, int keys, String residency);

  protected abstract void close();

  @Setup(Level.Trial)
  public void setUp() {
    open(valueSize(), keys, residency);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    close();
  }
}
