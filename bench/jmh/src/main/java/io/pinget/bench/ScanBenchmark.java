// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

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
 * Scans, per entry: pinget's cursor (batches of up to 256 views per JNI call), the same reads made
 * in C++ inside the JVM (the in-process floor), and rocksdbjni's RocksIterator with byte[]
 * key()/value() and with direct ByteBuffers, over the same data and options. Two shapes
 * (CursorScans): {@code stream}, a streaming scan, and {@code range}, short range scans of 100
 * entries after a seek to a random key. One operation is one entry. Every entry's key and value
 * reach the Blackhole: pinget's (Java and C++) as their last byte, read in place; rocksdbjni's as a
 * new array, or as a size written into a direct buffer (the copy has read every byte). pinget's
 * rows count their copies per entry (CopyCounters: value copies and file reads; key copies apart).
 * Row names are docs/strategies.md's ({@code cursor}, {@code native_cursor_loop}); the report tells
 * the shapes apart by the {@code scan} parameter.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ScanBenchmark {
  @Param("1000")
  public int keys;

  @Param({"128", "4096"})
  public int valueSize;

  @Param("block_cache")
  public String residency;

  @Param({CursorScans.STREAM, CursorScans.RANGES})
  public String scan;

  private DataSet data;
  private CursorScans scans;
  private boolean stream;
  private Cursor cursor;
  private NativeControls.CursorLoop nativeCursor;
  private Cursor rocksjavaCursor;
  private RocksIterator iterator;
  private RocksIterator directIterator;
  private ByteBuffer directKey;
  private ByteBuffer directValue;
  private final long[] out = new long[2];

  @Setup(Level.Trial)
  public void setUp() {
    stream = CursorScans.isStream(scan);
    data = new DataSet(keys, valueSize, residency);
    scans = new CursorScans(data.keys);
    cursor = data.store.newCursor();
    cursor.seekToFirst();
    nativeCursor = NativeControls.cursorLoop(data.store);
    rocksjavaCursor = data.reader.store().newCursor();
    rocksjavaCursor.seekToFirst();
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
    rocksjavaCursor.close();
    iterator.close();
    directIterator.close();
    data.close();
  }

  @Benchmark
  @OperationsPerInvocation(CursorScans.ENTRIES)
  public void cursor(Blackhole bh, CopyCounters c) {
    if (stream) {
      CursorScans.stream(cursor, CursorScans.ENTRIES, bh);
    } else {
      scans.ranges(cursor, CursorScans.ENTRIES, bh);
    }
  }

  /** The cursor of a RocksJavaReader over the rocksdbjni rows' own RocksDB. */
  @Benchmark
  @OperationsPerInvocation(CursorScans.ENTRIES)
  public void rocksjavaCursor(Blackhole bh, CopyCounters c) {
    if (stream) {
      CursorScans.stream(rocksjavaCursor, CursorScans.ENTRIES, bh);
    } else {
      scans.ranges(rocksjavaCursor, CursorScans.ENTRIES, bh);
    }
  }

  @Benchmark
  @OperationsPerInvocation(CursorScans.ENTRIES)
  public void nativeCursorLoop(Blackhole bh, CopyCounters c) {
    if (stream) {
      CursorScans.streamInNative(nativeCursor, CursorScans.ENTRIES, out, bh);
    } else {
      scans.rangesInNative(nativeCursor, CursorScans.ENTRIES, out, bh);
    }
  }

  @Benchmark
  @OperationsPerInvocation(CursorScans.ENTRIES)
  public void rocksdbjniIterator(Blackhole bh) {
    if (stream) {
      CursorScans.stream(iterator, CursorScans.ENTRIES, null, null, bh);
    } else {
      scans.ranges(iterator, CursorScans.ENTRIES, null, null, bh);
    }
  }

  @Benchmark
  @OperationsPerInvocation(CursorScans.ENTRIES)
  public void rocksdbjniIteratorDirect(Blackhole bh) {
    if (stream) {
      CursorScans.stream(directIterator, CursorScans.ENTRIES, directKey, directValue, bh);
    } else {
      scans.ranges(directIterator, CursorScans.ENTRIES, directKey, directValue, bh);
    }
  }
}
