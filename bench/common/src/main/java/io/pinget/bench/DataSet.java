// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.Compression;
import io.pinget.Options;
import io.pinget.Store;
import io.pinget.WriteOptions;
import io.pinget.bench.decode.Shape;
import io.pinget.rocksjava.RocksJavaReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * One data shape loaded twice, into a pinget Store and into a RocksDB opened through the published
 * rocksdbjni binding, with the same options: no compression, 4 KiB blocks, a block cache and
 * memtable large enough for every value. Every benchmark suite's data (JNI, FFM, decode) is one of
 * these. Values are random bytes (incompressible), or a decode {@link Shape}'s values; keys "key" +
 * 12 digits as in the native suite. block_cache residency: flushed, compacted and read once;
 * memtable residency: never flushed; file residency: as block_cache, but with a block cache of 1/16
 * of the data, so that most gets read their block from the SST file (held by the OS page cache).
 */
public final class DataSet implements AutoCloseable {
  public static final String BLOCK_CACHE = "block_cache";
  public static final String MEMTABLE = "memtable";
  static final String FILE = "file";

  public final byte[][] keys;
  public final ByteBuffer[] directKeys;
  public final int[] order; // a fixed random visiting order
  public final Store store;
  public final RocksDB rocks;

  /** The decode shape of the values; null: random bytes. */
  public final Shape shape;

  /** pinget's strategies over rocks itself: the same instance as the rocksdbjni rows. */
  public final RocksJavaReader reader;

  private final org.rocksdb.Options rocksOptions;
  private final Cache rocksCache;
  private final Path dir;
  private final boolean shared;

  /**
   * With -Dpinget.bench.data=DIR (bench/run sets it), a block_cache data set is built once under
   * DIR and later forks reopen it and only warm the caches; bench/run deletes DIR. Otherwise each
   * fork builds its own in a temporary folder and deletes it. Memtable data sets are always built.
   * A file data set is the block_cache one's files, opened with the smaller cache.
   */
  private static final String SHARED_DATA = System.getProperty("pinget.bench.data");

  /**
   * One data set stays under 4 GiB, as in the native suite: the key count is capped. The file
   * residency, whose block cache is 1/16 of the data, allows 8 GiB (100,000 values of 64 KiB).
   */
  static final long MAX_DATA_BYTES = 4L << 30;

  static final long MAX_FILE_DATA_BYTES = 8L << 30;

  /** Keys of this many bytes are "key" and 12 digits; other lengths are digits alone. */
  static final int DEFAULT_KEY_BYTES = 15;

  public DataSet(int requestedKeys, int valueSize, String residency) {
    this(requestedKeys, valueSize, residency, Lookup.DEFAULT, DEFAULT_KEY_BYTES);
  }

  /** requestedKeys of shape's values. */
  public DataSet(int requestedKeys, Shape shape, String residency) {
    this(
        requestedKeys,
        shape.size,
        residency,
        Lookup.DEFAULT,
        DEFAULT_KEY_BYTES,
        FilePath.DEFAULT,
        shape);
  }

  DataSet(int requestedKeys, int valueSize, String residency, Lookup lookup) {
    this(requestedKeys, valueSize, residency, lookup, DEFAULT_KEY_BYTES);
  }

  DataSet(int requestedKeys, int valueSize, String residency, Lookup lookup, int keyBytes) {
    this(requestedKeys, valueSize, residency, lookup, keyBytes, FilePath.DEFAULT, null);
  }

