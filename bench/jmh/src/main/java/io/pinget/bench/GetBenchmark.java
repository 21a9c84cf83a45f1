// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.rocksdb.RocksDBException;

/**
 * Single gets: one method per strategy (pinget) and per peer (rocksdbjni), each the row of {@link
 * Reads} of its name (docs/strategies.md's row in camel case), which hands what it read to the
 * Blackhole. Each benchmark × parameter set runs in its own forked JVM, so no profile is shared
 * between them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class GetBenchmark {
  /** Gets per call of the nativePinnedLoop control. */
  static final int LOOP = 64;

  /** Requested key count; DataSet caps it so that one data set stays under 4 GiB. */
  @Param("1000")
  public int keys;

  @Param({"128", "4096", "65536"})
  public int valueSize;

  @Param("block_cache")
  public String residency;

  /** 15: "key" and 12 digits; 12: RocksDB's "reduce copies" configuration (12 digits). */
  @Param("15")
  public int keyBytes;

  private DataSet data;
  private Reads reads;
  private NativeControls.KeyLoop loop;
  private int pos;

  @Setup(Level.Trial)
  public void setUp() {
    data = new DataSet(keys, valueSize, residency, Lookup.DEFAULT, keyBytes);
    reads = new Reads(data, valueSize, LOOP);
    // reads.keys is the visiting order and its first LOOP keys again: a loop from any position up
    // to the order's length reads the keys the Java rows read, in the same order.
    loop = NativeControls.keyLoop(data.store, reads.keys);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    reads.close();
    loop.close();
    data.close();
  }

  /** The next position of the visiting order. */
  private int next() {
    int p = pos;
    if (++pos == reads.n) {
      pos = 0;
    }
    return p;
  }

  @Benchmark
  public void stringCopy(CopyCounters c, Blackhole bh) {
    reads.stringCopy(next(), bh);
  }

  @Benchmark
  public void pinnableCopy(CopyCounters c, Blackhole bh) {
    reads.pinnableCopy(next(), bh);
  }

  @Benchmark
  public void bufferCopy(CopyCounters c, Blackhole bh) {
    reads.bufferCopy(next(), bh);
  }

  /** Negative control: bufferCopy under another name. */
  @Benchmark
  public void bufferCopyTwin(CopyCounters c, Blackhole bh) {
    reads.bufferCopy(next(), bh);
  }

  @Benchmark
  public void directCopy(CopyCounters c, Blackhole bh) {
    reads.directCopy(next(), bh);
  }

  @Benchmark
  public void pinnedView(CopyCounters c, Blackhole bh) {
    reads.pinnedView(next(), bh);
  }

  @Benchmark
  public void pinnedViewPerCall(CopyCounters c, Blackhole bh) {
    reads.pinnedViewPerCall(next(), bh);
  }

  @Benchmark
  public void rocksdbjniGet(Blackhole bh) throws RocksDBException {
    reads.rocksdbjniGet(next(), bh);
  }

  @Benchmark
  public void rocksdbjniGetPrealloc(Blackhole bh) throws RocksDBException {
    reads.rocksdbjniGetPrealloc(next(), bh);
  }

  @Benchmark
  public void rocksdbjniGetDirect(Blackhole bh) throws RocksDBException {
    reads.rocksdbjniGetDirect(next(), bh);
  }

  @Benchmark
  public void rocksjavaPinnedView(CopyCounters c, Blackhole bh) {
    reads.rocksjavaPinnedView(next(), bh);
  }

  @Benchmark
  public void rocksjavaBufferCopy(CopyCounters c, Blackhole bh) {
    reads.rocksjavaBufferCopy(next(), bh);
  }

  @Benchmark
  public void rocksjavaDirectCopy(CopyCounters c, Blackhole bh) {
    reads.rocksjavaDirectCopy(next(), bh);
  }

  /**
   * The in-process control for the JNI tax: LOOP pinned_view gets made in C++ (Store::GetPinned
   * into one reused pin, as the native suite's native_pinned row) per JNI crossing, over the keys
   * pinnedView reads, in its order. pinnedView's time per get over this row's is the tax of one
   * crossing, measured in the same JVM on the same data.
   */
  @Benchmark
  @OperationsPerInvocation(LOOP)
  public long nativePinnedLoop(CopyCounters c) {
    long bytes = loop.pinnedGets(pos, LOOP);
    pos = (pos + LOOP) % reads.n;
    return bytes;
  }

  /** One empty JNI crossing into pinget's library: the floor of any native call. */
  @Benchmark
  public int jniNop() {
    return NativeControls.jniNop();
  }
}
