// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.CopyStats;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * pinget's per-thread copy counters over one measurement iteration, reported by JMH as secondary
 * metrics in the primary metric's unit (per second): copies per operation is copies / score. Read
 * on the benchmark thread, whose counters they are. Benchmarks that pinget does not count
 * (rocksdbjni, jni_nop) leave them at 0. {@code copies} and {@code bytesCopied} include the reads
 * of SST file bytes (F), which {@code fileReads} and {@code fileBytesRead} also give alone.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class CopyCounters {
  public long copies;
  public long bytesCopied;
  public long allocations;
  public long fileReads;
  public long fileBytesRead;
  private final long[] stats = new long[CopyStats.COUNTERS];

  @Setup(Level.Iteration)
  public void reset() {
    CopyStats.reset();
    copies = 0;
    bytesCopied = 0;
    allocations = 0;
    fileReads = 0;
    fileBytesRead = 0;
  }

  @TearDown(Level.Iteration)
  public void read() {
    CopyStats.read(stats);
    fileReads = stats[4];
    fileBytesRead = stats[5];
    copies = stats[0] + fileReads;
    bytesCopied = stats[1] + fileBytesRead;
    allocations = stats[3];
  }
}
