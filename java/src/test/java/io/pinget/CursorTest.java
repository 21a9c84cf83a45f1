// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.bytes;
import static io.pinget.TestSupport.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinget.contract.StrategyTable;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Cursor from Java: scans, copies, views' lifetimes, allocation, threads, the Cleaner. */
class CursorTest {
  private Path dir;

  @AfterEach
  void deleteDir() {
    TestSupport.deleteTree(dir);
  }

  static byte[] key(int i) {
    return bytes(String.format("k%05d", i));
  }

  /** n entries of size bytes, flushed into the block cache or left in the memtable. */
  private Store fill(StrategiesTest.Residency residency, int n, int size) {
    dir = TestSupport.newDir("cursor");
    Store store = Store.open(dir.resolve("db"), TestSupport.bigMemtable().columnFamilies("cf"));
    for (int i = 0; i < n; i++) {
      store.put(key(i), value(i, size));
    }
    if (residency == StrategiesTest.Residency.BLOCK_CACHE) {
      store.flush();
      try (Cursor warm = store.newCursor()) {
        warm.seekToFirst();
        warm.forEach((k, v) -> true);
      }
    }
    return store;
  }

  private static List<byte[]> drainKeys(Cursor c, int batch, boolean forward) {
    List<byte[]> out = new ArrayList<>();
    for (int n = forward ? c.next(batch) : c.prev(batch);
        n > 0;
        n = forward ? c.next(batch) : c.prev(batch)) {
      for (int i = 0; i < n; i++) {
        out.add(TestSupport.toArray(c.key(i)));
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(StrategiesTest.Residency.class)
  void scansBothWaysWithoutValueCopiesOrAllocation(StrategiesTest.Residency residency) {
    int n = 5000;
    try (Store store = fill(residency, n, 128);
        Cursor c = store.newCursor()) {
      c.seekToFirst();
      CopyStats.reset();
      int seen = 0;
      for (int got = c.next(64); got > 0; got = c.next(64)) {
        for (int i = 0; i < got; i++, seen++) {
          assertArrayEquals(key(seen), TestSupport.toArray(c.key(i)));
          assertArrayEquals(value(seen, 128), TestSupport.toArray(c.value(i)));
          assertTrue(c.key(i).isReadOnly() && c.value(i).isReadOnly());
        }
      }
      assertEquals(n, seen);
      CopyStats stats = CopyStats.current();
      int p = residency == StrategiesTest.Residency.MEMTABLE ? 1 : 0;
      assertEquals(
          n * StrategyTable.get("jni", "cursor").copies(p),
          stats.valueCopies(),
          "values are read in place");
      assertEquals(n, stats.keyCopies(), "one key copy per entry");
      assertEquals(0, stats.allocations());

      c.seekToLast();
      List<byte[]> backward = drainKeys(c, 7, false);
      assertEquals(n, backward.size());
      assertArrayEquals(key(n - 1), backward.get(0));
      assertArrayEquals(key(0), backward.get(n - 1));

      // Warm: a whole scan allocates nothing per entry (the views are reused).
      com.sun.management.ThreadMXBean threads =
          (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
      long[] sink = {0};
      Cursor.EntryVisitor visitor =
          (k, v) -> {
            sink[0] += k.get(0) + v.remaining();
            return true;
          };
      c.seekToFirst();
      c.forEach(visitor);
      long before = threads.getCurrentThreadAllocatedBytes();
      for (int r = 0; r < 4; r++) {
        c.seekToFirst();
        assertEquals(n, c.forEach(visitor));
      }
      long perEntry = (threads.getCurrentThreadAllocatedBytes() - before) / (4L * n);
      assertTrue(perEntry < 1, perEntry + " bytes allocated per entry");
      assertTrue(sink[0] > 0);
    }
  }

  @Test
  void viewsAreInvalidAfterTheirBatchAndCopiesOutlastThem() {
    try (Store store = fill(StrategiesTest.Residency.BLOCK_CACHE, 100, 300);
        Cursor c = store.newCursor(CursorOptions.DEFAULT.withBounds(key(10), key(15)))) {
      c.seekToFirst();
      assertEquals(4, c.next(4));
      ByteBuffer first = c.value(3);
      assertEquals(300, first.remaining());
      assertThrows(ReadOnlyBufferException.class, () -> first.put(0, (byte) 1));
      byte[] kept = new byte[310];
      assertEquals(300, c.copyValue(3, kept, 10, 300));
      assertArrayEquals(value(13, 300), java.util.Arrays.copyOfRange(kept, 10, 310));
      byte[] keyCopy = new byte[2];
      assertEquals(6, c.copyKey(0, keyCopy, 0, 2), "the full size, a prefix copied");
      assertEquals(1, c.next(4)); // k00014: the rest of the range
      TestSupport.assertStale(first); // view 3 showed an entry of the last batch
      assertThrows(IndexOutOfBoundsException.class, () -> c.value(1));
      ByteBuffer last = c.value(0);
      assertEquals(0, c.next(4));
      TestSupport.assertStale(last);
      c.seekToFirst();
      assertEquals(0, c.count());
      assertEquals(2, c.next(2));
      assertTrue(c.valuePinned(1));
      ByteBuffer shown = c.key(1);
      c.close();
      TestSupport.assertStale(shown);
      assertThrows(IllegalStateException.class, () -> c.key(0));
      assertThrows(IllegalStateException.class, () -> c.next(1));
      assertThrows(IllegalStateException.class, c::seekToFirst);
      c.close(); // idempotent
    }
  }

  @Test
  void prefixesSeeksSnapshotsAndColumnFamilies() {
    try (Store store = fill(StrategiesTest.Residency.MEMTABLE, 200, 50)) {
      try (Cursor c = store.newCursor(CursorOptions.DEFAULT.withPrefix(bytes("k0012")))) {
        c.seek(bytes("k00125"));
        List<byte[]> keys = drainKeys(c, 3, true);
        assertEquals(5, keys.size());
        assertArrayEquals(key(125), keys.get(0));
        c.seekForPrev(bytes("k00125x"));
        assertEquals(6, drainKeys(c, 100, false).size()); // 125 down to 120
        ByteBuffer direct = TestSupport.direct(key(121));
        c.seek(direct);
        assertEquals(0, direct.position(), "a direct key's position is left alone");
        assertEquals(1, c.next(1));
        assertArrayEquals(key(121), TestSupport.toArray(c.key(0)));
      }
      // The cursor reads as of when it was made (or as of the read options' snapshot).
      try (Cursor c = store.newCursor();
          Snapshot before = store.snapshot()) {
        store.put(key(5), bytes("new"));
        store.delete(key(6));
        store.put(bytes("k00005a"), bytes("added"));
        store.flush();
        c.seek(key(5));
        assertEquals(3, c.next(3));
        assertArrayEquals(value(5, 50), TestSupport.toArray(c.value(0)));
        assertArrayEquals(key(6), TestSupport.toArray(c.key(1)));
        try (Cursor then =
            store.newCursor(
                CursorOptions.DEFAULT.withReadOptions(ReadOptions.DEFAULT.withSnapshot(before)))) {
          then.seek(key(5));
          then.next(1);
          assertArrayEquals(value(5, 50), TestSupport.toArray(then.value(0)));
          before.close(); // waits for the cursor: it still reads
          then.seek(key(6));
          assertEquals(1, then.next(1));
          assertArrayEquals(key(6), TestSupport.toArray(then.key(0)));
        }
        assertThrows(
            IllegalStateException.class,
            () ->
                store.newCursor(
                    CursorOptions.DEFAULT.withReadOptions(
                        ReadOptions.DEFAULT.withSnapshot(before))));
      }
      ColumnFamily cf = store.columnFamily("cf");
      byte[] x = bytes("x");
      byte[] inCf = bytes("in cf");
      store.put(WriteOptions.DEFAULT.withColumnFamily(cf), x, 0, 1, inCf, 0, inCf.length);
      try (Cursor c =
          store.newCursor(
              CursorOptions.DEFAULT.withReadOptions(ReadOptions.DEFAULT.withColumnFamily(cf)))) {
        c.seekToFirst();
        assertEquals(1, c.next(10));
        assertArrayEquals(bytes("in cf"), TestSupport.toArray(c.value(0)));
      }
    }
  }

  @Test
  void theStoreClosedWhileOtherThreadsScan() throws Exception {
    Store store = fill(StrategiesTest.Residency.BLOCK_CACHE, 3000, 100);
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    CountDownLatch started = new CountDownLatch(2);
    Thread[] scanners = new Thread[2];
    for (int t = 0; t < scanners.length; t++) {
      scanners[t] =
          new Thread(
              () -> {
                try (Cursor c = store.newCursor()) {
                  started.countDown();
                  while (true) {
                    c.seekToFirst();
                    int seen = 0;
                    for (int n = c.next(128); n > 0; n = c.next(128)) {
                      for (int i = 0; i < n; i++, seen++) {
                        if (!Arrays2.equals(value(seen, 100), c.value(i))) {
                          failures.add(new AssertionError("wrong value " + seen));
                        }
                      }
                    }
                  }
                } catch (StoreClosedException expected) {
                  // the store closed: the only other outcome
                } catch (Throwable other) {
                  failures.add(other);
                }
              });
      scanners[t].start();
    }
    started.await();
    Thread.sleep(30);
    store.close();
    for (Thread t : scanners) {
      t.join(10_000);
      assertFalse(t.isAlive());
    }
    assertEquals(List.of(), failures);
    // The last cursor gone, the path opens again.
    Store.open(dir.resolve("db")).close();
  }

  @Test
  void aForgottenCursorIsReleasedByTheCleaner() throws Exception {
    try (Store store = fill(StrategiesTest.Residency.BLOCK_CACHE, 10, 100)) {
      long before = PinnedValue.releasedByCleaner();
      for (int i = 0; i < 100; i++) {
        Cursor c = store.newCursor();
        c.seekToFirst();
        c.next(5);
      }
      for (int i = 0; i < 50 && PinnedValue.releasedByCleaner() - before < 100; i++) {
        System.gc();
        Thread.sleep(20);
      }
      assertEquals(100, PinnedValue.releasedByCleaner() - before);
    }
  }

  /** Compares an array with a view's bytes from its position, without allocating a copy. */
  static final class Arrays2 {
    static boolean equals(byte[] expected, ByteBuffer view) {
      if (view.remaining() != expected.length) {
        return false;
      }
      for (int i = 0; i < expected.length; i++) {
        if (view.get(view.position() + i) != expected[i]) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Short cursors, one after another and one inside another, each read their own entries; and on
   * JDK 17 to 23, where Java re-points the views, each takes the table the same cursor of the round
   * before gave back (no direct buffer made per cursor), once the thread's two spares are the two
   * cursors' tables (by round 2, whatever earlier cursors on this thread left).
   */
  @Test
  void shortCursorsOneAfterAnotherReadTheirOwnEntries() {
    try (Store store = fill(StrategiesTest.Residency.BLOCK_CACHE, 200, 64)) {
      ByteBuffer outerTable = null;
      ByteBuffer innerTable = null;
      for (int r = 0; r < 50; r++) {
        try (Cursor outer = store.newCursor()) {
          outer.seek(key(r));
          assertEquals(16, outer.next(16));
          try (Cursor inner = store.newCursor()) {
            inner.seek(key(199 - r));
            assertEquals(r + 1, inner.next(64));
            assertArrayEquals(key(199 - r), TestSupport.toArray(inner.key(0)));
            assertArrayEquals(value(199, 64), TestSupport.toArray(inner.value(r)));
            if (Views.JAVA_REPOINTED && r > 2) {
              assertSame(innerTable, inner.table, "round " + r);
            }
            innerTable = inner.table;
          }
          for (int i = 0; i < 16; i++) {
            assertArrayEquals(key(r + i), TestSupport.toArray(outer.key(i)));
            assertArrayEquals(value(r + i, 64), TestSupport.toArray(outer.value(i)));
          }
          if (Views.JAVA_REPOINTED && r > 2) {
            assertSame(outerTable, outer.table, "round " + r);
          }
          outerTable = outer.table;
        }
      }
      assertEquals(Views.JAVA_REPOINTED, outerTable != null && outerTable != innerTable);
    }
  }
}
