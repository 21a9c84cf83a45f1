// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.LongDecoder;
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
import org.rocksdb.RocksDBException;

/**
 * Batched gets through RocksDB's MultiGet, pinget's and rocksdbjni's: each invocation reads {@link
 * #KEYS} keys in batches of {@link #batch}. One operation is one key, so these rows compare with
 * single gets. The key batches (arrays, lists and direct buffers) are prepared in setup.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BatchGetBenchmark {
  /** Keys per invocation: a multiple of every batch size. */
  static final int KEYS = 64;

  /** A value's first 8 bytes, big-endian: every value here has at least 8. */
  private static final LongDecoder FIRST_LONG = v -> v.getLong(0);

  /** Requested key count; DataSet caps it so that one data set stays under 4 GiB. */
  @Param("1000")
  public int keys;

  @Param("4096")
  public int valueSize;

  @Param("block_cache")
  public String residency;

  /** Keys per batch: a divisor of KEYS. */
  @Param({"16", "64"})
  public int batch;

  private DataSet data;
  private byte[][][] keyBatches;
  private List<List<byte[]>> keyLists; // the same batches, as rocksdbjni takes them
  private List<List<ByteBuffer>> directKeyLists;
  private List<ByteBuffer> directValues;
  private byte[][] dsts;
  private ByteBuffer[] directDsts;
  private int[] sizes;
  private long[] longs;
  private PinnedBatch pinned;
  private NativeControls.KeyLoop loop;
  private int pos;

  @Setup(Level.Trial)
  public void setUp() {
    if (batch < 1 || KEYS % batch != 0) {
      throw new IllegalArgumentException("batch must divide " + KEYS + ": " + batch);
    }
    data = new DataSet(keys, valueSize, residency);
    keyBatches = new byte[data.keys.length / batch][batch][];
    keyLists = new ArrayList<>();
    directKeyLists = new ArrayList<>();
    byte[][] ordered = new byte[keyBatches.length * batch][];
    for (int b = 0; b < keyBatches.length; b++) {
      List<ByteBuffer> direct = new ArrayList<>();
      for (int i = 0; i < batch; i++) {
        int k = data.order[b * batch + i];
        keyBatches[b][i] = data.keys[k];
        ordered[b * batch + i] = data.keys[k];
        direct.add(data.directKeys[k].duplicate());
      }
      keyLists.add(Arrays.asList(keyBatches[b]));
      directKeyLists.add(direct);
    }
    dsts = new byte[batch][valueSize];
    directDsts = new ByteBuffer[batch];
    for (int i = 0; i < batch; i++) {
      directDsts[i] = ByteBuffer.allocateDirect(valueSize);
    }
    directValues = Arrays.asList(directDsts); // a trial runs one method: no sharing
    sizes = new int[batch];
    longs = new long[batch];
    pinned = data.store.newPinnedBatch();
    loop = NativeControls.keyLoop(data.store, ordered);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    pinned.close();
    loop.close();
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
  @OperationsPerInvocation(KEYS)
  public void bufferCopy(CopyCounters c, Blackhole bh) {
    for (int r = KEYS / batch; r > 0; r--) {
      data.store.multiGetBufferCopy(ReadOptions.DEFAULT, nextBatch(), dsts, sizes);
      bh.consume(sizes);
    }
  }

  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void directCopy(CopyCounters c, Blackhole bh) {
    for (int r = KEYS / batch; r > 0; r--) {
      data.store.multiGetDirectCopy(ReadOptions.DEFAULT, nextBatch(), directDsts, sizes);
      bh.consume(sizes);
    }
  }

  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void pinnedView(CopyCounters c, Blackhole bh) {
    for (int r = KEYS / batch; r > 0; r--) {
      int n = pinned.get(nextBatch());
      for (int i = 0; i < n; i++) {
        bh.consume(pinned.value(i));
      }
    }
  }

  /**
   * Decode on read over a batch ({@code multiGetLong}): the batch pinned (P copies), each value
   * lent to a decoder that reads its first 8 bytes, nothing allocated. Against pinnedView: what
   * lending each value to a decoder adds.
   */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void multigetLongDecodeOnRead(CopyCounters c, Blackhole bh) {
    for (int r = KEYS / batch; r > 0; r--) {
      data.store.multiGetLong(ReadOptions.DEFAULT, nextBatch(), FIRST_LONG, -1, longs);
      bh.consume(longs);
    }
  }

  /**
   * The in-process control for pinnedView: the same batches made in C++ (Store::MultiGetPinned, as
   * the native suite's native_pinned batch rows), all KEYS keys in one JNI crossing.
   */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public long nativeBatchLoop(CopyCounters c) {
    int b = pos;
    pos = (pos + KEYS / batch) % keyBatches.length;
    if (b + KEYS / batch > keyBatches.length) { // the batches at the end, then the first ones
      int tail = keyBatches.length - b;
      return loop.pinnedBatches(b * batch, tail * batch, batch)
          + loop.pinnedBatches(0, KEYS - tail * batch, batch);
    }
    return loop.pinnedBatches(b * batch, KEYS, batch);
  }

  /**
   * rocksdbjni's {@code multiGetAsList}: one MultiGet, then per key a new {@code byte[]} and one
   * copy into it, and a new list per batch.
   */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void rocksdbjniMultiget(Blackhole bh) throws RocksDBException {
    for (int r = KEYS / batch; r > 0; r--) {
      bh.consume(data.rocks.multiGetAsList(keyLists.get(nextIndex())));
    }
  }

  /**
   * rocksdbjni's {@code multiGetByteBuffers}: direct key and value buffers, one copy per key into
   * its value buffer, and a new list of statuses per batch.
   */
  @Benchmark
  @OperationsPerInvocation(KEYS)
  public void rocksdbjniMultigetDirect(Blackhole bh) throws RocksDBException {
    for (int r = KEYS / batch; r > 0; r--) {
      for (ByteBuffer v : directValues) {
        v.clear();
      }
      bh.consume(data.rocks.multiGetByteBuffers(directKeyLists.get(nextIndex()), directValues));
    }
  }
}
