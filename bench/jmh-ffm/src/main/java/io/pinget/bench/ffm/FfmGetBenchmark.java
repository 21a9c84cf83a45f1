// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.ffm;

import io.pinget.bench.CopyCounters;
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
 * Single gets of the FFM binding beside pinget's JNI API, its in-process native loop and
 * rocksdbjni, in one JVM on one JDK (22+), each over its own copy of the same data ({@link
 * FfmData}), each the row of {@link FfmReads} of its name. Method names are the rows of
 * docs/strategies.md in camel case: {@code ffm*} the FFM binding, the others the JNI API on this
 * JDK (its rows keep their names; bench/tools puts this suite's rows in a summary of their own).
 * pinget's rows count copies ({@link CopyCounters}): both bindings share the library's per-thread
 * counters.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class FfmGetBenchmark {
  @Param({"keys", "hot_key"})
  public String shape;

  @Param("1000")
  public int keys;

  @Param({"128", "4096", "65536"})
  public int valueSize;

  private FfmData data;
  private FfmReads reads;
  private int pos;

  @Setup(Level.Trial)
  public void setUp() {
    data = new FfmData(shape, keys, valueSize);
    reads = new FfmReads(data);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    reads.close();
    data.close();
  }

  /** The next position of the visiting order. */
  private int next() {
    int p = pos;
    if (++pos == data.count) {
      pos = 0;
    }
    return p;
  }

  @Benchmark
  public void ffmPinnedView(CopyCounters c, Blackhole bh) {
    reads.ffmPinnedView(next(), bh);
  }

  @Benchmark
  public void ffmBufferCopy(CopyCounters c, Blackhole bh) {
    reads.ffmBufferCopy(next(), bh);
  }

  @Benchmark
  public void ffmDirectCopy(CopyCounters c, Blackhole bh) {
    reads.ffmDirectCopy(next(), bh);
  }

  @Benchmark
  public void ffmPinnableCopy(CopyCounters c, Blackhole bh) {
    reads.ffmPinnableCopy(next(), bh);
  }

  @Benchmark
  public void ffmStringCopy(CopyCounters c, Blackhole bh) {
    reads.ffmStringCopy(next(), bh);
  }

  @Benchmark
  public void pinnedView(CopyCounters c, Blackhole bh) {
    reads.pinnedView(next(), bh);
  }

  @Benchmark
  public void bufferCopy(CopyCounters c, Blackhole bh) {
    reads.bufferCopy(next(), bh);
  }

  /** LOOP pinned gets made in C++ within one JNI call: the floor both bindings approach. */
  @Benchmark
  @OperationsPerInvocation(FfmData.LOOP)
  public long nativePinnedLoop(CopyCounters c) {
    long bytes = data.loop.pinnedGets(pos, FfmData.LOOP);
    pos = (pos + FfmData.LOOP) % data.count;
    return bytes;
  }

  @Benchmark
  public void rocksdbjniGet(Blackhole bh) throws RocksDBException {
    reads.rocksdbjniGet(next(), bh);
  }

  @Benchmark
  public void rocksdbjniGetDirect(Blackhole bh) throws RocksDBException {
    reads.rocksdbjniGetDirect(next(), bh);
  }
}
