// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.assertStale;
import static io.pinget.TestSupport.bytes;
import static io.pinget.TestSupport.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.function.Executable;

/**
 * The misuses {@link MisuseTest} leaves out, one test each, every method of a kind in one matrix
 * (rows MisuseTest already has are not repeated). Each asserts the exception type package-info
 * documents; docs/misuse.md lists them all. The class fails if a JVM crash log (hs_err_pid*.log)
 * appears in the working or base directory while it runs.
 *
 * <p>Why nothing here passes 2 GiB or more: Java arrays and ByteBuffers are indexed by int, so no
 * key, value or destination that reaches the API can hold more than Integer.MAX_VALUE bytes, and
 * every offset and length is an int checked with Objects.checkFromIndexSize (overflow-safe) in Java
 * and again, in 64-bit arithmetic, by the JNI glue. What can be larger is a value written by a C++
 * or other non-Java writer; reading it from Java throws PingetException NOT_SUPPORTED (the JNI
 * glue's FitsJava check) instead of truncating a size to int. The int edges are tested below; the
 * largest value Java can hold is an opt-in test (-Dpinget.test.huge=true, several GiB of memory).
 */
class MisuseMatrixTest {
  private static final byte[] KEY = bytes("key");
  private static final byte[] VALUE = value(42, 5000);
  private static final byte[] OTHER = bytes("other");
  private static final byte[] OTHER_VALUE = value(43, 300);

  private static Set<Path> crashLogsBefore;

  private Path dir;
  private Store store;

  @BeforeAll
  static void listCrashLogs() {
    crashLogsBefore = crashLogs();
  }

  /** Crash logs that appeared while this class ran, or were written since this JVM started. */
  @AfterAll
  static void noJvmCrashLogAppeared() {
    long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
    List<Path> appeared = new ArrayList<>();
    for (Path log : crashLogs()) {
      if (!crashLogsBefore.contains(log) || log.toFile().lastModified() >= jvmStart) {
        appeared.add(log);
      }
    }
    assertEquals(List.of(), appeared, "JVM crash logs appeared");
  }

