// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.ffm;

import io.pinget.Compression;
import io.pinget.Cursor;
import io.pinget.Options;
import io.pinget.Store;
import io.pinget.ffm.FfmCursor;
import io.pinget.ffm.FfmStore;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * Scans on a JDK 22+, per entry: the FFM cursor (batches of 256 segments per downcall) beside the
 * JNI cursor, on two stores holding the same data in the block cache; streaming ({@code *Scan}:
 * SCAN entries per invocation, starting over at the end) and short ({@code *Range}: a seek, then
 * RANGE entries). One operation is one entry; every key and value reaches the Blackhole.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FfmScanBenchmark {
  static final int BATCH = 256;
  static final int SCAN = 16 * BATCH;
  static final int RANGE = 100;

  @Param("1000")
  public int keys;

  @Param({"128", "4096"})
  public int valueSize;

  private Path dir;
  private FfmStore ffm;
  private Store jni;
  private FfmCursor ffmCursor;
  private Cursor jniCursor;
  private byte[][] seekKeys;
  private int pos;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Random random = new Random(42);
    long cacheBytes = 2L * keys * (valueSize + 64) + (64L << 20);
    Options options =
        new Options().compression(Compression.NONE).blockSize(4096).blockCacheBytes(cacheBytes);
    dir = Files.createTempDirectory("pinget-ffm-scan");
    ffm = FfmStore.open(dir.resolve("ffm"), options);
    jni = Store.open(dir.resolve("jni"), options);
    byte[][] all = new byte[keys][];
    for (int i = 0; i < keys; i++) {
      all[i] = String.format("key%012d", i).getBytes(StandardCharsets.US_ASCII);
      byte[] value = new byte[valueSize];
      random.nextBytes(value);
      ffm.put(all[i], value);
      jni.put(all[i], value);
    }
    ffm.flush();
    jni.flush();
    int starts = Math.max(1, keys - RANGE);
    seekKeys = new byte[starts][];
    for (int i = 0; i < starts; i++) {
      seekKeys[i] = all[random.nextInt(starts)];
    }
    ffmCursor = ffm.newCursor();
    jniCursor = jni.newCursor();
    // Every block read once by each side: all in the block cache.
    ffmCursor.seekToFirst();
    ffmCursor.forEach((k, v) -> true);
    ffmCursor.seekToFirst();
    jniCursor.seekToFirst();
    jniCursor.forEach((k, v) -> true);
    jniCursor.seekToFirst();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    ffmCursor.close();
    jniCursor.close();
    ffm.close();
    jni.close();
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private byte[] nextSeekKey() {
    byte[] k = seekKeys[pos];
    if (++pos == seekKeys.length) {
      pos = 0;
    }
    return k;
  }

  @Benchmark
  @OperationsPerInvocation(SCAN)
  public void ffmCursorScan(Blackhole bh) {
    for (int left = SCAN; left > 0; ) {
      int n = ffmCursor.next(Math.min(BATCH, left));
      if (n == 0) {
        ffmCursor.seekToFirst();
        continue;
      }
      for (int i = 0; i < n; i++) {
        MemorySegment k = ffmCursor.key(i);
        MemorySegment v = ffmCursor.value(i);
        bh.consume(k);
        bh.consume(v);
      }
      left -= n;
    }
  }

  @Benchmark
  @OperationsPerInvocation(SCAN)
  public void jniCursorScan(Blackhole bh) {
    for (int left = SCAN; left > 0; ) {
      int n = jniCursor.next(Math.min(BATCH, left));
      if (n == 0) {
        jniCursor.seekToFirst();
        continue;
      }
      for (int i = 0; i < n; i++) {
        bh.consume(jniCursor.key(i));
        bh.consume(jniCursor.value(i));
      }
      left -= n;
    }
  }

  @Benchmark
  @OperationsPerInvocation(RANGE)
  public void ffmCursorRange(Blackhole bh) {
    ffmCursor.seek(nextSeekKey());
    int n = ffmCursor.next(RANGE);
    for (int i = 0; i < n; i++) {
      bh.consume(ffmCursor.key(i));
      bh.consume(ffmCursor.value(i));
    }
  }

  @Benchmark
  @OperationsPerInvocation(RANGE)
  public void jniCursorRange(Blackhole bh) {
    jniCursor.seek(nextSeekKey());
    int n = jniCursor.next(RANGE);
    for (int i = 0; i < n; i++) {
      bh.consume(jniCursor.key(i));
      bh.consume(jniCursor.value(i));
    }
  }
}
