// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.ffm;

import io.pinget.PinnedView;
import io.pinget.bench.CopyCounters;
import io.pinget.ffm.FfmPinnedView;
import java.nio.ByteBuffer;
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
import org.rocksdb.RocksDBException;

/**
 * Single gets of the FFM binding beside pinget's JNI API, its in-process native loop and
 * rocksdbjni, in one JVM on one JDK (22+), each over its own copy of the same data ({@link
 * FfmData}). Method names are the rows of docs/strategies.md in camel case: {@code ffm*} the FFM
 * binding, the others the JNI API on this JDK (its rows keep their names; bench/tools puts this
 * suite's rows in a summary of their own). pinget's rows count copies ({@link CopyCounters}): both
 * bindings share the library's per-thread counters.
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
  private FfmPinnedView ffmView;
  private PinnedView jniView;
  private byte[] dst;
  private ByteBuffer directDst;
  private int pos;

  @Setup(Level.Trial)
  public void setUp() {
    data = new FfmData(shape, keys, valueSize);
    ffmView = data.ffm.newPinnedView();
    jniView = data.jni.newPinnedView();
    dst = new byte[data.valueSize];
    directDst = ByteBuffer.allocateDirect(data.valueSize);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    ffmView.close();
    jniView.close();
    data.close();
  }

  private byte[] next() {
    byte[] k = data.ordered[pos];
    if (++pos == data.count) {
      pos = 0;
    }
    return k;
  }

  /** The FFM pinned view: a read-only segment whose scope closes at the next get. */
  @Benchmark
  public Object ffmPinnedView(CopyCounters c) {
    return ffmView.get(next());
  }

  @Benchmark
  public int ffmBufferCopy(CopyCounters c) {
    return data.ffm.bufferCopy(next(), dst, 0, dst.length);
  }

  @Benchmark
  public int ffmDirectCopy(CopyCounters c) {
    directDst.clear();
    return data.ffm.directCopy(next(), directDst);
  }

  @Benchmark
  public byte[] ffmPinnableCopy(CopyCounters c) {
    return data.ffm.pinnableCopy(next());
  }

  @Benchmark
  public byte[] ffmStringCopy(CopyCounters c) {
    return data.ffm.stringCopy(next());
  }

  /** pinget's JNI pinned view on the same JDK. */
  @Benchmark
  public Object pinnedView(CopyCounters c) {
    return jniView.get(next());
  }

  @Benchmark
  public int bufferCopy(CopyCounters c) {
    return data.jni.bufferCopy(next(), dst, 0, dst.length);
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
  public byte[] rocksdbjniGet() throws RocksDBException {
    return data.rocks.get(data.rocksRead, next());
  }

  @Benchmark
  public int rocksdbjniGetDirect() throws RocksDBException {
    ByteBuffer key = data.directKeys[pos];
    next();
    key.rewind();
    directDst.clear();
    return data.rocks.get(data.rocksRead, key, directDst);
  }
}
