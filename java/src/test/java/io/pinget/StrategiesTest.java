// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.MIB;
import static io.pinget.TestSupport.bytes;
import static io.pinget.TestSupport.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every strategy returns the model's bytes, in the memtable and in the block cache. */
class StrategiesTest {
  enum Residency {
    MEMTABLE,
    BLOCK_CACHE
  }

  static final int[] SIZES = {0, 1, 127, 4096, 65536, MIB, 16 * MIB};

  private Path dir;

  @AfterEach
  void deleteDir() {
    TestSupport.deleteTree(dir);
  }

  @ParameterizedTest
  @EnumSource(Residency.class)
  void everyStrategyMatchesTheModel(Residency residency) {
    dir = TestSupport.newDir("strategies");
    Map<ByteBuffer, byte[]> model = new HashMap<>();
    List<byte[]> keys = new ArrayList<>();
    for (int size : SIZES) {
      keys.add(bytes("size-" + size));
      keys.add(
          new byte[] {
            0, (byte) (size >>> 24), (byte) (size >>> 16), (byte) (size >>> 8), (byte) size, 0
          }); // binary, with zero bytes
    }
    byte[] deleted = bytes("deleted");
    byte[] missing = {0};
    try (Store store = Store.open(dir.resolve("db"), TestSupport.bigMemtable());
        PinnedView handle = store.newPinnedView();
        PinnedBatch batch = store.newPinnedBatch()) {
      for (int i = 0; i < keys.size(); i++) {
        byte[] v = value(i, SIZES[i / 2]);
        store.put(keys.get(i), v);
        model.put(ByteBuffer.wrap(keys.get(i)), v);
      }
      store.put(deleted, value(99, 10));
      store.delete(deleted);
      if (residency == Residency.BLOCK_CACHE) {
        store.flush();
        for (byte[] key : keys) {
          assertNotNull(store.stringCopy(key)); // read once: now in the block cache
        }
      }
      for (byte[] key : keys) {
        byte[] expected = model.get(ByteBuffer.wrap(key));
        Ways.assertAll(
            expected,
            Ways.readAll(store, handle, ReadOptions.DEFAULT, key),
            expected.length + " bytes");
        try (PinnedValue pinned = store.pinnedValue(key)) {
          if (expected.length > 0) {
            assertEquals(
                residency == Residency.BLOCK_CACHE,
                pinned.pinnedInCache(),
                "residency of " + expected.length + " bytes");
          }
          assertEquals(expected.length, pinned.size());
        }
      }
      Ways.assertAll(null, Ways.readAll(store, handle, ReadOptions.DEFAULT, deleted), "deleted");
      Ways.assertAll(null, Ways.readAll(store, handle, ReadOptions.DEFAULT, missing), "missing");

      List<byte[]> multiKeys = new ArrayList<>(keys);
      multiKeys.add(2, deleted);
      multiKeys.add(missing);
      Map<String, byte[][]> multi = Ways.multiReadAll(store, batch, ReadOptions.DEFAULT, multiKeys);
      for (Map.Entry<String, byte[][]> e : multi.entrySet()) {
        for (int i = 0; i < multiKeys.size(); i++) {
          byte[] expected = model.get(ByteBuffer.wrap(multiKeys.get(i)));
          if (expected == null) {
            assertNull(e.getValue()[i], e.getKey() + " of key " + i);
          } else {
            assertArrayEquals(expected, e.getValue()[i], e.getKey() + " of key " + i);
          }
        }
      }
    }
  }

  @Test
  void tooSmallDestinationsGetAPrefixAndTheFullSize() {
    dir = TestSupport.newDir("small-dst");
    try (Store store = Store.open(dir.resolve("db"))) {
      byte[] key = bytes("k");
      byte[] v = value(7, 1000);
      store.put(key, v);
      byte[] dst = new byte[10];
      assertEquals(1000, store.bufferCopy(key, dst, 2, 5));
      assertArrayEquals(new byte[] {0, 0, v[0], v[1], v[2], v[3], v[4], 0, 0, 0}, dst);
      ByteBuffer direct = ByteBuffer.allocateDirect(10).position(8);
      assertEquals(1000, store.directCopy(key, direct));
      assertEquals(v[0], direct.get(8));
      assertEquals(v[1], direct.get(9));
      assertEquals(8, direct.position());
      assertEquals(Store.NOT_FOUND, store.bufferCopy(bytes("nope"), dst, 0, 10));
      assertEquals(Store.NOT_FOUND, store.directCopy(bytes("nope"), direct));
    }
  }

