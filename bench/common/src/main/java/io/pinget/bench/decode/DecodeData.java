// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.decode;

import io.pinget.Compression;
import io.pinget.Options;
import io.pinget.Store;
import io.pinget.WriteOptions;
import io.pinget.rocksjava.RocksJavaReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * One shape's values loaded into a pinget Store and into a RocksDB opened through rocksdbjni, with
 * the options of the get benchmarks' DataSet: no compression, 4 KiB blocks, a block cache and a
 * memtable that hold everything. block_cache: flushed, compacted and read once; memtable: never
 * flushed. Keys are "key" and 12 digits, visited in a fixed shuffled order; {@link #reader} reads
 * {@link #rocks} itself through pinget.
 */
public final class DecodeData implements AutoCloseable {
  public final Shape shape;
  public final byte[][] keys;
  public final ByteBuffer[] directKeys;
  public final int[] order;
  public final Store store;
  public final RocksDB rocks;
  public final RocksJavaReader reader;

  private final org.rocksdb.Options rocksOptions;
  private final LRUCache rocksCache;
  private final Path dir;

  public DecodeData(Shape shape, int keyCount, String residency) {
    boolean memtable = "memtable".equals(residency);
    if (!memtable && !"block_cache".equals(residency)) {
      throw new IllegalArgumentException("residency " + residency + ": block_cache or memtable");
    }
    this.shape = shape;
    keys = new byte[keyCount][];
    directKeys = new ByteBuffer[keyCount];
    for (int i = 0; i < keyCount; i++) {
      keys[i] = String.format("key%012d", i).getBytes(StandardCharsets.US_ASCII);
      directKeys[i] = ByteBuffer.allocateDirect(keys[i].length).put(keys[i]).flip();
    }
    order = shuffled(keyCount);
    long data = (long) keyCount * (shape.size + 32);
    long cacheBytes = 3 * data + (64L << 20);
    long writeBuffer = memtable ? 2 * data + (64L << 20) : 64L << 20;
    try {
      dir = Files.createTempDirectory("pinget-decode");
      store =
          Store.open(
              dir.resolve("pinget"),
              new Options()
                  .blockCacheBytes(cacheBytes)
                  .writeBufferBytes(writeBuffer)
                  .compression(Compression.NONE));
      RocksDB.loadLibrary();
      rocksCache = new LRUCache(cacheBytes);
      rocksOptions =
          new org.rocksdb.Options()
              .setCreateIfMissing(true)
              .setWriteBufferSize(writeBuffer)
              .setCompressionType(CompressionType.NO_COMPRESSION)
              .setTableFormatConfig(
                  new BlockBasedTableConfig().setBlockCache(rocksCache).setBlockSize(4096));
      rocks = RocksDB.open(rocksOptions, dir.resolve("rocksdbjni").toString());
      reader = RocksJavaReader.open(rocks);
      load(memtable);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (RocksDBException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A fixed random visiting order of n keys. */
  public static int[] shuffled(int n) {
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Random shuffle = new Random(42);
    for (int i = n - 1; i > 0; i--) {
      int j = shuffle.nextInt(i + 1);
      int t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    return order;
  }

  private void load(boolean memtable) throws RocksDBException {
    WriteOptions noWal = WriteOptions.DEFAULT.withDisableWal(true);
    try (org.rocksdb.WriteOptions rocksNoWal = new org.rocksdb.WriteOptions()) {
      rocksNoWal.setDisableWAL(true);
      for (int i = 0; i < keys.length; i++) {
        byte[] value = shape.value(i);
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
    for (int i = 0; i < keys.length; i++) { // fills both block caches, checks every value
      byte[] want = shape.value(i);
      if (!Arrays.equals(store.pinnableCopy(keys[i]), want)
          || !Arrays.equals(rocks.get(keys[i]), want)) {
        throw new IllegalStateException("value " + i + " did not load");
      }
    }
  }

  @Override
  public void close() {
    reader.close(); // before the RocksDB it reads
    rocks.close();
    rocksOptions.close();
    rocksCache.close();
    store.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
