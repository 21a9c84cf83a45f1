// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.PinnedBatch;
import io.pinget.ReadOptions;
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
 * Batched gets of {@link #BATCH} keys through RocksDB's MultiGet. One operation is one key, so
 * these rows compare with single gets. The key batches are prepared in setup.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BatchGetBenchmark {
  static final int BATCH = 16;

  /** Requested key count; DataSet caps it so that one data set stays under 4 GiB. */
  @Param("1000")
  public int keys;

  @Param("4096")
  public int valueSize;

  @Param("block_cache")
  public String residency;

  @Param("16")
  public int batch; // reported in the results; must equal BATCH

  private DataSet data;
  private byte[][][] keyBatches;
  private byte[][] dsts;
  private ByteBuffer[] directDsts;
  private int[] sizes;
  private PinnedBatch pinned;
  private int pos;

  @Setup(Level.Trial)
  public void setUp() {
    if (batch != BATCH) {
      throw new IllegalArgumentException("batch must be " + BATCH);
    }
    data = new DataSet(keys, valueSize, residency);
    keyBatches = new byte[data.keys.length / BATCH][BATCH][];
    for (int b = 0; b < keyBatches.length; b++) {
      for (int i = 0; i < BATCH; i++) {
        keyBatches[b][i] = data.keys[data.order[b * BATCH + i]];
      }
    }
    dsts = new byte[BATCH][valueSize];
    directDsts = new ByteBuffer[BATCH];
    for (int i = 0; i < BATCH; i++) {
      directDsts[i] = ByteBuffer.allocateDirect(valueSize);
    }
    sizes = new int[BATCH];
    pinned = data.store.newPinnedBatch();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    pinned.close();
    data.close();
  }

  private byte[][] nextBatch() {
    byte[][] b = keyBatches[pos];
    if (++pos == keyBatches.length) {
      pos = 0;
    }
    return b;
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int[] bufferCopy(CopyCounters c) {
    data.store.multiGetBufferCopy(ReadOptions.DEFAULT, nextBatch(), dsts, sizes);
    return sizes;
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int[] directCopy(CopyCounters c) {
    data.store.multiGetDirectCopy(ReadOptions.DEFAULT, nextBatch(), directDsts, sizes);
    return sizes;
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void pinnedView(CopyCounters c, Blackhole bh) {
    int n = pinned.get(nextBatch());
    for (int i = 0; i < n; i++) {
      bh.consume(pinned.value(i));
    }
  }
}
