// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.Compression;
import io.pinget.Options;
import io.pinget.PinnedView;
import io.pinget.ReadOptions;
import io.pinget.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The pinned view with and without ReadOptions.pinMemtable, beside rocksdbjni's get, across LSM
 * shapes. Keys are "key" + 12 digits of even numbers; a miss asks for an odd number between two of
 * them. Shapes (the {@code lsm} parameter), each loaded alike into a pinget Store and a rocksdbjni
 * RocksDB (no compression, 4 KiB blocks, a 10-bit Bloom filter, a block cache holding every value):
 *
 * <ul>
 *   <li>{@code memtable}: every key in the memtable (never flushed).
 *   <li>{@code one_sst}: every key flushed into one L0 file, then 1% of them rewritten (same bytes)
 *       into the memtable.
 *   <li>{@code levels}: half the keys compacted into the last level, the rest in three L0 files,
 *       then 1% rewritten into the memtable.
 * </ul>
 *
 * A store holds at most 1 GiB of values (64 KiB values: 16,384 keys instead of 100,000), as both
 * stores and two copies of the memtable shape must fit this machine's memory together. Rows are
 * named {@code <method>@<lookup>@<lsm>} in the report (e.g. {@code pinned_view@hit@memtable}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MemtableBenchmark {
  static final long MAX_DATA_BYTES = 1L << 30;

  private static final ReadOptions PIN = ReadOptions.DEFAULT.withPinMemtable(true);

  @Param("100000")
  public int keys;

  @Param({"128", "4096", "65536"})
  public int valueSize;

  @Param({"memtable", "one_sst", "levels"})
  public String lsm;

  @Param({"hit", "miss"})
  public String lookup;

  private Path dir;
  private Store store;
  private RocksDB rocks;
  private org.rocksdb.Options rocksOptions;
  private LRUCache rocksCache;
  private PinnedView view;
  private byte[][] reads; // the keys read, in a fixed random order
  private int pos;

  @Setup(Level.Trial)
  public void setUp() throws IOException, RocksDBException {
    int n = (int) Math.min(keys, MAX_DATA_BYTES / valueSize);
    boolean memtable = "memtable".equals(lsm);
    if (!memtable && !"one_sst".equals(lsm) && !"levels".equals(lsm)) {
      throw new IllegalArgumentException("lsm " + lsm);
    }
    if (!"hit".equals(lookup) && !"miss".equals(lookup)) {
      throw new IllegalArgumentException("lookup " + lookup);
    }
    long data = (long) n * (valueSize + 32);
    long writeBuffer = memtable ? 2 * data + (64L << 20) : Math.max(64L << 20, 2 * data);
    long cache = DataSet.cacheBytes(data);
    dir = Files.createTempDirectory("pinget-memtable");
    store =
        Store.open(
            dir.resolve("pinget"),
            new Options()
                .blockCacheBytes(cache)
                .writeBufferBytes(writeBuffer)
                .bloomBitsPerKey(10)
                .compression(Compression.NONE));
    RocksDB.loadLibrary();
    rocksCache = new LRUCache(cache);
    rocksOptions =
        new org.rocksdb.Options()
            .setCreateIfMissing(true)
            .setWriteBufferSize(writeBuffer)
            .setCompressionType(CompressionType.NO_COMPRESSION)
            .setTableFormatConfig(
                new BlockBasedTableConfig()
                    .setBlockCache(rocksCache)
                    .setFilterPolicy(new BloomFilter(10, false))
                    .setBlockSize(4096));
    rocks = RocksDB.open(rocksOptions, dir.resolve("rocksdbjni").toString());
    load(n);
    view = store.newPinnedView();

    reads = new byte[n][];
    Random random = new Random(42);
    for (int i = 0; i < n; i++) {
      reads[i] = key(2 * i + ("hit".equals(lookup) ? 0 : 1));
    }
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      byte[] t = reads[i];
      reads[i] = reads[j];
      reads[j] = t;
    }
    for (byte[] k : reads) { // fills both block caches; checks both stores answer alike
      ByteBuffer v = view.get(k);
      byte[] r = rocks.get(k);
      if (v == null ? r != null : !Arrays.equals(r, toArray(v))) {
        throw new IllegalStateException("the stores differ at " + new String(k));
      }
      if ((r == null) == "hit".equals(lookup)) {
        throw new IllegalStateException("a " + lookup + " found " + (r != null));
      }
    }
  }

  /** Writes the shape's keys into both stores, flushing and compacting alike. */
  private void load(int n) throws RocksDBException {
    int bottom = "levels".equals(lsm) ? n / 2 : n;
    for (int i = 0; i < n; i++) {
      put(i);
      if (i + 1 == bottom && !"memtable".equals(lsm)) {
        flushBoth(); // one_sst: one flush writes one file, whatever its size
        if ("levels".equals(lsm)) {
          store.compact();
          rocks.compactRange();
        }
      } else if (i + 1 > bottom && (i + 1 - bottom) % ((n - bottom + 2) / 3) == 0) {
        flushBoth(); // the levels shape's L0 files
      }
    }
    if (!"memtable".equals(lsm)) {
      if ("levels".equals(lsm)) {
        flushBoth();
      }
      for (int i = 0; i < n; i += 100) {
        put(i); // recent writes: 1% rewritten, same bytes, into the memtable
      }
    }
  }

  private void put(int i) throws RocksDBException {
    byte[] k = key(2 * i);
    byte[] v = DataSet.value(i, valueSize);
    store.put(k, v);
    rocks.put(k, v);
  }

  private void flushBoth() throws RocksDBException {
    store.flush();
    try (FlushOptions f = new FlushOptions().setWaitForFlush(true)) {
      rocks.flush(f);
    }
  }

  private static byte[] key(int i) {
    return String.format("key%012d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] toArray(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.duplicate().get(a);
    return a;
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    view.close();
    store.close();
    rocks.close();
    rocksOptions.close();
    rocksCache.close();
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private byte[] next() {
    byte[] k = reads[pos];
    if (++pos == reads.length) {
      pos = 0;
    }
    return k;
  }

  /** Today's pinned view: a memtable hit is copied once into the pin's own buffer (P = 1). */
  @Benchmark
  public ByteBuffer pinnedView(CopyCounters c) {
    return view.get(next());
  }

  /** The pinned view with pinMemtable: a memtable hit lent in place (0 copies). */
  @Benchmark
  public ByteBuffer pinnedViewPinMemtable(CopyCounters c) {
    byte[] k = next();
    return view.get(PIN, k, 0, k.length);
  }

  @Benchmark
  public byte[] rocksdbjniGet() throws RocksDBException {
    return rocks.get(next());
  }
}
