// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.rocksjava;

import static io.pinget.TestSupport.bytes;
import static io.pinget.TestSupport.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinget.ColumnFamily;
import io.pinget.CopyStats;
import io.pinget.PinnedBatch;
import io.pinget.PinnedView;
import io.pinget.ReadOptions;
import io.pinget.Snapshot;
import io.pinget.Strategy;
import io.pinget.TestSupport;
import io.pinget.Ways;
import io.pinget.contract.StrategyTable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/** pinget's strategies over a RocksDB that RocksJava opened and writes, in the same JVM. */
class RocksJavaReaderTest {
  private static final int[] SIZES = {0, 1, 127, 4096, 65536, 1 << 20};

  private RocksJavaDb rocks;

  @BeforeEach
  void open() throws RocksDBException {
    rocks = RocksJavaDb.open("reader");
  }

  @AfterEach
  void close() {
    rocks.close();
  }

  private static String text(byte[] key) {
    return new String(key, StandardCharsets.UTF_8);
  }

  @Test
  void everyStrategyAgreesWithRocksJavaByteForByte() throws RocksDBException {
    RocksDB db = rocks.db;
    // Written by RocksJava: puts, a write batch and deletes in both column families; the
    // default family flushed (SST, block cache), cf1 left in the memtable.
    List<byte[]> keys = new ArrayList<>();
    try (WriteBatch batch = new WriteBatch();
        WriteOptions wo = new WriteOptions()) {
      for (int cf = 0; cf < 2; cf++) {
        for (int size : SIZES) {
          byte[] k = bytes("k" + cf + "-" + size);
          db.put(rocks.family(cf), k, value(cf * 100 + size, size));
          keys.add(k);
          byte[] b = bytes("b" + cf + "-" + size);
          batch.put(rocks.family(cf), b, value(cf * 100 + size + 7, size));
          keys.add(b);
        }
        byte[] gone = bytes("gone" + cf);
        db.put(rocks.family(cf), gone, value(1, 10));
        db.delete(rocks.family(cf), gone);
        keys.add(gone);
      }
      db.write(wo, batch);
    }
    keys.add(bytes("never-written"));
    try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flush, rocks.family(0));
    }

    try (RocksJavaReader reader = RocksJavaReader.open(db, rocks.cf1);
        PinnedView view = reader.store().newPinnedView();
        PinnedBatch batch = reader.store().newPinnedBatch()) {
      assertSame(ColumnFamily.DEFAULT, reader.columnFamily(db.getDefaultColumnFamily()));
      assertEquals("cf1", reader.columnFamily(rocks.cf1).name());
      for (int cf = 0; cf < 2; cf++) {
        ReadOptions ro =
            ReadOptions.DEFAULT.withColumnFamily(reader.columnFamily(rocks.family(cf)));
        for (byte[] k : keys) {
          byte[] expected = db.get(rocks.family(cf), k);
          Ways.assertAll(
              expected, Ways.readAll(reader.store(), view, ro, k), text(k) + " in cf " + cf);
        }
        Map<String, byte[][]> multi = Ways.multiReadAll(reader.store(), batch, ro, keys);
        for (Map.Entry<String, byte[][]> way : multi.entrySet()) {
          for (int i = 0; i < keys.size(); i++) {
            byte[] expected = db.get(rocks.family(cf), keys.get(i));
            String what = way.getKey() + " of " + text(keys.get(i)) + " in cf " + cf;
            if (expected == null) {
              assertNull(way.getValue()[i], what);
            } else {
              assertArrayEquals(expected, way.getValue()[i], what);
            }
          }
        }
      }
    }
  }

  /** Counts one call after a warm-up call, on this thread. */
  private static CopyStats count(IntSupplier read) {
    read.getAsInt();
    CopyStats.reset();
    read.getAsInt();
    return CopyStats.current();
  }

  /** The rocksjava_ row of strategy: its copies and allocations at P = p. */
  private static void assertCopies(String where, String strategy, int p, CopyStats got) {
    StrategyTable.Row row = StrategyTable.get("rocksjava", "rocksjava_" + strategy);
    String what = where + " " + row.row();
    assertEquals(row.copies(p), got.valueCopies(), what + ": value copies");
    assertEquals(row.allocations(p), got.allocations(), what + ": allocations");
  }

  @Test
  void copyCountsAreTheStoresForBlockCacheAndMemtableValues() throws RocksDBException {
    RocksDB db = rocks.db;
    int size = 4096;
    byte[] cached = bytes("cached");
    byte[] memtable = bytes("memtable");
    db.put(cached, value(3, size));
    try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flush);
    }
    db.get(cached); // into the block cache
    db.put(memtable, value(4, size));

    try (RocksJavaReader reader = RocksJavaReader.open(db);
        PinnedView view = reader.store().newPinnedView()) {
      byte[] dst = new byte[size];
      ByteBuffer direct = ByteBuffer.allocateDirect(size);
      for (byte[] key : new byte[][] {cached, memtable}) {
        int p = key == memtable ? 1 : 0; // RocksDB's own copy into the PinnableSlice
        String where = text(key);
        // The counts come from docs/strategies.md, the one table.
        Strategy.Into into = new Strategy.Into(view, dst, direct);
        for (Strategy s : Strategy.values()) {
          assertCopies(where, s.token(), p, count(() -> s.read(reader.store(), into, key)));
        }
        view.get(key);
        assertEquals(p == 0, view.pinnedInCache(), where + " pinned in the block cache");
      }
    }
  }

  @Test
  void aSnapshotTakenWithRocksJavaGivesTheSnapshotsView() throws RocksDBException {
    RocksDB db = rocks.db;
    byte[] key = bytes("k");
    byte[] old = value(1, 100);
    db.put(key, old);
    org.rocksdb.Snapshot taken = db.getSnapshot();
    try {
      db.put(key, value(2, 100));
      byte[] added = bytes("added");
      db.put(added, value(3, 100));
      try (RocksJavaReader reader = RocksJavaReader.open(db);
          PinnedView view = reader.store().newPinnedView();
          Snapshot snapshot = reader.snapshot(taken)) {
        ReadOptions then = ReadOptions.DEFAULT.withSnapshot(snapshot);
        Ways.assertAll(old, Ways.readAll(reader.store(), view, then, key), "k as of the snapshot");
        Ways.assertAll(null, Ways.readAll(reader.store(), view, then, added), "added after it");
        Ways.assertAll(
            value(2, 100), Ways.readAll(reader.store(), view, ReadOptions.DEFAULT, key), "k now");
      }
    } finally {
      db.releaseSnapshot(taken);
    }
  }

  /** key i's value at version v: its bytes name both, so a reader can check any version. */
  private static byte[] versioned(int i, int v) {
    byte[] out = value(i * 1_000_003L + v, 200);
    byte[] tag = bytes(i + "/" + v + "/");
    System.arraycopy(tag, 0, out, 0, tag.length);
    return out;
  }

  @Test
  void eightReadersWhileRocksJavaWritesFlushesAndCompacts() throws Exception {
    RocksDB db = rocks.db;
    int keys = 500;
    for (int i = 0; i < keys; i++) {
      db.put(bytes("key" + i), versioned(i, 0));
    }
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(9);
    try (RocksJavaReader reader = RocksJavaReader.open(db)) {
      List<Future<Long>> readers = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        readers.add(
            pool.submit(
                () -> {
                  long reads = 0;
                  byte[] dst = new byte[200];
                  try (PinnedView view = reader.store().newPinnedView()) {
                    while (!stop.get()) {
                      int i = ThreadLocalRandom.current().nextInt(keys);
                      byte[] key = bytes("key" + i);
                      ByteBuffer v = view.get(key);
                      checkVersioned(i, TestSupport.toArray(v));
                      assertEquals(200, reader.store().bufferCopy(key, dst, 0, dst.length));
                      checkVersioned(i, dst);
                      reads += 2;
                    }
                  }
                  return reads;
                }));
      }
      Future<Integer> writer =
          pool.submit(
              () -> {
                int version = 0;
                try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
                  long end = System.nanoTime() + 2_000_000_000L;
                  while (System.nanoTime() < end) {
                    version++;
                    for (int i = 0; i < keys; i++) {
                      db.put(bytes("key" + i), versioned(i, version));
                    }
                    db.flush(flush);
                    if (version % 3 == 0) {
                      db.compactRange();
                    }
                  }
                }
                return version;
              });
      int versions = writer.get();
      stop.set(true);
      long reads = 0;
      for (Future<Long> f : readers) {
        reads += f.get();
      }
      assertTrue(versions > 1, "the writer wrote " + versions + " versions");
      assertTrue(reads > 0, "the readers read");
    } finally {
      pool.shutdownNow();
    }
  }

  private static void checkVersioned(int i, byte[] got) {
    String tag = new String(got, 0, Math.min(got.length, 24), StandardCharsets.UTF_8);
    String prefix = i + "/";
    assertTrue(tag.startsWith(prefix), "value of key" + i + " starts with " + tag);
    int v = Integer.parseInt(tag.substring(prefix.length(), tag.indexOf('/', prefix.length())));
    assertArrayEquals(versioned(i, v), got, "key" + i + " version " + v);
  }

  @Test
  void theDefaultFamilyOfADatabaseOpenedWithoutDescriptors() throws Exception {
    // RocksDB.open(Options, path): RocksJava's default family handle does not own its native
    // object (the database does), so it never reports isOwningHandle().
    java.nio.file.Path dir = TestSupport.newDir("plain-open");
    try (org.rocksdb.Options options = new org.rocksdb.Options().setCreateIfMissing(true);
        RocksDB db = RocksDB.open(options, dir.resolve("db").toString())) {
      db.put(bytes("k"), bytes("v"));
      ColumnFamilyHandle defaults = db.getDefaultColumnFamily();
      try (RocksJavaReader reader = RocksJavaReader.open(db, defaults)) {
        assertSame(ColumnFamily.DEFAULT, reader.columnFamily(defaults));
        assertArrayEquals(bytes("v"), reader.store().pinnableCopy(bytes("k")));
      }
    } finally {
      TestSupport.deleteTree(dir);
    }
  }

  @Test
  void readsMapColumnFamiliesAsGiven() throws RocksDBException {
    RocksDB db = rocks.db;
    db.put(rocks.cf1, bytes("k"), bytes("in cf1"));
    db.put(bytes("k"), bytes("in default"));
    Map<Integer, String> seen = new LinkedHashMap<>();
    try (RocksJavaReader reader = RocksJavaReader.open(db, rocks.cf1)) {
      for (int cf = 0; cf < 2; cf++) {
        ReadOptions ro =
            ReadOptions.DEFAULT.withColumnFamily(reader.columnFamily(rocks.family(cf)));
        seen.put(cf, text(reader.store().pinnableCopy(ro, bytes("k"), 0, 1)));
      }
    }
    assertEquals(Map.of(0, "in default", 1, "in cf1"), seen);
  }

  /**
   * The lent store is one object for the reader's life and reads only (writes and snapshots stay
   * RocksJava's, whose handles it could not check); closing it closes the reader, and RocksJava's
   * database stays open.
   */
  @Test
  void theLentStoreReadsOnlyAndClosesWithTheReader() throws RocksDBException {
    RocksDB db = rocks.db;
    RocksJavaReader reader = RocksJavaReader.open(db, rocks.cf1);
    io.pinget.Store store = reader.store();
    assertSame(store, reader.store());
    ColumnFamily cf1 = reader.columnFamily(rocks.cf1);
    byte[] key = bytes("k");
    db.put(rocks.cf1, key, bytes("v1"));
    io.pinget.WriteOptions inCf1 = io.pinget.WriteOptions.DEFAULT.withColumnFamily(cf1);
    List<org.junit.jupiter.api.function.Executable> writes =
        List.of(
            () -> store.put(key, bytes("v2")),
            () -> store.put(inCf1, key, 0, 1, bytes("v2"), 0, 2),
            () -> store.delete(key),
            () -> store.delete(inCf1, key, 0, 1),
            () -> {
              try (io.pinget.WriteBatch batch = new io.pinget.WriteBatch().put(cf1, key, key)) {
                store.write(io.pinget.WriteOptions.DEFAULT, batch);
              }
            },
            store::snapshot);
    for (org.junit.jupiter.api.function.Executable w : writes) {
      org.junit.jupiter.api.Assertions.assertThrows(UnsupportedOperationException.class, w);
    }
    assertArrayEquals(bytes("v1"), db.get(rocks.cf1, key)); // nothing written
    ReadOptions inCf = ReadOptions.DEFAULT.withColumnFamily(cf1);
    assertArrayEquals(bytes("v1"), store.pinnableCopy(inCf, key, 0, 1));
    store.close();
    assertTrue(reader.isClosed());
    org.junit.jupiter.api.Assertions.assertThrows(
        io.pinget.StoreClosedException.class, () -> reader.columnFamily(rocks.cf1));
    org.junit.jupiter.api.Assertions.assertThrows(
        io.pinget.StoreClosedException.class, () -> store.put(key, key)); // closed comes first
    assertArrayEquals(bytes("v1"), db.get(rocks.cf1, key)); // RocksJava's stays open
  }
}
