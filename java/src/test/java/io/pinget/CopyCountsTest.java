// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.MIB;
import static io.pinget.TestSupport.bytes;
import static io.pinget.TestSupport.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.pinget.contract.StrategyTable;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * docs/strategies.md's copy and allocation counts, measured from Java through the per-thread
 * counters, and the Java heap allocated by steady-state gets.
 */
class CopyCountsTest {
  static final int[] SIZES = {1, 127, 4096, 65536, MIB};

  private Path dir;
  private long sink;

  @AfterEach
  void deleteDir() {
    TestSupport.deleteTree(dir);
  }

  private Store openWithValues(StrategiesTest.Residency residency) {
    dir = TestSupport.newDir("counts");
    Store store = Store.open(dir.resolve("db"), TestSupport.bigMemtable());
    for (int size : SIZES) {
      store.put(bytes("k" + size), value(size, size));
    }
    if (residency == StrategiesTest.Residency.BLOCK_CACHE) {
      store.flush();
      for (int size : SIZES) {
        assertNotNull(store.stringCopy(bytes("k" + size)));
      }
    }
    return store;
  }

  /** Runs read once to warm per-thread and per-handle buffers, then counts one more run. */
  private static CopyStats count(IntSupplier read) {
    read.getAsInt();
    CopyStats.reset();
    read.getAsInt();
    return CopyStats.current();
  }

  private static void assertCounts(
      String what, int size, long copies, long keyCopies, long allocations, CopyStats got) {
    assertCountsAndBytes(what, copies, copies * size, keyCopies, allocations, got);
  }

  private static void assertCountsAndBytes(
      String what, long copies, long bytes, long keyCopies, long allocations, CopyStats got) {
    assertEquals(copies, got.valueCopies(), what + ": value copies");
    assertEquals(bytes, got.valueBytesCopied(), what + ": bytes copied");
    assertEquals(keyCopies, got.keyCopies(), what + ": key copies");
    assertEquals(allocations, got.allocations(), what + ": allocations");
  }

  @Test
  void everyStrategyNamesARowOfTheTable() {
    for (Strategy s : Strategy.values()) {
      assertEquals(s, Strategy.fromToken(StrategyTable.get("jni", s.token()).strategy()));
    }
  }

  @ParameterizedTest
  @EnumSource(StrategiesTest.Residency.class)
  void countsMatchDesign(StrategiesTest.Residency residency) {
    int p = residency == StrategiesTest.Residency.MEMTABLE ? 1 : 0;
    // Batches count per key as their single-key rows (docs/strategies.md).
    StrategyTable.Row buffer = StrategyTable.get("jni", "buffer_copy");
    StrategyTable.Row direct = StrategyTable.get("jni", "direct_copy");
    StrategyTable.Row pinned = StrategyTable.get("jni", "pinned_view");
    try (Store store = openWithValues(residency);
        PinnedView handle = store.newPinnedView();
        PinnedBatch batch = store.newPinnedBatch()) {
      for (int size : SIZES) {
        byte[] key = bytes("k" + size);
        ByteBuffer directKey = TestSupport.direct(key);
        byte[] dst = new byte[size];
        ByteBuffer directDst = ByteBuffer.allocateDirect(size);
        for (Strategy strategy : Strategy.values()) {
          Strategy.Into into = new Strategy.Into(handle, dst, directDst);
          IntSupplier read = () -> strategy.read(store, into, key);
          IntSupplier directKeyRead = () -> strategy.read(store, into, directKey);
          // The counts come from docs/strategies.md, the one table.
          StrategyTable.Row row = StrategyTable.get("jni", strategy.token());
          long allocations = row.allocations(p);
          String what = strategy.token() + " " + residency + " " + size;
          assertCounts(what, size, row.copies(p), 1, allocations, count(read));
          assertCounts(
              what + " direct key", size, row.copies(p), 0, allocations, count(directKeyRead));
        }
        CopyStats perCall =
            count(
                () -> {
                  try (PinnedValue v = store.pinnedValue(key)) {
                    return v.size();
                  }
                });
        StrategyTable.Row perCallRow = StrategyTable.get("jni", "pinned_view_per_call");
        assertCounts(
            "pinned_view_per_call " + residency + " " + size,
            size,
            perCallRow.copies(p),
            1,
            // The new PinnableSlice's string holds up to 15 bytes inline with libstdc++
            // (docs/strategies.md).
            size > 15 ? perCallRow.allocations(p) : 0,
            perCall);

        byte[][] keys = {key, key, bytes("missing")};
        int[] sizes = new int[3];
        byte[][] dsts = {new byte[size], new byte[size], new byte[size]};
        assertCounts(
            "multi buffer_copy " + residency + " " + size,
            size,
            2 * buffer.copies(p),
            3,
            2 * buffer.allocations(p),
            count(
                () -> {
                  store.multiGetBufferCopy(ReadOptions.DEFAULT, keys, dsts, sizes);
                  return sizes[0];
                }));
        ByteBuffer[] directs = {directDst, ByteBuffer.allocateDirect(size), directDst};
        assertCounts(
            "multi direct_copy " + residency + " " + size,
            size,
            2 * direct.copies(p),
            3,
            2 * direct.allocations(p),
            count(
                () -> {
                  store.multiGetDirectCopy(ReadOptions.DEFAULT, keys, directs, sizes);
                  return sizes[0];
                }));
        assertCounts(
            "multi pinned_view " + residency + " " + size,
            size,
            2 * pinned.copies(p),
            3,
            2 * pinned.allocations(p),
            count(() -> batch.get(keys)));
        assertEquals(p == 0, batch.pinnedInCache(0));

        // A zero-length destination still gets its copy out, of 0 bytes: P + 1 copies, as C++
        // GetInto counts any non-null buffer of capacity 0.
        byte[] none = new byte[0];
        ByteBuffer noneDirect = ByteBuffer.allocateDirect(0);
        String zero = " " + residency + " " + size + " into 0 bytes";
        assertCountsAndBytes(
            "buffer_copy" + zero,
            buffer.copies(p),
            (long) p * size,
            1,
            0,
            count(() -> store.bufferCopy(key, none, 0, 0)));
        assertCountsAndBytes(
            "buffer_copy at the end of dst" + zero,
            buffer.copies(p),
            (long) p * size,
            1,
            0,
            count(() -> store.bufferCopy(key, dst, size, 0)));
        assertCountsAndBytes(
            "direct_copy" + zero,
            direct.copies(p),
            (long) p * size,
            1,
            0,
            count(() -> store.directCopy(key, noneDirect)));
        byte[][] noDsts = {none, none, none};
        assertCountsAndBytes(
            "multi buffer_copy" + zero,
            2 * buffer.copies(p),
            2L * p * size,
            3,
            2 * buffer.allocations(p),
            count(
                () -> {
                  store.multiGetBufferCopy(ReadOptions.DEFAULT, keys, noDsts, sizes);
                  return sizes[0];
                }));
        assertEquals(size, sizes[0]);
        assertEquals(Store.NOT_FOUND, sizes[2]);
        ByteBuffer[] noDirects = {noneDirect, noneDirect, noneDirect};
        assertCountsAndBytes(
            "multi direct_copy" + zero,
            2 * direct.copies(p),
            2L * p * size,
            3,
            2 * direct.allocations(p),
            count(
                () -> {
                  store.multiGetDirectCopy(ReadOptions.DEFAULT, keys, noDirects, sizes);
                  return sizes[0];
                }));
      }
    }
  }

