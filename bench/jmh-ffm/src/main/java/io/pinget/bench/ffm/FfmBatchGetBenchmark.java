// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import io.pinget.PinnedBatch;
import io.pinget.ReadOptions;
import io.pinget.bench.CopyCounters;
import io.pinget.ffm.FfmPinnedBatch;
import java.lang.foreign.MemorySegment;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Batched gets of the FFM binding beside pinget's JNI batch, on the FFM suite's data ({@link
 * FfmData}): each invocation reads {@link #KEYS} keys in batches of {@link #batch}, one operation
 * per key. Rows as in docs/strategies.md: {@code ffm_pinned_batch}, {@code
 * ffm_multiget_buffer_copy}, and {@code pinned_view} (a JNI {@code PinnedBatch}), with batch > 1.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class FfmBatchGetBenchmark {
  /** Keys per invocation: a multiple of every batch size. */
  static final int KEYS = 64;

  @Param({"keys", "hot_key"})
  public String shape;

  @Param("1000")
  public int keys;

  @Param({"128", "4096", "65536"})
  public int valueSize;

  /** Keys per batch: a divisor of KEYS. */
  @Param("16")
  public int batch;

  private FfmData data;
  private byte[][][] batches;
  private FfmPinnedBatch ffmBatch;
  private PinnedBatch jniBatch;
  private byte[][] dsts;
  private int[] sizes;
  private int pos;

  @Setup(Level.Trial)
  public void setUp() {
    if (batch < 1 || KEYS % batch != 0) {
      throw new IllegalArgumentException("batch must divide " + KEYS + ": " + batch);
    }
    data = new FfmData(shape, keys, valueSize);
    batches = data.batches(batch);
    ffmBatch = data.ffm.newPinnedBatch();
    jniBatch = data.jni.newPinnedBatch();
    dsts = new byte[batch][data.valueSize];
    sizes = new int[batch];
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    ffmBatch.close();
    jniBatch.close();
    data.close();
  }

  private byte[][] nextBatch() {
    byte[][] b = batches[pos];
    if (++pos == batches.length) {
      pos = 0;
    }
    return b;
  }

  /**
   * The FFM pinned batch: ns per key. Each value is read in place (its last byte): a segment handed
   * to the Blackhole would escape, and the JIT could not scalar-replace it.
   */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void ffmPinnedBatch(CopyCounters c, Blackhole bh) {
    for (int r = KEYS / batch; r > 0; r--) {
      int n = ffmBatch.get(nextBatch());
      for (int i = 0; i < n; i++) {
        MemorySegment v = ffmBatch.value(i);
        bh.consume(v.get(JAVA_BYTE, v.byteSize() - 1));
      }
    }
  }

  /** The FFM binding's batched buffer copy: its store's (copies: docs/strategies.md). */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void ffmMultigetBufferCopy(CopyCounters c, Blackhole bh) {
    for (int r = KEYS / batch; r > 0; r--) {
      data.ffm.multiGetBufferCopy(ReadOptions.DEFAULT, nextBatch(), dsts, sizes);
      bh.consume(sizes);
    }
  }

  /**
   * pinget's JNI pinned batch on the same JDK: ns per key, each value read in place as
   * ffmPinnedBatch reads it (BatchGetBenchmark's pinnedView hands the views to the Blackhole).
   */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void pinnedViewInPlace(CopyCounters c, Blackhole bh) {
    for (int r = KEYS / batch; r > 0; r--) {
      int n = jniBatch.get(nextBatch());
      for (int i = 0; i < n; i++) {
        ByteBuffer v = jniBatch.value(i); // read in place, as ffmPinnedBatch
        bh.consume(v.get(v.limit() - 1));
      }
    }
  }
}
