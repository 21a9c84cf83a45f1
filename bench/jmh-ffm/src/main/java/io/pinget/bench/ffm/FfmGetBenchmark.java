// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.ffm;

import io.pinget.Compression;
import io.pinget.BenchControls;
import io.pinget.Options;
import io.pinget.PinnedBatch;
import io.pinget.PinnedView;
import io.pinget.Store;
import io.pinget.ffm.FfmPinnedBatch;
import io.pinget.ffm.FfmPinnedView;
import io.pinget.ffm.FfmStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
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
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The FFM binding beside pinget's JNI API, its in-process native loop and rocksdbjni, in one JVM on
 * one JDK (22+), each over its own copy of the same data with the same options: no compression, 4
 * KiB blocks, a block cache that holds it all, read once before measuring.
 *
 * <p>{@code shape=keys}: {@code keys} keys of {@code valueSize} bytes, visited in a fixed shuffled
 * order. {@code shape=hot_key}: one key with a 26-byte value, read again and again, where the
 * crossing and not the lookup is the cost (rocksdb-ffm's published configuration); valueSize is
 * then ignored.
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
  /** Gets per call of the nativePinnedLoop control. */
  static final int LOOP = 64;

  static final int HOT_VALUE_BYTES = 26;

  /** Keys per batch of the batched rows (whose figures are per key). */
  static final int BATCH = 16;

  @Param({"keys", "hot_key"})
  public String shape;

  @Param("1000")
  public int keys;

  @Param({"128", "4096", "65536"})
  public int valueSize;

  private Path dir;
  private byte[][] ordered; // the visiting order, then its first LOOP keys again
  private int count;
  private int pos;

  private FfmStore ffm;
  private FfmPinnedView ffmView;
  private FfmPinnedBatch ffmBatch;
  private PinnedBatch jniBatch;
  private byte[][][] batches; // the visiting order cut into batches of BATCH keys
  private int batchPos;
  private Store jni;
  private PinnedView jniView;
  private BenchControls.Loop loop;
  private LRUCache rocksCache;
  private org.rocksdb.Options rocksOptions;
  private RocksDB rocks;
  private org.rocksdb.ReadOptions rocksRead;
  private byte[] dst;
  private ByteBuffer[] directKeys; // as ordered
  private ByteBuffer directDst;

  @Setup(Level.Trial)
  public void setUp() throws IOException, RocksDBException {
    boolean hot = "hot_key".equals(shape);
    count = hot ? 1 : keys;
    int size = hot ? HOT_VALUE_BYTES : valueSize;
    byte[][] keyBytes = new byte[count][];
    byte[][] values = new byte[count][];
    Random random = new Random(42);
    for (int i = 0; i < count; i++) {
      keyBytes[i] = String.format("key%012d", i).getBytes(StandardCharsets.US_ASCII);
      values[i] = new byte[size];
      random.nextBytes(values[i]);
    }
    int[] order = new int[count];
    for (int i = 0; i < count; i++) {
      order[i] = i;
    }
    for (int i = count - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    ordered = new byte[count + LOOP][];
    for (int i = 0; i < ordered.length; i++) {
      ordered[i] = keyBytes[order[i % count]];
    }

    long cacheBytes = 2L * count * (size + 64) + (64L << 20);
    dir = Files.createTempDirectory("pinget-ffm-bench");
    ffm =
        FfmStore.open(
            dir.resolve("ffm"),
            new Options()
                .compression(Compression.NONE)
                .blockSize(4096)
                .blockCacheBytes(cacheBytes));
    jni =
        Store.open(
            dir.resolve("jni"),
            new Options()
                .compression(Compression.NONE)
                .blockSize(4096)
                .blockCacheBytes(cacheBytes));
    RocksDB.loadLibrary();
    rocksCache = new LRUCache(cacheBytes);
    rocksOptions =
        new org.rocksdb.Options()
            .setCreateIfMissing(true)
            .setCompressionType(CompressionType.NO_COMPRESSION)
            .setTableFormatConfig(
                new BlockBasedTableConfig().setBlockCache(rocksCache).setBlockSize(4096));
    rocks = RocksDB.open(rocksOptions, dir.resolve("rocksdbjni").toString());
    for (int i = 0; i < count; i++) {
      ffm.put(keyBytes[i], values[i]);
      jni.put(keyBytes[i], values[i]);
      rocks.put(keyBytes[i], values[i]);
    }
    ffm.flush();
    ffm.compact();
    jni.flush();
    jni.compact();
    rocks.compactRange();
    rocksRead = new org.rocksdb.ReadOptions();
    ffmView = ffm.newPinnedView();
    ffmBatch = ffm.newPinnedBatch();
    jniBatch = jni.newPinnedBatch();
    batches = new byte[Math.max(1, count / BATCH)][BATCH][];
    for (int b = 0; b < batches.length; b++) {
      for (int i = 0; i < BATCH; i++) {
        batches[b][i] = ordered[(b * BATCH + i) % count];
      }
    }
    jniView = jni.newPinnedView();
    loop = BenchControls.nativeLoop(jni, ordered);
    dst = new byte[size];
    directDst = ByteBuffer.allocateDirect(size);
    directKeys = new ByteBuffer[ordered.length];
    for (int i = 0; i < ordered.length; i++) {
      directKeys[i] = ByteBuffer.allocateDirect(ordered[i].length).put(ordered[i]).flip();
    }
    // Every value read once by each side: all in the block cache.
    for (int i = 0; i < count; i++) {
      ffm.bufferCopy(keyBytes[i], dst, 0, dst.length);
      jni.bufferCopy(keyBytes[i], dst, 0, dst.length);
      rocks.get(rocksRead, keyBytes[i], dst);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    ffmView.close();
    ffmBatch.close();
    jniBatch.close();
    ffm.close();
    jniView.close();
    loop.close();
    jni.close();
    rocksRead.close();
    rocks.close();
    rocksOptions.close();
    rocksCache.close();
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(FfmGetBenchmark::delete);
    }
  }

  private static void delete(Path p) {
    try {
      Files.delete(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private byte[] next() {
    byte[] k = ordered[pos];
    if (++pos == count) {
      pos = 0;
    }
    return k;
  }

  /** The FFM pinned view: a read-only segment whose scope closes at the next get. */
  @Benchmark
  public Object ffmPinnedView() {
    return ffmView.get(next());
  }

  @Benchmark
  public int ffmBufferCopy() {
    return ffm.bufferCopy(next(), dst, 0, dst.length);
  }

  private byte[][] nextBatch() {
    byte[][] b = batches[batchPos];
    if (++batchPos == batches.length) {
      batchPos = 0;
    }
    return b;
  }

  /** The FFM pinned batch of BATCH keys: ns per key. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void ffmPinnedBatch(Blackhole bh) {
    int n = ffmBatch.get(nextBatch());
    for (int i = 0; i < n; i++) {
      bh.consume(ffmBatch.value(i));
    }
  }

  /** pinget's JNI pinned batch of BATCH keys on the same JDK: ns per key. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void jniPinnedBatch(Blackhole bh) {
    int n = jniBatch.get(nextBatch());
    for (int i = 0; i < n; i++) {
      bh.consume(jniBatch.value(i));
    }
  }

  /** pinget's JNI pinned view on the same JDK. */
  @Benchmark
  public Object jniPinnedView() {
    return jniView.get(next());
  }

  @Benchmark
  public int jniBufferCopy() {
    return jni.bufferCopy(next(), dst, 0, dst.length);
  }

  /** LOOP pinned gets made in C++ within one JNI call: the floor both bindings approach. */
  @Benchmark
  @OperationsPerInvocation(LOOP)
  public long nativePinnedLoop() {
    long bytes = loop.pinnedGets(pos, LOOP);
    pos = (pos + LOOP) % count;
    return bytes;
  }

  @Benchmark
  public byte[] rocksdbjniGet() throws RocksDBException {
    return rocks.get(rocksRead, next());
  }

  @Benchmark
  public int rocksdbjniGetDirect() throws RocksDBException {
    ByteBuffer key = directKeys[pos];
    next();
    key.rewind();
    directDst.clear();
    return rocks.get(rocksRead, key, directDst);
  }
}