  /**
   * Batched copies over 70 keys (three MultiGet chunks): missing keys, and destinations of length
   * 0, shorter than, equal to and longer than the value. Each gets the prefix that fits and the
   * full size; nothing else is written.
   */
  @Test
  void batchedCopiesAcrossChunksFillWhatFits() {
    dir = TestSupport.newDir("batch-chunks");
    final byte pad = 0x5A;
    int n = 70;
    try (Store store = Store.open(dir.resolve("db"))) {
      byte[][] keys = new byte[n][];
      byte[][] values = new byte[n][];
      byte[][] dsts = new byte[n][];
      ByteBuffer[] directs = new ByteBuffer[n];
      for (int i = 0; i < n; i++) {
        keys[i] = bytes("key-" + i);
        int size = 37 * i % 500;
        if (i % 7 != 3) {
          values[i] = value(i, size);
          store.put(keys[i], values[i]);
        }
        int len = i % 4 == 0 ? 0 : i % 4 == 1 ? size / 2 : i % 4 == 2 ? size : size + 9;
        dsts[i] = new byte[len];
        Arrays.fill(dsts[i], pad);
        directs[i] = ByteBuffer.allocateDirect(len + 2);
        for (int j = 0; j < len + 2; j++) {
          directs[i].put(j, pad);
        }
        directs[i].position(1).limit(len + 1);
      }
      store.flush();
      int[] sizes = new int[n];
      int[] directSizes = new int[n];
      store.multiGetBufferCopy(ReadOptions.DEFAULT, keys, dsts, sizes);
      store.multiGetDirectCopy(ReadOptions.DEFAULT, keys, directs, directSizes);
      for (int i = 0; i < n; i++) {
        String what = "key " + i;
        int len = dsts[i].length;
        if (values[i] == null) {
          assertEquals(Store.NOT_FOUND, sizes[i], what);
          assertEquals(Store.NOT_FOUND, directSizes[i], what);
          continue;
        }
        int fits = Math.min(len, values[i].length);
        assertEquals(values[i].length, sizes[i], what);
        assertEquals(values[i].length, directSizes[i], what);
        assertArrayEquals(
            Arrays.copyOf(values[i], fits), Arrays.copyOf(dsts[i], fits), what + " prefix");
        assertEquals(1, directs[i].position(), what);
        for (int j = 0; j < len + 2; j++) {
          byte expected = j >= 1 && j <= fits ? values[i][j - 1] : pad;
          assertEquals(expected, directs[i].duplicate().clear().get(j), what + " direct byte " + j);
        }
        for (int j = fits; j < len; j++) {
          assertEquals(pad, dsts[i][j], what + " byte " + j + " past the value");
        }
      }

      // A null destination anywhere is an argument error: refused before any key is read, every
      // size -1 (docs/misuse.md).
      Arrays.fill(sizes, 12345);
      dsts[40] = null;
      assertThrows(
          NullPointerException.class,
          () -> store.multiGetBufferCopy(ReadOptions.DEFAULT, keys, dsts, sizes));
      for (int i = 0; i < n; i++) {
        assertEquals(Store.NOT_FOUND, sizes[i], "key " + i + " was not read");
      }
    }
  }

  @Test
  void snapshotsReadTheirVersionEveryWay() {
    dir = TestSupport.newDir("snapshot");
    try (Store store = Store.open(dir.resolve("db"));
        PinnedView handle = store.newPinnedView();
        PinnedBatch batch = store.newPinnedBatch()) {
      byte[] key = bytes("k");
      byte[] old = value(1, 300);
      byte[] latest = value(2, 400);
      store.put(key, old);
      try (Snapshot snapshot = store.snapshot()) {
        store.put(key, latest);
        store.flush();
        ReadOptions at = ReadOptions.DEFAULT.withSnapshot(snapshot);
        assertEquals(snapshot, at.snapshot());
        Ways.assertAll(old, Ways.readAll(store, handle, at, key), "snapshot");
        Ways.assertAll(latest, Ways.readAll(store, handle, ReadOptions.DEFAULT, key), "latest");
        for (byte[][] results : Ways.multiReadAll(store, batch, at, List.of(key)).values()) {
          assertArrayEquals(old, results[0]);
        }
      }
    }
  }

