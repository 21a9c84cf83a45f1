// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.PinnedBatch;
import io.pinget.ReadOptions;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
import org.rocksdb.ByteBufferGetStatus;
import org.rocksdb.RocksDBException;

/**
 * Batched gets of {@link #BATCH} keys through RocksDB's MultiGet, pinget's and rocksdbjni's. One
 * operation is one key, so these rows compare with single gets. The key batches (arrays, lists and
 * direct buffers) are prepared in setup.
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
  private List<List<byte[]>> keyLists; // the same batches, as rocksdbjni takes them
  private List<List<ByteBuffer>> directKeyLists;
  private List<ByteBuffer> directValues;
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
    keyLists = new ArrayList<>();
    directKeyLists = new ArrayList<>();
    for (int b = 0; b < keyBatches.length; b++) {
      List<ByteBuffer> direct = new ArrayList<>();
      for (int i = 0; i < BATCH; i++) {
        int k = data.order[b * BATCH + i];
        keyBatches[b][i] = data.keys[k];
        direct.add(data.directKeys[k].duplicate());
      }
      keyLists.add(Arrays.asList(keyBatches[b]));
      directKeyLists.add(direct);
    }
    dsts = new byte[BATCH][valueSize];
    directDsts = new ByteBuffer[BATCH];
    for (int i = 0; i < BATCH; i++) {
      directDsts[i] = ByteBuffer.allocateDirect(valueSize);
    }
    directValues = Arrays.asList(directDsts); // a trial runs one method: no sharing
    sizes = new int[BATCH];
    pinned = data.store.newPinnedBatch();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    pinned.close();
    data.close();
  }

  private int nextIndex() {
    int b = pos;
    if (++pos == keyBatches.length) {
      pos = 0;
    }
    return b;
  }

  private byte[][] nextBatch() {
    return keyBatches[nextIndex()];
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

  /**
   * rocksdbjni's {@code multiGetAsList}: one MultiGet, then per key a new {@code byte[]} and one
   * copy into it, and a new list per batch.
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public List<byte[]> rocksdbjniMultiget() throws RocksDBException {
    return data.rocks.multiGetAsList(keyLists.get(nextIndex()));
  }

  /**
   * rocksdbjni's {@code multiGetByteBuffers}: direct key and value buffers, one copy per key into
   * its value buffer, and a new list of statuses per batch.
   */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public List<ByteBufferGetStatus> rocksdbjniMultigetDirect() throws RocksDBException {
    for (ByteBuffer v : directValues) {
      v.clear();
    }
    return data.rocks.multiGetByteBuffers(directKeyLists.get(nextIndex()), directValues);
  }
}