  @Test
  void steadyStateGetsAllocateNoJavaHeap() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
    assumeTrue(mx.isThreadAllocatedMemorySupported());
    mx.setThreadAllocatedMemoryEnabled(true);
    try (Store store = openWithValues(StrategiesTest.Residency.BLOCK_CACHE);
        PinnedView handle = store.newPinnedView();
        PinnedBatch batch = store.newPinnedBatch()) {
      int n = SIZES.length - 1; // up to 64 KiB
      byte[][] keys = new byte[n][];
      ByteBuffer[] directKeys = new ByteBuffer[n];
      for (int i = 0; i < n; i++) {
        keys[i] = bytes("k" + SIZES[i]);
        directKeys[i] = TestSupport.direct(keys[i]);
      }
      byte[] dst = new byte[65536];
      ByteBuffer directDst = ByteBuffer.allocateDirect(65536);
      byte[][] dsts = new byte[n][65536];
      int[] sizes = new int[n];
      ReadOptions ro = ReadOptions.DEFAULT;
      // Every strategy the table calls allocation-free, with either key, then the batches.
      List<IntReader> readers = new ArrayList<>();
      List<String> names = new ArrayList<>();
      Strategy.Into into = new Strategy.Into(handle, dst, directDst);
      for (Strategy s : Strategy.values()) {
        if (StrategyTable.get("jni", s.token()).free()) {
          readers.add(i -> s.read(store, into, keys[i]));
          names.add(s.token() + ", byte[] key");
          readers.add(i -> s.read(store, into, directKeys[i]));
          names.add(s.token() + ", direct key");
        }
      }
      readers.add(i -> batch.get(keys));
      names.add("pinned_view batch of 4");
      readers.add(
          i -> {
            store.multiGetBufferCopy(ro, keys, dsts, sizes);
            return sizes[i];
          });
      names.add("buffer_copy batch of 4");
      for (String free : new String[] {"buffer_copy", "direct_copy", "pinned_view"}) {
        assertTrue(names.contains(free + ", byte[] key"), free + " is read here");
      }
      for (int r = 0; r < readers.size(); r++) {
        long allocated = measure(mx, readers.get(r), n, 20_000);
        allocated = measure(mx, readers.get(r), n, 10_000);
        System.out.printf(
            "java heap allocated by 10,000 gets, %s: %d bytes%n", names.get(r), allocated);
        assertEquals(0, allocated, names.get(r) + ": Java heap bytes allocated by 10,000 gets");
      }
    }
  }

  interface IntReader {
    int read(int i);
  }

  private long measure(com.sun.management.ThreadMXBean mx, IntReader reader, int n, int gets) {
    long s = 0;
    long before = mx.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < gets; i++) {
      s += reader.read(i % n);
    }
    long after = mx.getCurrentThreadAllocatedBytes();
    sink += s;
    return after - before;
  }
}