  @Test
  void columnFamiliesWriteBatchesAndDirectWrites() {
    dir = TestSupport.newDir("families");
    Options options = new Options().columnFamilies("a", "b").compression(Compression.LZ4);
    try (Store store = Store.open(dir.resolve("db"), options);
        PinnedView handle = store.newPinnedView()) {
      ColumnFamily a = store.columnFamily("a");
      assertSame(ColumnFamily.DEFAULT, store.columnFamily("default"));
      assertEquals("a", a.name());
      assertEquals("b", store.columnFamily("b").name());
      assertThrows(IllegalArgumentException.class, () -> store.columnFamily("nope"));
      ReadOptions inA = ReadOptions.DEFAULT.withColumnFamily(a);
      assertSame(a, inA.columnFamily());

      byte[] key = bytes("key");
      try (WriteBatch batch = new WriteBatch()) {
        batch.put(a, key, 0, 3, value(1, 50), 0, 50).put(bytes("other"), value(2, 60));
        batch.put(a, TestSupport.direct(bytes("dk")), TestSupport.direct(value(3, 70)));
        batch.delete(bytes("other")).delete(a, TestSupport.direct(bytes("none")));
        assertEquals(5, batch.count());
        store.write(WriteOptions.DEFAULT.withSync(true), batch);
        batch.clear();
        assertEquals(0, batch.count());
      }
      Ways.assertAll(value(1, 50), Ways.readAll(store, handle, inA, key), "cf a");
      Ways.assertAll(null, Ways.readAll(store, handle, ReadOptions.DEFAULT, key), "default");
      Ways.assertAll(null, Ways.readAll(store, handle, ReadOptions.DEFAULT, bytes("other")), "x");
      Ways.assertAll(value(3, 70), Ways.readAll(store, handle, inA, bytes("dk")), "direct");

      WriteOptions noWal = WriteOptions.DEFAULT.withDisableWal(true).withColumnFamily(a);
      assertTrue(noWal.disableWal());
      assertFalse(noWal.sync());
      assertSame(a, noWal.columnFamily());
      store.put(noWal, TestSupport.direct(bytes("d2")), TestSupport.direct(value(4, 80)));
      store.flush(a);
      store.compact(a);
      ReadOptions cold = inA.withFillCache(false).withVerifyChecksums(false);
      assertFalse(cold.fillCache());
      assertFalse(cold.verifyChecksums());
      Ways.assertAll(value(4, 80), Ways.readAll(store, handle, cold, bytes("d2")), "no cache");
      store.delete(noWal, TestSupport.direct(bytes("d2")));
      store.delete(WriteOptions.DEFAULT.withColumnFamily(a), bytes("xkeyx"), 1, 3);
      Ways.assertAll(null, Ways.readAll(store, handle, inA, bytes("d2")), "deleted");
      Ways.assertAll(null, Ways.readAll(store, handle, inA, key), "deleted by range");
      assertNotNull(store.property(a, "rocksdb.estimate-num-keys"));
      assertNull(store.property("rocksdb.no-such-property"));
    }
  }

  @Test
  void reopensWithItsDataAndReportsItsVersion() {
    dir = TestSupport.newDir("reopen");
    assertEquals(System.getProperty("pinget.test.engine"), Store.rocksdbVersion());
    Store first = Store.open(dir.resolve("db"), new Options().compression(Compression.ZSTD));
    first.put(bytes("k"), value(5, 5));
    assertFalse(first.isClosed());
    first.close();
    assertTrue(first.isClosed());
    first.close(); // idempotent
    try (Store store =
        Store.open(
            dir.resolve("db"),
            new Options()
                .createIfMissing(false)
                .blockCacheBytes(0)
                .blockSize(1024)
                .compression(Compression.NONE))) {
      assertArrayEquals(value(5, 5), store.stringCopy(bytes("k")));
      try (PinnedValue v = store.pinnedValue(bytes("k"))) {
        assertFalse(v.pinnedInCache(), "no block cache: P = 1");
      }
    }
  }
}
