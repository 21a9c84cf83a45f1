// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The benchmark thread's CPU time over one measurement iteration, as a JMH secondary metric in the
 * primary metric's unit: CPU ns per operation is {@code cpuNanos} / score. On a machine that other
 * work keeps busy, a thread waiting for a core adds wall time but no CPU time, so this shows what a
 * read costs when throughput cannot (DecodeBenchmark's rows). It counts the thread's own CPU only
 * (not RocksDB's background threads, which these reads do not use).
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class CpuCounters {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  public long cpuNanos;
  private long start;

  @Setup(Level.Iteration)
  public void start() {
    cpuNanos = 0;
    start = THREADS.getCurrentThreadCpuTime();
  }

  @TearDown(Level.Iteration)
  public void stop() {
    cpuNanos = THREADS.getCurrentThreadCpuTime() - start;
  }
}
