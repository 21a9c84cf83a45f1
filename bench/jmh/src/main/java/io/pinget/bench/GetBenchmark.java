// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.PinnedValue;
import io.pinget.PinnedView;
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
import org.rocksdb.RocksDBException;

/**
 * Single gets: one method per strategy (pinget) and per peer (rocksdbjni), each returning what it
 * read so that JMH consumes it. Method names are docs/strategies.md's rows in camel case. Each
 * benchmark × parameter set runs in its own forked JVM, so no profile is shared between them.
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
  private byte[] dst;
  private ByteBuffer directDst;
  private PinnedView view;
  private PinnedView rocksjavaView;
  private org.rocksdb.ReadOptions rocksRead;
  private NativeControls.KeyLoop loop;
  private int pos;

  @Setup(Level.Trial)
  public void setUp() {
    data = new DataSet(keys, valueSize, residency, Lookup.DEFAULT, keyBytes);
    dst = new byte[valueSize];
    directDst = ByteBuffer.allocateDirect(valueSize);
    view = data.store.newPinnedView();
    rocksjavaView = data.reader.store().newPinnedView();
    rocksRead = new org.rocksdb.ReadOptions();
    // The visiting order, and its first LOOP keys again: a loop from any position up to the
    // order's length reads the keys the Java rows read, in the same order.
    byte[][] ordered = new byte[data.order.length + LOOP][];
    for (int i = 0; i < ordered.length; i++) {
      ordered[i] = data.keys[data.order[i % data.order.length]];
    }
    loop = NativeControls.keyLoop(data.store, ordered);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    view.close();
    rocksjavaView.close();
    rocksRead.close();
    loop.close();
    data.close();
  }

  private int next() {
    int k = data.order[pos];
    if (++pos == data.order.length) {
      pos = 0;
    }
    return k;
  }

  @Benchmark
  public byte[] stringCopy(CopyCounters c) {
    return data.store.stringCopy(data.keys[next()]);
  }

  @Benchmark
  public byte[] pinnableCopy(CopyCounters c) {
    return data.store.pinnableCopy(data.keys[next()]);
  }

  @Benchmark
  public int bufferCopy(CopyCounters c) {
    return data.store.bufferCopy(data.keys[next()], dst, 0, dst.length);
  }

  /** Negative control: the same code as bufferCopy under another name. */
  @Benchmark
  public int bufferCopyTwin(CopyCounters c) {
    return data.store.bufferCopy(data.keys[next()], dst, 0, dst.length);
  }

  /** The next key as a direct buffer, and directDst emptied for the value. */
  private ByteBuffer nextDirectKey() {
    ByteBuffer key = data.directKeys[next()];
    key.rewind();
    directDst.clear();
    return key;
  }

  @Benchmark
  public int directCopy(CopyCounters c) {
    return data.store.directCopy(io.pinget.ReadOptions.DEFAULT, nextDirectKey(), directDst);
  }

  /** The reusable handle: each get releases the previous pin in the same native call. */
  @Benchmark
  public ByteBuffer pinnedView(CopyCounters c) {
    return view.get(data.keys[next()]);
  }

  @Benchmark
  public void pinnedViewPerCall(CopyCounters c, Blackhole bh) {
    try (PinnedValue v = data.store.pinnedValue(data.keys[next()])) {
      bh.consume(v.view());
    }
  }

  @Benchmark
  public byte[] rocksdbjniGet() throws RocksDBException {
    return data.rocks.get(data.keys[next()]);
  }

  @Benchmark
  public int rocksdbjniGetPrealloc() throws RocksDBException {
    return data.rocks.get(data.keys[next()], dst);
  }

  @Benchmark
  public int rocksdbjniGetDirect() throws RocksDBException {
    return data.rocks.get(rocksRead, nextDirectKey(), directDst);
  }

  // pinget's strategies through a RocksJavaReader over data.rocks: the very RocksDB instance
  // (same files, options and block cache) that the rocksdbjni rows read.

  @Benchmark
  public ByteBuffer rocksjavaPinnedView(CopyCounters c) {
    return rocksjavaView.get(data.keys[next()]);
  }

  @Benchmark
  public int rocksjavaBufferCopy(CopyCounters c) {
    return data.reader.store().bufferCopy(data.keys[next()], dst, 0, dst.length);
  }

  @Benchmark
  public int rocksjavaDirectCopy(CopyCounters c) {
    return data.reader
        .store()
        .directCopy(io.pinget.ReadOptions.DEFAULT, nextDirectKey(), directDst);
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
    pos = (pos + LOOP) % data.order.length;
    return bytes;
  }

  /** One empty JNI crossing into pinget's library: the floor of any native call. */
  @Benchmark
  public int jniNop() {
    return NativeControls.jniNop();
  }
}