  /** path applies to the file residency only; shape, if not null, gives the values. */
  DataSet(
      int requestedKeys,
      int valueSize,
      String residency,
      Lookup lookup,
      int keyBytes,
      FilePath path,
      Shape shape) {
    this.shape = shape;
    boolean memtable = MEMTABLE.equals(residency);
    boolean file = FILE.equals(residency);
    long maxBytes = file ? MAX_FILE_DATA_BYTES : MAX_DATA_BYTES;
    int keyCount = (int) Math.min(requestedKeys, maxBytes / Math.max(1, valueSize));
    if (keyBytes < 8 || keyBytes > 128) {
      throw new IllegalArgumentException("keyBytes " + keyBytes + ": 8 to 128");
    }
    if (!memtable && !file && !BLOCK_CACHE.equals(residency)) {
      throw new IllegalArgumentException("residency " + residency);
    }
    long data = (long) keyCount * (valueSize + 32);
    if (!file) {
      path = FilePath.DEFAULT;
    }
    long cacheBytes = file ? data / path.cacheDivisor : cacheBytes(data);
    long writeBuffer = memtable ? 2 * data + (64L << 20) : 64L << 20;
    shared = SHARED_DATA != null && !memtable;
    boolean built;
    try {
      if (shared) {
        String files = lookup.files().equals(Lookup.DEFAULT.files()) ? "" : "-" + lookup.files();
        String keyShape = keyBytes == DEFAULT_KEY_BYTES ? "" : "-key" + keyBytes;
        String values = shape == null ? "" : "-" + shape.name().toLowerCase(Locale.ROOT);
        dir =
            Path.of(
                SHARED_DATA,
                "keys" + keyCount + "-size" + valueSize + keyShape + values + files + path.files());
        built = Files.exists(dir.resolve(COMPLETE));
        if (!built) {
          deleteTree(dir); // a fork that died while building left it half done
        }
        Files.createDirectories(dir);
      } else {
        dir = Files.createTempDirectory("pinget-jmh");
        built = false;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    keys = new byte[keyCount][];
    directKeys = new ByteBuffer[keyCount];
    for (int i = 0; i < keyCount; i++) {
      String key =
          keyBytes == DEFAULT_KEY_BYTES
              ? String.format("key%012d", i)
              : String.format("%0" + keyBytes + "d", i);
      keys[i] = key.getBytes(StandardCharsets.US_ASCII);
      directKeys[i] = ByteBuffer.allocateDirect(keys[i].length).put(keys[i]).flip();
    }
    order = new int[keyCount];
    for (int i = 0; i < keyCount; i++) {
      order[i] = i;
    }
    Random shuffle = new Random(42);
    for (int i = keyCount - 1; i > 0; i--) {
      int j = shuffle.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }

    store =
        Store.open(
            dir.resolve("pinget"),
            path.apply(lookup.apply(new Options()))
                .blockCacheBytes(cacheBytes)
                .writeBufferBytes(writeBuffer)
                .compression(Compression.NONE));
    RocksDB.loadLibrary();
    rocksCache = lookup.newCache(cacheBytes);
    rocksOptions =
        path.apply(new org.rocksdb.Options())
            .setCreateIfMissing(true)
            .setWriteBufferSize(writeBuffer)
            .setCompressionType(CompressionType.NO_COMPRESSION)
            .setTableFormatConfig(
                lookup.apply(
                    new BlockBasedTableConfig()
                        .setBlockCache(rocksCache)
                        .setBlockSize(path.blockSize)));
    try {
      rocks = RocksDB.open(rocksOptions, dir.resolve("rocksdbjni").toString());
      reader = RocksJavaReader.open(rocks);
      if (!built) {
        load(keyCount, valueSize, memtable);
      }
      for (byte[] key : keys) { // fills both block caches
        if (store.stringCopy(key) == null || rocks.get(key) == null) {
          throw new IllegalStateException("a loaded key is missing");
        }
      }
      if (!memtable && !file) {
        long floor = (long) keyCount * valueSize;
        checkResident("pinget", Long.parseLong(store.property(CACHE_USAGE)), floor);
        checkResident("rocksdbjni", rocks.getLongProperty(CACHE_USAGE), floor);
      }
      byte[] last = valueOf(keyCount - 1, valueSize);
      if (!Arrays.equals(store.stringCopy(keys[keyCount - 1]), last)
          || !Arrays.equals(rocks.get(keys[keyCount - 1]), last)
          || !Arrays.equals(reader.store().pinnableCopy(keys[keyCount - 1]), last)) {
        throw new IllegalStateException("a data set holds other values than this shape's");
      }
    } catch (RocksDBException | IOException e) {
      close();
      throw new IllegalStateException(e);
    }
  }

  private static final String COMPLETE = "complete";
  private static final String CACHE_USAGE = "rocksdb.block-cache-usage";

  /**
   * The block cache's capacity for {@code data} bytes. An LRU cache is split into up to 64 shards
   * of equal capacity and a block goes to the shard its hash picks, so the cache fills unevenly: at
   * 1.5 times the data, 1,000 values of 1 MiB overflowed a shard and a few percent of gets read
   * their block from the file. At 3 times the data every shard can take about three times its
   * expected share of the blocks.
   */
  static long cacheBytes(long data) {
    return 3 * data + (64L << 20);
  }

  /**
   * Refuses a data set whose block cache lost blocks while it was warmed. If every block is cached,
   * the cache holds at least the bytes of every value; an eviction of a block larger than the keys
   * and block overheads of the whole set (about 100 bytes per key) brings it below that. Smaller
   * evictions are not caught, which 3 times the capacity makes unlikely.
   */
  private static void checkResident(String which, long usage, long floor) {
    if (usage < floor) {
      throw new IllegalStateException(
          which
              + "'s block cache holds "
              + usage
              + " bytes after warming, less than the "
              + floor
              + " bytes of its values: blocks were evicted");
    }
  }

  private void load(int keyCount, int valueSize, boolean memtable)
      throws RocksDBException, IOException {
    WriteOptions noWal = WriteOptions.DEFAULT.withDisableWal(true);
    try (org.rocksdb.WriteOptions rocksNoWal = new org.rocksdb.WriteOptions()) {
      rocksNoWal.setDisableWAL(true);
      for (int i = 0; i < keyCount; i++) {
        byte[] value = valueOf(i, valueSize);
        store.put(noWal, keys[i], 0, keys[i].length, value, 0, value.length);
        rocks.put(rocksNoWal, keys[i], value);
      }
    }
    if (!memtable) {
      store.flush();
      store.compact();
      try (FlushOptions fo = new FlushOptions().setWaitForFlush(true)) {
        rocks.flush(fo);
      }
      rocks.compactRange();
    }
    if (shared) {
      Files.createFile(dir.resolve(COMPLETE));
    }
  }

  private byte[] valueOf(int i, int size) {
    return shape == null ? value(i, size) : shape.value(i);
  }

  static byte[] value(int i, int size) {
    byte[] v = new byte[size];
    new Random(i).nextBytes(v);
    return v;
  }

  @Override
  public void close() {
    store.close();
    if (reader != null) {
      reader.close(); // before the RocksDB it reads
    }
    if (rocks != null) {
      rocks.close();
    }
    rocksOptions.close();
    rocksCache.close();
    if (!shared) {
      try {
        deleteTree(dir);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Deletes root and everything under it, if it exists. */
  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
