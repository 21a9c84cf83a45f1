// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.BenchControls;
import io.pinget.Cursor;
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
import org.rocksdb.RocksIterator;

/**
 * Scans, per entry: pinget's cursor (batches of 256 views per JNI call), the same scan made in C++
 * inside the JVM (the in-process floor), and rocksdbjni's RocksIterator with byte[] key()/value()
 * and with direct ByteBuffers, over the same data and options. Two shapes: {@code *Scan}, a
 * streaming scan (SCAN entries per invocation, continuing where the last stopped and starting over
 * at the end), and {@code *Range}, a short range scan (a seek to a key of the data set's random
 * order, then RANGE entries). One operation is one entry. Every entry's key and value reach the
 * Blackhole (as a view, a new array, or a size written into a direct buffer). pinget's rows count
 * their copies per entry (CopyCounters: value copies and file reads; key copies apart).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ScanBenchmark {
  /** Entries per JNI call of the cursor. */
  static final int BATCH = 256;

  /** Entries per invocation of a streaming scan: 16 batches. */
  static final int SCAN = 16 * BATCH;

  /** Entries of a short range scan. */
  static final int RANGE = 100;

  @Param("1000")
  public int keys;

  @Param({"128", "4096"})
  public int valueSize;

  @Param("block_cache")
  public String residency;

  private DataSet data;
  private Cursor cursor;
  private Cursor nativeCursor;
  private RocksIterator iterator;
  private RocksIterator directIterator;
  private ByteBuffer directKey;
  private ByteBuffer directValue;
  private final long[] out = new long[2];
  private int pos;

  @Setup(Level.Trial)
  public void setUp() {
    data = new DataSet(keys, valueSize, residency);
    cursor = data.store.newCursor();
    cursor.seekToFirst();
    nativeCursor = data.store.newCursor();
    nativeCursor.seekToFirst();
    iterator = data.rocks.newIterator();
    iterator.seekToFirst();
    directIterator = data.rocks.newIterator();
    directIterator.seekToFirst();
    directKey = ByteBuffer.allocateDirect(64);
    directValue = ByteBuffer.allocateDirect(valueSize);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    cursor.close();
    nativeCursor.close();
    iterator.close();
    directIterator.close();
    data.close();
  }

  /** A key of the random order among those with RANGE entries from them (all, if fewer). */
  private byte[] nextSeekKey() {
    int start = Math.max(1, data.keys.length - RANGE);
    byte[] k = data.keys[data.order[pos] % start];
    if (++pos == data.order.length) {
      pos = 0;
    }
    return k;
  }

  @Benchmark
  @OperationsPerInvocation(SCAN)
  public void cursorScan(Blackhole bh, CopyCounters c) {
    for (int left = SCAN; left > 0; ) {
      int n = cursor.next(Math.min(BATCH, left));
      if (n == 0) {
        cursor.seekToFirst();
        continue;
      }
      for (int i = 0; i < n; i++) {
        bh.consume(cursor.key(i));
        bh.consume(cursor.value(i));
      }
      left -= n;
    }
  }

  @Benchmark
  @OperationsPerInvocation(SCAN)
  public long nativeCursorLoop(CopyCounters c) {
    BenchControls.scanInNative(nativeCursor, BATCH, SCAN, out);
    return out[1];
  }

  @Benchmark
  @OperationsPerInvocation(SCAN)
  public void rocksdbjniIterator(Blackhole bh) {
    RocksIterator it = iterator;
    for (int left = SCAN; left > 0; left--) {
      if (!it.isValid()) {
        it.seekToFirst();
      }
      bh.consume(it.key());
      bh.consume(it.value());
      it.next();
    }
  }

  @Benchmark
  @OperationsPerInvocation(SCAN)
  public void rocksdbjniIteratorDirect(Blackhole bh) {
    RocksIterator it = directIterator;
    for (int left = SCAN; left > 0; left--) {
      if (!it.isValid()) {
        it.seekToFirst();
      }
      directKey.clear();
      directValue.clear();
      bh.consume(it.key(directKey));
      bh.consume(it.value(directValue));
      it.next();
    }
  }

  @Benchmark
  @OperationsPerInvocation(RANGE)
  public void cursorRange(Blackhole bh, CopyCounters c) {
    cursor.seek(nextSeekKey());
    int n = cursor.next(RANGE);
    for (int i = 0; i < n; i++) {
      bh.consume(cursor.key(i));
      bh.consume(cursor.value(i));
    }
  }

  @Benchmark
  @OperationsPerInvocation(RANGE)
  public long nativeCursorRange(CopyCounters c) {
    BenchControls.seekInNative(nativeCursor, nextSeekKey(), RANGE, out);
    return out[1];
  }

  @Benchmark
  @OperationsPerInvocation(RANGE)
  public void rocksdbjniIteratorRange(Blackhole bh) {
    RocksIterator it = iterator;
    it.seek(nextSeekKey());
    for (int i = 0; i < RANGE && it.isValid(); i++) {
      bh.consume(it.key());
      bh.consume(it.value());
      it.next();
    }
  }

  @Benchmark
  @OperationsPerInvocation(RANGE)
  public void rocksdbjniIteratorDirectRange(Blackhole bh) {
    RocksIterator it = directIterator;
    it.seek(nextSeekKey());
    for (int i = 0; i < RANGE && it.isValid(); i++) {
      directKey.clear();
      directValue.clear();
      bh.consume(it.key(directKey));
      bh.consume(it.value(directValue));
      it.next();
    }
  }
}
