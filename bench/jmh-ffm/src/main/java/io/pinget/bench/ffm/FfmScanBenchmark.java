// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.ffm;

import io.pinget.Compression;
import io.pinget.Cursor;
import io.pinget.Options;
import io.pinget.Store;
import io.pinget.bench.CopyCounters;
import io.pinget.bench.CursorScans;
import io.pinget.ffm.FfmCursor;
import io.pinget.ffm.FfmStore;
import java.io.IOException;
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
 * Scans on a JDK 22+, per entry: the FFM cursor (batches of up to 256 segments per downcall) beside
 * the JNI cursor, on two stores holding the same data in the block cache, in ScanBenchmark's two
 * shapes (CursorScans: {@code stream} and {@code range}). One operation is one entry; every key and
 * value reaches the Blackhole as its last byte, read in place (FfmScans, and CursorScans for the
 * JNI cursor). Row names are
 * docs/strategies.md's ({@code ffm_cursor}, {@code cursor}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FfmScanBenchmark {
  @Param("1000")
  public int keys;

  @Param({"128", "4096"})
  public int valueSize;

  @Param({CursorScans.STREAM, CursorScans.RANGES})
  public String scan;

  private Path dir;
  private FfmStore ffm;
  private Store jni;
  private FfmCursor ffmCursor;
  private Cursor jniCursor;
  private CursorScans scans;
  private boolean stream;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    stream = CursorScans.isStream(scan);
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
    scans = new CursorScans(all);
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

  @Benchmark
  @OperationsPerInvocation(CursorScans.ENTRIES)
  public void ffmCursor(Blackhole bh, CopyCounters c) {
    if (stream) {
      FfmScans.stream(ffmCursor, CursorScans.ENTRIES, bh);
    } else {
      FfmScans.ranges(ffmCursor, scans, CursorScans.ENTRIES, bh);
    }
  }

  /** The JNI cursor on the same JDK, each entry read in place as ffmCursor reads it. */
  @Benchmark
  @OperationsPerInvocation(CursorScans.ENTRIES)
  public void cursorInPlace(Blackhole bh, CopyCounters c) {
    if (stream) {
      CursorScans.stream(jniCursor, CursorScans.ENTRIES, bh);
    } else {
      scans.ranges(jniCursor, CursorScans.ENTRIES, bh);
    }
  }
}
