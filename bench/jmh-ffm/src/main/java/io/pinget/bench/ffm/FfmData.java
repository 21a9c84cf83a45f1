// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.ffm;

import io.pinget.Compression;
import io.pinget.Options;
import io.pinget.Store;
import io.pinget.bench.NativeControls;
import io.pinget.ffm.FfmStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The FFM suite's data: the same keys and values in two databases of one JVM, pinget's (read
 * through its JNI door and, over the same Store, its FFM door) and rocksdbjni's, with the same
 * options (no compression, 4 KiB blocks, a block cache that holds it all) and read once before
 * measuring.
 *
 * <p>Shape {@code keys}: {@code keys} keys of {@code valueSize} bytes, visited in a fixed shuffled
 * order. Shape {@code hot_key}: one key with a 26-byte value, read again and again, where the
 * crossing and not the lookup is the cost (rocksdb-ffm's published configuration); valueSize is
 * then ignored.
 */
final class FfmData implements AutoCloseable {
  /** Gets per call of the native loops. */
  static final int LOOP = 64;

  static final int HOT_VALUE_BYTES = 26;

  final int count; // keys, and positions of the visiting order
  final int valueSize;
  final byte[][] sorted; // the keys in key order (CursorScans' seek keys)
  final byte[][] ordered; // the visiting order, then its first LOOP keys again
  final ByteBuffer[] directKeys; // as ordered
  final FfmStore ffm;
  final Store jni;
  final RocksDB rocks;
  final org.rocksdb.ReadOptions rocksRead;
  final NativeControls.KeyLoop loop;

  private final Path dir;
  private final LRUCache rocksCache;
  private final org.rocksdb.Options rocksOptions;

  FfmData(String shape, int keys, int requestedSize) throws IOException, RocksDBException {
    boolean hot = "hot_key".equals(shape);
    if (!hot && !"keys".equals(shape)) {
      throw new IllegalArgumentException("shape " + shape + ": keys or hot_key");
    }
    count = hot ? 1 : keys;
    valueSize = hot ? HOT_VALUE_BYTES : requestedSize;
    byte[][] keyBytes = new byte[count][];
    byte[][] values = new byte[count][];
    Random random = new Random(42);
    for (int i = 0; i < count; i++) {
      keyBytes[i] = String.format("key%012d", i).getBytes(StandardCharsets.US_ASCII);
      values[i] = new byte[valueSize];
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
    sorted = keyBytes;
    ordered = new byte[count + LOOP][];
    directKeys = new ByteBuffer[ordered.length];
    for (int i = 0; i < ordered.length; i++) {
      ordered[i] = keyBytes[order[i % count]];
      directKeys[i] = ByteBuffer.allocateDirect(ordered[i].length).put(ordered[i]).flip();
    }

    long cacheBytes = 2L * count * (valueSize + 64) + (64L << 20);
    dir = Files.createTempDirectory("pinget-ffm-bench");
    jni =
        Store.open(
            dir.resolve("jni"),
            new Options()
                .compression(Compression.NONE)
                .blockSize(4096)
                .blockCacheBytes(cacheBytes));
    ffm = FfmStore.over(jni);
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
      jni.put(keyBytes[i], values[i]);
      rocks.put(keyBytes[i], values[i]);
    }
    jni.flush();
    jni.compact();
    rocks.compactRange();
    rocksRead = new org.rocksdb.ReadOptions();
    loop = NativeControls.keyLoop(jni, ordered);
    // Every value read once by each side: all in the block cache.
    byte[] dst = new byte[valueSize];
    for (int i = 0; i < count; i++) {
      jni.bufferCopy(keyBytes[i], dst, 0, dst.length);
      rocks.get(rocksRead, keyBytes[i], dst);
    }
  }

  /**
   * The visiting order cut into batches of {@code batch} keys (at least one batch: a hot key's
   * batch is the one key, batch times).
   */
  byte[][][] batches(int batch) {
    byte[][][] batches = new byte[Math.max(1, count / batch)][batch][];
    for (int b = 0; b < batches.length; b++) {
      for (int i = 0; i < batch; i++) {
        batches[b][i] = ordered[(b * batch + i) % count];
      }
    }
    return batches;
  }

  @Override
  public void close() throws IOException {
    loop.close();
    jni.close(); // and so ffm
    rocksRead.close();
    rocks.close();
    rocksOptions.close();
    rocksCache.close();
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(FfmData::delete);
    }
  }

  private static void delete(Path p) {
    try {
      Files.delete(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