  /** hs_err_pid*.log in the working directory and surefire's base directory (and its target). */
  private static Set<Path> crashLogs() {
    Set<Path> dirs = new LinkedHashSet<>();
    dirs.add(Paths.get(System.getProperty("user.dir")).toAbsolutePath());
    String basedir = System.getProperty("basedir");
    if (basedir != null) {
      dirs.add(Paths.get(basedir).toAbsolutePath());
      dirs.add(Paths.get(basedir, "target").toAbsolutePath());
    }
    Set<Path> logs = new LinkedHashSet<>();
    for (Path d : dirs) {
      if (!Files.isDirectory(d)) {
        continue;
      }
      try (Stream<Path> files = Files.list(d)) {
        files
            .filter(p -> p.getFileName().toString().matches("hs_err_pid\\d+\\.log"))
            .forEach(logs::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return logs;
  }

  @BeforeEach
  void open() {
    dir = TestSupport.newDir("misuse-matrix");
    store = Store.open(dir.resolve("db"));
    store.put(KEY, VALUE);
    store.put(OTHER, OTHER_VALUE);
  }

  @AfterEach
  void close() {
    store.close();
    TestSupport.deleteTree(dir);
  }

  /**
   * A reused view after a failed get: released (capacity 0) or still the old value, never other.
   */
  private static void assertStaleOrStill(ByteBuffer view, byte[] value) {
    if (view.capacity() != 0) {
      assertArrayEquals(value, TestSupport.toArray(view.duplicate().clear()));
    }
  }

  private static void assertAllThrow(
      Class<? extends Throwable> type, Map<String, Executable> rows) {
    for (Map.Entry<String, Executable> row : rows.entrySet()) {
      Throwable t = assertThrows(type, row.getValue(), row.getKey());
      assertSame(type, t.getClass(), row.getKey() + ": " + t);
    }
  }

  // ---- use after close

  @Test
  void closedBatchRefusesReleaseAndPinnedInCache() {
    PinnedBatch batch = store.newPinnedBatch();
    batch.get(new byte[][] {KEY});
    ByteBuffer view = batch.value(0);
    batch.close();
    assertAllThrow(
        IllegalStateException.class,
        Map.of("release", batch::release, "pinnedInCache", () -> batch.pinnedInCache(0)));
    assertEquals(0, batch.count());
    assertStale(view);
  }

  @Test
  void closedWriteBatchRefusesEveryMethod() {
    WriteBatch writes = new WriteBatch();
    writes.close();
    ByteBuffer k = TestSupport.direct(KEY);
    assertAllThrow(
        IllegalStateException.class,
        Map.of(
            "put(ByteBuffer)", () -> writes.put(ColumnFamily.DEFAULT, k, k),
            "put(range)", () -> writes.put(ColumnFamily.DEFAULT, KEY, 0, 3, VALUE, 0, 1),
            "delete(byte[])", () -> writes.delete(KEY),
            "delete(range)", () -> writes.delete(ColumnFamily.DEFAULT, KEY, 0, 3),
            "delete(ByteBuffer)", () -> writes.delete(ColumnFamily.DEFAULT, k),
            "clear", writes::clear));
  }

  @Test
  void handlesCannotBeMadeFromAClosedStoreAndTheirGetsThrowOnceItCloses() {
    try (PinnedView handle = store.newPinnedView();
        PinnedBatch batch = store.newPinnedBatch()) {
      store.close();
      assertAllThrow(
          StoreClosedException.class,
          Map.of(
              "newPinnedView",
              store::newPinnedView,
              "newPinnedBatch",
              store::newPinnedBatch,
              "PinnedView.get",
              () -> handle.get(KEY),
              "PinnedBatch.get",
              () -> batch.get(new byte[][] {KEY})));
      assertEquals(0, batch.count());
      assertFalse(handle.pinnedInCache());
    }
  }

  @Test
  void closedSnapshotIsRefusedByEveryRead() {
    Snapshot snapshot = store.snapshot();
    PinnedView handle = store.newPinnedView();
    PinnedBatch batch = store.newPinnedBatch();
    ByteBuffer view = handle.get(KEY);
    snapshot.close();
    ReadOptions at = ReadOptions.DEFAULT.withSnapshot(snapshot);
    byte[][] keys = {KEY};
    Map<String, Executable> rows = new LinkedHashMap<>();
    rows.put("stringCopy(ByteBuffer)", () -> store.stringCopy(at, TestSupport.direct(KEY)));
    rows.put("pinnableCopy", () -> store.pinnableCopy(at, KEY, 0, 3));
    rows.put("bufferCopy", () -> store.bufferCopy(at, KEY, 0, 3, new byte[1], 0, 1));
    rows.put("directCopy", () -> store.directCopy(at, KEY, 0, 3, ByteBuffer.allocateDirect(1)));
    rows.put("pinnedView", () -> store.pinnedValue(at, KEY, 0, 3));
    rows.put("PinnedView.get", () -> handle.get(at, KEY, 0, 3));
    rows.put("PinnedBatch.get", () -> batch.get(at, keys));
    rows.put(
        "multiGetBufferCopy", () -> store.multiGetBufferCopy(at, keys, new byte[1][1], new int[1]));
    rows.put(
        "multiGetDirectCopy",
        () ->
            store.multiGetDirectCopy(
                at, keys, new ByteBuffer[] {ByteBuffer.allocateDirect(1)}, new int[1]));
    assertAllThrow(IllegalStateException.class, rows);
    assertStaleOrStill(view, VALUE);
    assertArrayEquals(VALUE, TestSupport.toArray(handle.get(KEY)), "the handle still works");
    handle.close();
    batch.close();
  }

  @Test
  void everyCloseOrderClosesTheDatabaseOnTheLastClose() {
    store.close();
    Path db = dir.resolve("order");
    try (Store s = Store.open(db)) {
      s.put(KEY, VALUE);
    }
    List<String> names =
        List.of("store", "pinnedValue", "pinnedView", "pinnedBatch", "snapshot", "writeBatch");
    // Rotations (each object closed first once and last once), then the same reversed.
    for (int round = 0; round < 2 * names.size(); round++) {
      List<String> order = new ArrayList<>(names);
      Collections.rotate(order, round);
      if (round >= names.size()) {
        Collections.reverse(order);
      }
      store = Store.open(db);
      Map<String, AutoCloseable> open = new LinkedHashMap<>();
      open.put("store", store);
      open.put("pinnedValue", store.pinnedValue(KEY));
      PinnedView handle = store.newPinnedView();
      handle.get(KEY);
      open.put("pinnedView", handle);
      PinnedBatch batch = store.newPinnedBatch();
      batch.get(new byte[][] {KEY});
      open.put("pinnedBatch", batch);
      open.put("snapshot", store.snapshot());
      open.put("writeBatch", new WriteBatch().put(KEY, VALUE));
      for (String name : order) {
        AutoCloseable c = open.get(name);
        try {
          c.close();
          c.close();
        } catch (Exception e) {
          fail(order + ": closing " + name, e);
        }
      }
      // Nothing holds the database now: it opens again at once.
      store = Store.open(db);
      assertArrayEquals(VALUE, store.stringCopy(KEY), order.toString());
      store.close();
    }
  }

  // ---- close from another thread during gets

  /** One way to read KEY per thread; each returns the bytes it read. */
  private static List<IntFunction<byte[]>> everyWayToRead(
      Store store, List<AutoCloseable> handles, ReadOptions ro) {
    List<IntFunction<byte[]>> ways = new ArrayList<>();
    ways.add(i -> store.stringCopy(ro, KEY, 0, KEY.length));
    ways.add(i -> store.pinnableCopy(ro, KEY, 0, KEY.length));
    ways.add(
        i -> {
          byte[] dst = new byte[VALUE.length];
          assertEquals(VALUE.length, store.bufferCopy(ro, KEY, 0, KEY.length, dst, 0, dst.length));
          return dst;
        });
    ways.add(
        i -> {
          ByteBuffer dst = ByteBuffer.allocateDirect(VALUE.length);
          assertEquals(VALUE.length, store.directCopy(ro, KEY, 0, KEY.length, dst));
          return TestSupport.toArray(dst);
        });
    ways.add(
        i -> {
          try (PinnedValue v = store.pinnedValue(ro, KEY, 0, KEY.length)) {
            return TestSupport.toArray(v.view());
          }
        });
    PinnedView handle = store.newPinnedView();
    handles.add(handle);
    ways.add(i -> TestSupport.toArray(handle.get(ro, KEY, 0, KEY.length)));
    PinnedBatch batch = store.newPinnedBatch();
    handles.add(batch);
    ways.add(
        i -> {
          assertEquals(2, batch.get(ro, new byte[][] {OTHER, KEY}));
          assertArrayEquals(OTHER_VALUE, TestSupport.toArray(batch.value(0)));
          return TestSupport.toArray(batch.value(1));
        });
    ways.add(
        i -> {
          byte[][] dsts = {new byte[VALUE.length]};
          int[] sizes = new int[1];
          store.multiGetBufferCopy(ro, new byte[][] {KEY}, dsts, sizes);
          assertEquals(VALUE.length, sizes[0]);
          return dsts[0];
        });
    ways.add(
        i -> {
          ByteBuffer[] dsts = {ByteBuffer.allocateDirect(VALUE.length)};
          int[] sizes = new int[1];
          store.multiGetDirectCopy(ro, new byte[][] {KEY}, dsts, sizes);
          assertEquals(VALUE.length, sizes[0]);
          return TestSupport.toArray(dsts[0]);
        });
    return ways;
  }

  /**
   * Runs every way of reading on its own thread until stop() throws expected; every read before
   * must return VALUE. Returns the unexpected throwables.
   */
  private static List<Throwable> readUntil(
      List<IntFunction<byte[]>> ways,
      Class<? extends Throwable> expected,
      Runnable stop,
      long stopAfterMillis)
      throws InterruptedException {
    List<Throwable> unexpected = new ArrayList<>();
    CountDownLatch readOnce = new CountDownLatch(ways.size());
    AtomicLong reads = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (IntFunction<byte[]> way : ways) {
      threads.add(
          new Thread(
              () -> {
                boolean counted = false;
                try {
                  for (int i = 0; ; i++) {
                    byte[] got = way.apply(i);
                    if (!Arrays.equals(VALUE, got)) {
                      throw new AssertionError("read wrong bytes");
                    }
                    reads.incrementAndGet();
                    if (!counted) {
                      counted = true;
                      readOnce.countDown();
                    }
                  }
                } catch (Throwable t) {
                  if (t.getClass() != expected) {
                    synchronized (unexpected) {
                      unexpected.add(t);
                    }
                  }
                } finally {
                  if (!counted) {
                    readOnce.countDown();
                  }
                }
              }));
    }
    threads.forEach(Thread::start);
    assertTrue(readOnce.await(20, TimeUnit.SECONDS));
    Thread.sleep(stopAfterMillis);
    stop.run();
    for (Thread t : threads) {
      t.join(20_000);
      assertFalse(t.isAlive(), "a reader did not stop after the close");
    }
    assertTrue(reads.get() >= ways.size());
    return unexpected;
  }

  @Test
  void closingTheStoreWhileEveryWayReadsGivesValuesOrStoreClosed() throws Exception {
    store.close();
    for (int round = 0; round < 5; round++) {
      Store s = Store.open(dir.resolve("db"));
      List<AutoCloseable> handles = new ArrayList<>();
      List<IntFunction<byte[]>> ways = everyWayToRead(s, handles, ReadOptions.DEFAULT);
      List<Throwable> unexpected =
          readUntil(ways, StoreClosedException.class, s::close, 10 * round);
      for (AutoCloseable h : handles) {
        h.close();
      }
      assertEquals(List.of(), unexpected, "round " + round);
      assertTrue(s.isClosed());
    }
    store = Store.open(dir.resolve("db")); // nothing holds the database
  }

  @Test
  void closingASnapshotWhileEveryWayReadsWithItGivesItsValuesOrIllegalState() throws Exception {
    Snapshot snapshot = store.snapshot();
    store.put(KEY, value(44, 10)); // after the snapshot: must never be read
    List<AutoCloseable> handles = new ArrayList<>();
    List<IntFunction<byte[]>> ways =
        everyWayToRead(store, handles, ReadOptions.DEFAULT.withSnapshot(snapshot));
    List<Throwable> unexpected = readUntil(ways, IllegalStateException.class, snapshot::close, 30);
    for (AutoCloseable h : handles) {
      h.close();
    }
    assertEquals(List.of(), unexpected);
    assertEquals(10, store.stringCopy(KEY).length, "the store goes on");
  }

  // ---- offsets and lengths at the int edges

  /** (off, len) pairs outside any array shorter than Integer.MAX_VALUE - 1 bytes. */
  private static final int[][] BAD_RANGES = {
    {-1, 1},
    {0, -1},
    {Integer.MIN_VALUE, 1},
    {1, Integer.MIN_VALUE},
    {0, Integer.MAX_VALUE},
    {1, Integer.MAX_VALUE},
    {Integer.MAX_VALUE, 0},
    {Integer.MAX_VALUE, 1},
    {Integer.MAX_VALUE - 1, 2}, // off + len overflows int
    {Integer.MAX_VALUE, Integer.MAX_VALUE},
    {4, 0}, // one past the end of a 3-byte key
  };

  @Test
  void offsetsAndLengthsAtTheIntEdgesThrowIndexOutOfBounds() {
    ReadOptions ro = ReadOptions.DEFAULT;
    WriteOptions wo = WriteOptions.DEFAULT;
    byte[] dst = new byte[3];
    ByteBuffer direct = ByteBuffer.allocateDirect(3);
    ByteBuffer directKey = TestSupport.direct(KEY);
    PinnedView handle = store.newPinnedView();
    ByteBuffer view = handle.get(KEY);
    WriteBatch writes = new WriteBatch();
    byte[] key3 = bytes("new"); // 3 bytes, like dst: one range table for both
    Map<String, IntRangeCall> calls = new LinkedHashMap<>();
    calls.put("stringCopy key", (o, l) -> store.stringCopy(ro, key3, o, l));
    calls.put("pinnableCopy key", (o, l) -> store.pinnableCopy(ro, key3, o, l));
    calls.put("bufferCopy key", (o, l) -> store.bufferCopy(ro, key3, o, l, dst, 0, 3));
    calls.put("bufferCopy dst", (o, l) -> store.bufferCopy(ro, KEY, 0, 3, dst, o, l));
    calls.put("bufferCopy(ByteBuffer) dst", (o, l) -> store.bufferCopy(ro, directKey, dst, o, l));
    calls.put("directCopy key", (o, l) -> store.directCopy(ro, key3, o, l, direct));
    calls.put("pinnedView key", (o, l) -> store.pinnedValue(ro, key3, o, l));
    calls.put("PinnedView.get key", (o, l) -> handle.get(ro, key3, o, l));
    calls.put("put key", (o, l) -> store.put(wo, key3, o, l, VALUE, 0, 1));
    calls.put("put value", (o, l) -> store.put(wo, key3, 0, 3, dst, o, l));
    calls.put("delete key", (o, l) -> store.delete(wo, key3, o, l));
    calls.put(
        "WriteBatch.put key", (o, l) -> writes.put(ColumnFamily.DEFAULT, key3, o, l, VALUE, 0, 1));
    calls.put(
        "WriteBatch.put value", (o, l) -> writes.put(ColumnFamily.DEFAULT, key3, 0, 3, dst, o, l));
    calls.put("WriteBatch.delete key", (o, l) -> writes.delete(ColumnFamily.DEFAULT, key3, o, l));
    for (Map.Entry<String, IntRangeCall> call : calls.entrySet()) {
      for (int[] r : BAD_RANGES) {
        String what = call.getKey() + " [" + r[0] + ", +" + r[1] + ")";
        Throwable t =
            assertThrows(
                IndexOutOfBoundsException.class, () -> call.getValue().run(r[0], r[1]), what);
        assertSame(IndexOutOfBoundsException.class, t.getClass(), what);
      }
    }
    // Nothing was written, read into dst or taken from the handle.
    assertEquals(0, writes.count());
    assertNull(store.stringCopy(key3));
    assertArrayEquals(new byte[3], dst);
    assertEquals(0, direct.position());
    assertArrayEquals(VALUE, TestSupport.toArray(view), "argument errors leave the pin alone");
    // The legal edges: an empty window at the very end is a size query.
    assertEquals(VALUE.length, store.bufferCopy(ro, KEY, 0, 3, dst, 3, 0));
    assertEquals(VALUE.length, store.directCopy(KEY, ByteBuffer.allocateDirect(3).position(3)));
    assertArrayEquals(new byte[3], dst);
    writes.close();
    handle.close();
  }

  /** A call taking one (offset, length) pair. */
  @FunctionalInterface
  private interface IntRangeCall {
    void run(int off, int len) throws Throwable;
  }

  @Test
  void batchIndexesOutOfRangeThrowIndexOutOfBounds() {
    try (PinnedBatch batch = store.newPinnedBatch()) {
      batch.get(new byte[][] {KEY, OTHER});
      Map<String, Executable> rows = new LinkedHashMap<>();
      for (int i : new int[] {-1, 2, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
        rows.put("value(" + i + ")", () -> batch.value(i));
        rows.put("size(" + i + ")", () -> batch.size(i));
        rows.put("pinnedInCache(" + i + ")", () -> batch.pinnedInCache(i));
      }
      assertAllThrow(IndexOutOfBoundsException.class, rows);
      assertArrayEquals(OTHER_VALUE, TestSupport.toArray(batch.value(1)));
    }
  }

  // ---- buffers of the wrong kind

  @Test
  void heapAndReadOnlyBuffersWhereDirectWritableOnesAreRequired() {
    ByteBuffer heapKey = ByteBuffer.wrap(KEY);
    ByteBuffer directKey = TestSupport.direct(KEY);
    ByteBuffer heapReadOnlyDst = ByteBuffer.allocate(10).asReadOnlyBuffer();
    ByteBuffer readOnlyDst = ByteBuffer.allocateDirect(10).asReadOnlyBuffer();
    ReadOptions ro = ReadOptions.DEFAULT;
    WriteBatch writes = new WriteBatch();
    Map<String, Executable> heap = new LinkedHashMap<>();
    heap.put("WriteBatch.put heap key", () -> writes.put(ColumnFamily.DEFAULT, heapKey, directKey));
    heap.put(
        "WriteBatch.put heap value",
        () -> writes.put(ColumnFamily.DEFAULT, directKey, ByteBuffer.wrap(VALUE)));
    heap.put("WriteBatch.delete heap key", () -> writes.delete(ColumnFamily.DEFAULT, heapKey));
    heap.put("directCopy heap read-only dst", () -> store.directCopy(KEY, heapReadOnlyDst));
    heap.put(
        "multiGetDirectCopy heap read-only dst",
        () ->
            store.multiGetDirectCopy(
                ro, new byte[][] {KEY}, new ByteBuffer[] {heapReadOnlyDst}, new int[1]));
    assertAllThrow(IllegalArgumentException.class, heap);
    assertEquals(0, writes.count());
    ByteBuffer good = ByteBuffer.allocateDirect(VALUE.length);
    assertAllThrow(
        ReadOnlyBufferException.class,
        Map.of(
            "multiGetDirectCopy read-only dst after a good one",
            () ->
                store.multiGetDirectCopy(
                    ro,
                    new byte[][] {KEY, KEY},
                    new ByteBuffer[] {good, readOnlyDst},
                    new int[2])));
    assertEquals(0, good.get(0), "refused before any read");
    writes.close();
  }

  @Test
  void readOnlyDirectKeysAndValuesAreAccepted() {
    ByteBuffer key = TestSupport.direct(bytes("ro-key")).asReadOnlyBuffer();
    ByteBuffer val = TestSupport.direct(VALUE).asReadOnlyBuffer();
    ReadOptions ro = ReadOptions.DEFAULT;
    store.put(WriteOptions.DEFAULT, key, val);
    try (PinnedView handle = store.newPinnedView()) {
      assertArrayEquals(VALUE, store.stringCopy(ro, key));
      assertArrayEquals(VALUE, store.pinnableCopy(ro, key));
      assertEquals(VALUE.length, store.bufferCopy(ro, key, new byte[0], 0, 0));
      assertEquals(VALUE.length, store.directCopy(ro, key, ByteBuffer.allocateDirect(0)));
      try (PinnedValue v = store.pinnedValue(ro, key)) {
        assertArrayEquals(VALUE, TestSupport.toArray(v.view()));
        // A pinned view is a read-only direct buffer: fine as a key or a value.
        store.put(WriteOptions.DEFAULT, TestSupport.direct(bytes("copy")), v.view());
        store.put(WriteOptions.DEFAULT, v.view().slice(0, 16), TestSupport.direct(OTHER_VALUE));
      }
      assertArrayEquals(VALUE, TestSupport.toArray(handle.get(ro, key)));
      assertArrayEquals(VALUE, store.stringCopy(bytes("copy")));
      assertArrayEquals(OTHER_VALUE, store.stringCopy(Arrays.copyOf(VALUE, 16)));
      try (WriteBatch writes = new WriteBatch()) {
        store.write(WriteOptions.DEFAULT, writes.delete(ColumnFamily.DEFAULT, key));
      }
      assertNull(store.stringCopy(ro, key));
      store.delete(WriteOptions.DEFAULT, TestSupport.direct(bytes("copy")).asReadOnlyBuffer());
      assertNull(store.stringCopy(bytes("copy")));
    }
  }

  @Test
  void staleViewsAndEverythingDerivedFromThemAreEmpty() {
    PinnedView handle = store.newPinnedView();
    ByteBuffer view = handle.get(KEY);
    handle.release();
    // Taken after the release: empty too. (Taken before, they would keep the old address: see
    // docs/security.md.)
    for (ByteBuffer derived :
        List.of(
            view.duplicate(), view.slice(), view.asReadOnlyBuffer(), view.duplicate().clear())) {
      assertStale(derived);
      assertTrue(derived.isReadOnly());
    }
    // A stale view is an empty key and a read-only destination.
    assertAllThrow(
        IllegalArgumentException.class,
        Map.of(
            "stringCopy", () -> store.stringCopy(ReadOptions.DEFAULT, view),
            "PinnedView.get", () -> handle.get(ReadOptions.DEFAULT, view)));
    assertAllThrow(
        ReadOnlyBufferException.class, Map.of("directCopy", () -> store.directCopy(KEY, view)));
    handle.close();
  }

  // ---- null and empty keys

  @Test
  void nullArgumentsThrowNullPointer() {
    ReadOptions ro = ReadOptions.DEFAULT;
    WriteOptions wo = WriteOptions.DEFAULT;
    PinnedView handle = store.newPinnedView();
    PinnedBatch batch = store.newPinnedBatch();
    WriteBatch writes = new WriteBatch();
    byte[] nk = null;
    ByteBuffer nb = null;
    ByteBuffer dk = TestSupport.direct(KEY);
    ByteBuffer dst = ByteBuffer.allocateDirect(1);
    byte[][] keys = {KEY};
    Map<String, Executable> rows = new LinkedHashMap<>();
    rows.put("pinnableCopy(ByteBuffer null)", () -> store.pinnableCopy(ro, nb));
    rows.put("pinnableCopy(null options)", () -> store.pinnableCopy(null, KEY, 0, 3));
    rows.put(
        "bufferCopy(range, null key)", () -> store.bufferCopy(ro, nk, 0, 0, new byte[1], 0, 1));
    rows.put("bufferCopy(ByteBuffer null)", () -> store.bufferCopy(ro, nb, new byte[1], 0, 1));
    rows.put("bufferCopy(ByteBuffer, null dst)", () -> store.bufferCopy(ro, dk, null, 0, 0));
    rows.put(
        "bufferCopy(null options)", () -> store.bufferCopy(null, KEY, 0, 3, new byte[1], 0, 1));
    rows.put("directCopy(range, null key)", () -> store.directCopy(ro, nk, 0, 0, dst));
    rows.put("directCopy(ByteBuffer null)", () -> store.directCopy(ro, nb, dst));
    rows.put("directCopy(ByteBuffer, null dst)", () -> store.directCopy(ro, dk, null));
    rows.put("directCopy(null options)", () -> store.directCopy(null, KEY, 0, 3, dst));
    rows.put("pinnedView(range, null key)", () -> store.pinnedValue(ro, nk, 0, 0));
    rows.put("pinnedView(null options)", () -> store.pinnedValue(null, KEY, 0, 3));
    rows.put("PinnedView.get(range, null key)", () -> handle.get(ro, nk, 0, 0));
    rows.put("PinnedView.get(null options)", () -> handle.get(null, KEY, 0, 3));
    rows.put("PinnedBatch.get(null options)", () -> batch.get(null, keys));
    rows.put(
        "multiGetBufferCopy null dsts", () -> store.multiGetBufferCopy(ro, keys, null, new int[1]));
    rows.put(
        "multiGetBufferCopy null sizes",
        () -> store.multiGetBufferCopy(ro, keys, new byte[1][1], null));
    rows.put(
        "multiGetBufferCopy null options",
        () -> store.multiGetBufferCopy(null, keys, new byte[1][1], new int[1]));
    rows.put(
        "multiGetDirectCopy null keys",
        () -> store.multiGetDirectCopy(ro, null, new ByteBuffer[] {dst}, new int[1]));
    rows.put(
        "multiGetDirectCopy null key",
        () ->
            store.multiGetDirectCopy(ro, new byte[][] {null}, new ByteBuffer[] {dst}, new int[1]));
    rows.put("put(ByteBuffer null key)", () -> store.put(wo, nb, dk));
    rows.put("put(ByteBuffer null value)", () -> store.put(wo, dk, nb));
    rows.put("put(range, null key)", () -> store.put(wo, nk, 0, 0, VALUE, 0, 1));
    rows.put("put(null options)", () -> store.put(null, KEY, 0, 3, VALUE, 0, 1));
    rows.put("delete(ByteBuffer null)", () -> store.delete(wo, nb));
    rows.put("delete(range, null key)", () -> store.delete(wo, nk, 0, 0));
    rows.put("delete(null options)", () -> store.delete(null, KEY, 0, 3));
    rows.put("write(null options)", () -> store.write(null, writes));
    rows.put("WriteBatch.put(ByteBuffer null key)", () -> writes.put(ColumnFamily.DEFAULT, nb, dk));
    rows.put(
        "WriteBatch.put(ByteBuffer null value)", () -> writes.put(ColumnFamily.DEFAULT, dk, nb));
    rows.put("WriteBatch.put(null value)", () -> writes.put(KEY, null));
    rows.put("WriteBatch.delete(null)", () -> writes.delete(nk));
    rows.put("WriteBatch.delete(ByteBuffer null)", () -> writes.delete(ColumnFamily.DEFAULT, nb));
    rows.put("Store.open(path, null options)", () -> Store.open(dir.resolve("x"), null));
    rows.put("property(null)", () -> store.property(null));
    rows.put("property(cf, null)", () -> store.property(ColumnFamily.DEFAULT, null));
    rows.put("Options.compression(null)", () -> new Options().compression(null));
    rows.put("Options.columnFamilies(null name)", () -> new Options().columnFamilies("a", null));
    assertAllThrow(NullPointerException.class, rows);
    assertEquals(0, writes.count());
    writes.close();
    handle.close();
    batch.close();
  }

  @Test
  void emptyKeysThrowIllegalArgumentAndWriteNothing() {
    ReadOptions ro = ReadOptions.DEFAULT;
    WriteOptions wo = WriteOptions.DEFAULT;
    PinnedView handle = store.newPinnedView();
    ByteBuffer view = handle.get(OTHER);
    ByteBuffer empty = ByteBuffer.allocateDirect(0);
    ByteBuffer emptyWindow = TestSupport.direct(KEY).position(3); // direct, nothing remaining
    ByteBuffer dst = ByteBuffer.allocateDirect(1);
    ByteBuffer dv = TestSupport.direct(VALUE);
    Map<String, Executable> rows = new LinkedHashMap<>();
    rows.put("pinnableCopy(ByteBuffer)", () -> store.pinnableCopy(ro, empty));
    rows.put("bufferCopy(ByteBuffer)", () -> store.bufferCopy(ro, emptyWindow, new byte[1], 0, 1));
    rows.put("bufferCopy(range)", () -> store.bufferCopy(ro, KEY, 3, 0, new byte[1], 0, 1));
    rows.put("directCopy(ByteBuffer)", () -> store.directCopy(ro, empty, dst));
    rows.put("directCopy(range)", () -> store.directCopy(ro, KEY, 0, 0, dst));
    rows.put("pinnedView(ByteBuffer)", () -> store.pinnedValue(ro, emptyWindow));
    rows.put("pinnedView(range)", () -> store.pinnedValue(ro, KEY, 1, 0));
    rows.put("PinnedView.get(ByteBuffer)", () -> handle.get(ro, empty));
    rows.put("PinnedView.get(range)", () -> handle.get(ro, KEY, 3, 0));
    rows.put("put(ByteBuffer)", () -> store.put(wo, emptyWindow, dv));
    rows.put("put(range)", () -> store.put(wo, KEY, 2, 0, VALUE, 0, 1));
    rows.put("delete(ByteBuffer)", () -> store.delete(wo, empty));
    rows.put("delete(range)", () -> store.delete(wo, KEY, 0, 0));
    rows.put(
        "write(batch with an empty delete)",
        () -> store.write(wo, new WriteBatch().put(bytes("w1"), VALUE).delete(new byte[0])));
    rows.put(
        "write(batch with an empty ByteBuffer key)",
        () -> store.write(wo, new WriteBatch().put(ColumnFamily.DEFAULT, empty, dv).delete(KEY)));
    rows.put(
        "multiGetDirectCopy(one empty key of two)",
        () ->
            store.multiGetDirectCopy(
                ro,
                new byte[][] {KEY, {}},
                new ByteBuffer[] {ByteBuffer.allocateDirect(1), dst},
                new int[2]));
    assertAllThrow(IllegalArgumentException.class, rows);
    assertStaleOrStill(view, OTHER_VALUE);
    assertNull(store.stringCopy(bytes("w1")), "an invalid batch applies nothing");
    assertArrayEquals(VALUE, store.stringCopy(KEY), "nor its valid delete");
    handle.close();
  }

  // ---- ids and sizes out of range

  @Test
  void columnFamiliesOfAnotherStoreThrowIllegalArgument() {
    Store other = Store.open(dir.resolve("other"), new Options().columnFamilies("cf"));
    ColumnFamily foreign = other.columnFamily("cf");
    WriteOptions wo = WriteOptions.DEFAULT.withColumnFamily(foreign);
    ReadOptions cf9 = ReadOptions.DEFAULT.withColumnFamily(foreign);
    PinnedBatch batch = store.newPinnedBatch();
    Map<String, Executable> rows = new LinkedHashMap<>();
    rows.put("put", () -> store.put(wo, KEY, 0, 3, VALUE, 0, 1));
    rows.put("delete", () -> store.delete(wo, KEY, 0, 3));
    rows.put("flush", () -> store.flush(foreign));
    rows.put("compact", () -> store.compact(foreign));
    rows.put("property", () -> store.property(foreign, "rocksdb.stats"));
    rows.put(
        "write(batch put)",
        () -> store.write(WriteOptions.DEFAULT, new WriteBatch().put(foreign, KEY, VALUE)));
    rows.put("columnFamily(unknown name)", () -> store.columnFamily("nope"));
    rows.put("pinnedValue", () -> store.pinnedValue(cf9, KEY, 0, 3));
    rows.put("pinnableCopy", () -> store.pinnableCopy(cf9, KEY, 0, 3));
    rows.put("bufferCopy", () -> store.bufferCopy(cf9, KEY, 0, 3, new byte[1], 0, 1));
    rows.put("directCopy", () -> store.directCopy(cf9, KEY, 0, 3, ByteBuffer.allocateDirect(1)));
    rows.put("PinnedBatch.get", () -> batch.get(cf9, new byte[][] {KEY}));
    rows.put(
        "multiGetBufferCopy",
        () -> store.multiGetBufferCopy(cf9, new byte[][] {KEY}, new byte[1][1], new int[1]));
    rows.put(
        "WriteBatch mixing stores",
        () -> {
          try (Store third = Store.open(dir.resolve("third"), new Options().columnFamilies("cf"))) {
            new WriteBatch().put(foreign, KEY, VALUE).put(third.columnFamily("cf"), KEY, VALUE);
          }
        });
    assertAllThrow(IllegalArgumentException.class, rows);
    assertArrayEquals(VALUE, store.stringCopy(KEY));
    batch.close();
    other.close();
  }

  @Test
  void optionsRocksDBRefusesThrowIllegalArgument() {
    Map<String, Executable> rows = new LinkedHashMap<>();
    rows.put("blockSize(-1)", () -> new Options().blockSize(-1));
    rows.put("writeBufferBytes(-1)", () -> new Options().writeBufferBytes(-1));
    rows.put("blockSize(0)", () -> Store.open(dir.resolve("a"), new Options().blockSize(0)));
    rows.put(
        "blockSize(4 GiB)", () -> Store.open(dir.resolve("b"), new Options().blockSize(4L << 30)));
    rows.put(
        "writeBufferBytes(0)",
        () -> Store.open(dir.resolve("c"), new Options().writeBufferBytes(0)));
    rows.put(
        "columnFamilies(\"\")",
        () -> Store.open(dir.resolve("d"), new Options().columnFamilies("")));
    rows.put(
        "columnFamilies(a, a)",
        () -> Store.open(dir.resolve("e"), new Options().columnFamilies("a", "a")));
    rows.put("empty path", () -> Store.open(Paths.get("")));
    assertAllThrow(IllegalArgumentException.class, rows);
    // A path that is a file is an I/O error, not a crash.
    Path file = dir.resolve("file");
    try {
      Files.write(file, VALUE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    PingetException e = assertThrows(PingetException.class, () -> Store.open(file));
    assertEquals(PingetException.Code.IO_ERROR, e.code(), e.getMessage());
  }

  // ---- sizes

  @Test
  void keysAroundTheJniStackBufferAndLargeKeysReadEveryWay() {
    try (PinnedView handle = store.newPinnedView();
        PinnedBatch batch = store.newPinnedBatch()) {
      List<byte[]> keys = new ArrayList<>();
      for (int size : new int[] {255, 256, 257, 4096, 1 << 20}) {
        byte[] k = value(size, size);
        keys.add(k);
        store.put(k, value(size + 1, 100));
      }
      Map<String, byte[][]> multi = Ways.multiReadAll(store, batch, ReadOptions.DEFAULT, keys);
      for (Map.Entry<String, byte[][]> e : multi.entrySet()) {
        for (int i = 0; i < keys.size(); i++) {
          assertArrayEquals(value(keys.get(i).length + 1, 100), e.getValue()[i], e.getKey());
        }
      }
      for (byte[] k : keys) {
        Ways.assertAll(
            value(k.length + 1, 100),
            Ways.readAll(store, handle, ReadOptions.DEFAULT, k),
            k.length + "-byte key");
        store.delete(WriteOptions.DEFAULT, TestSupport.direct(k));
        Ways.assertAll(
            null, Ways.readAll(store, handle, ReadOptions.DEFAULT, k), k.length + "-byte key");
      }
    }
  }

  /**
   * The largest value a Java array holds (Integer.MAX_VALUE - 8 bytes here: HotSpot's limit is a
   * few bytes under Integer.MAX_VALUE), written and read back every way, with the int arithmetic at
   * its end. Opt-in: needs about 10 GiB of memory and disk (-Dpinget.test.huge=true).
   */
  @Test
  @EnabledIfSystemProperty(named = "pinget.test.huge", matches = "true")
  void theLargestJavaValueRoundTrips() {
    int size = Integer.MAX_VALUE - 8;
    store.close();
    store =
        Store.open(
            dir.resolve("huge"),
            new Options().compression(Compression.NONE).writeBufferBytes(4L << 30));
    byte[] big = new byte[size];
    for (long i = 0; i < size; i += 4096) { // long: i + 4096 passes Integer.MAX_VALUE
      big[(int) i] = (byte) (i >>> 12);
    }
    big[size - 1] = 99;
    byte[] key = bytes("huge");
    store.put(key, big);
    assertEquals(size, store.bufferCopy(key, new byte[0], 0, 0));
    byte[] tail = new byte[2];
    assertEquals(size, store.bufferCopy(key, tail, 1, 1)); // a prefix: the first byte
    assertEquals(big[0], tail[1]);
    try (PinnedValue v = store.pinnedValue(key)) {
      assertEquals(size, v.size());
      assertEquals(99, v.view().get(size - 1));
      assertEquals(big[size - 4096 * 3], v.view().get(size - 4096 * 3));
    }
    ByteBuffer direct = ByteBuffer.allocateDirect(size);
    assertEquals(size, store.directCopy(key, direct));
    assertEquals(99, direct.get(size - 1));
    direct = null;
    Arrays.fill(big, (byte) 0);
    assertEquals(size, store.bufferCopy(key, big, 0, size));
    assertEquals(99, big[size - 1]);
    big = null;
    byte[] copy = store.stringCopy(key);
    assertEquals(size, copy.length);
    assertEquals(99, copy[size - 1]);
  }
}
