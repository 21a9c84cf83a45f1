// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.assertStale;
import static io.pinget.TestSupport.bytes;
import static io.pinget.TestSupport.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Every misuse throws its documented exception and never crashes the JVM. */
class MisuseTest {
  private static final byte[] KEY = bytes("key");
  private static final byte[] VALUE = value(42, 5000);

  private Path dir;
  private Store store;

  @BeforeEach
  void open() {
    dir = TestSupport.newDir("misuse");
    store = Store.open(dir.resolve("db"));
    store.put(KEY, VALUE);
  }

  @AfterEach
  void close() {
    store.close();
    TestSupport.deleteTree(dir);
  }

  @Test
  void closedPinnedValueThrowsAndItsViewIsEmpty() {
    PinnedValue pinned = store.pinnedValue(KEY);
    ByteBuffer view = pinned.view();
    assertEquals(VALUE[0], view.get(0));
    pinned.close();
    pinned.close();
    assertThrows(IllegalStateException.class, pinned::view);
    assertThrows(IllegalStateException.class, pinned::size);
    assertThrows(IllegalStateException.class, pinned::pinnedInCache);
    assertStale(view);
  }

  @Test
  void reusedHandleInvalidatesItsViewOnReleaseMissAndClose() {
    PinnedView handle = store.newPinnedView();
    ByteBuffer view = handle.get(KEY);
    assertEquals(VALUE.length, view.remaining());
    assertNull(handle.get(bytes("missing")));
    assertStale(view);
    assertEquals(VALUE[1], handle.get(KEY).get(1));
    handle.release();
    assertStale(view);
    assertThrows(IllegalArgumentException.class, () -> handle.get(new byte[0]));
    assertStale(view);
    assertTrue(handle.get(KEY) == view, "the same buffer object every get");
    handle.close();
    handle.close();
    assertStale(view);
    assertThrows(IllegalStateException.class, () -> handle.get(KEY));
    assertThrows(IllegalStateException.class, handle::release);
    assertThrows(IllegalStateException.class, handle::pinnedInCache);
  }

  @Test
  void aReusedHandlesOwnViewCanBeItsNextKey() {
    byte[] next = value(7, 300); // the value of "chain", and itself a key
    store.put(bytes("chain"), next);
    store.put(next, VALUE);
    for (int round = 0; round < 2; round++) {
      try (PinnedView handle = store.newPinnedView()) {
        ByteBuffer view = handle.get(bytes("chain"));
        CopyStats.reset();
        assertArrayEquals(VALUE, TestSupport.toArray(handle.get(ReadOptions.DEFAULT, view)));
        assertEquals(1, CopyStats.current().keyCopies(), "the key is copied before the release");
        ByteBuffer slice = handle.get(bytes("chain")).slice(0, 300);
        assertArrayEquals(VALUE, TestSupport.toArray(handle.get(ReadOptions.DEFAULT, slice)));
      }
      store.flush(); // again from the block cache
    }
  }

  @Test
  void pinnedBatchInvalidatesItsViewsOnNextGetReleaseAndClose() {
    PinnedBatch batch = store.newPinnedBatch();
    assertEquals(2, batch.get(new byte[][] {KEY, bytes("missing")}));
    ByteBuffer view = batch.value(0);
    assertNull(batch.value(1));
    assertEquals(-1, batch.size(1));
    assertThrows(IndexOutOfBoundsException.class, () -> batch.value(2));
    // A get refused by its arguments reads and releases nothing (docs/misuse.md).
    assertThrows(IllegalArgumentException.class, () -> batch.get(new byte[][] {KEY, {}}));
    assertThrows(NullPointerException.class, () -> batch.get(new byte[][] {KEY, null}));
    assertEquals(2, batch.count());
    assertEquals(VALUE[2], view.get(2), "the last get's views still show their values");
    batch.get(new byte[][] {KEY});
    assertEquals(VALUE[2], batch.value(0).get(2));
    batch.get(new byte[][] {});
    assertStale(view);
    batch.get(new byte[][] {KEY});
    batch.release();
    assertEquals(0, batch.count());
    assertStale(view);
    batch.get(new byte[][] {KEY});
    batch.close();
    batch.close();
    assertStale(view);
    assertThrows(IllegalStateException.class, () -> batch.value(0));
    assertThrows(IllegalStateException.class, () -> batch.size(0));
    assertThrows(IllegalStateException.class, () -> batch.get(new byte[][] {KEY}));
  }

  @Test
  void closedStoreThrowsStoreClosedEverywhere() {
    PinnedView handle = store.newPinnedView();
    PinnedBatch batch = store.newPinnedBatch();
    WriteBatch writes = new WriteBatch().put(KEY, VALUE);
    store.close();
    store.close();
    assertTrue(store.isClosed());
    byte[] dst = new byte[10];
    ByteBuffer direct = ByteBuffer.allocateDirect(10);
    ReadOptions ro = ReadOptions.DEFAULT;
    List<Executable> calls =
        List.of(
            () -> store.stringCopy(KEY),
            () -> store.stringCopy(ro, TestSupport.direct(KEY)),
            () -> store.pinnableCopy(KEY),
            () -> store.bufferCopy(KEY, dst, 0, 10),
            () -> store.directCopy(KEY, direct),
            () -> store.pinnedValue(KEY),
            () -> handle.get(KEY),
            () -> batch.get(new byte[][] {KEY}),
            () -> store.multiGetBufferCopy(ro, new byte[][] {KEY}, new byte[][] {dst}, new int[1]),
            () ->
                store.multiGetDirectCopy(
                    ro, new byte[][] {KEY}, new ByteBuffer[] {direct}, new int[1]),
            () -> store.put(KEY, VALUE),
            () -> store.delete(KEY),
            () -> store.write(WriteOptions.DEFAULT, writes),
            store::flush,
            store::compact,
            store::snapshot,
            () -> store.columnFamily("default"),
            () -> store.property("rocksdb.stats"));
    for (Executable call : calls) {
      assertThrows(StoreClosedException.class, call);
    }
    handle.close();
    batch.close();
    writes.close();
  }

  @Test
  void pinsAndSnapshotsKeepAClosedStoresDatabaseOpen() {
    PinnedValue pinned = store.pinnedValue(KEY);
    PinnedView handle = store.newPinnedView();
    ByteBuffer view = handle.get(KEY);
    Snapshot snapshot = store.snapshot();
    store.close();
    assertArrayEquals(VALUE, TestSupport.toArray(pinned.view()));
    assertArrayEquals(VALUE, TestSupport.toArray(view));
    // The database is still open (its lock held) until the last pin and snapshot go.
    PingetException locked =
        assertThrows(PingetException.class, () -> Store.open(dir.resolve("db")));
    assertEquals(PingetException.Code.IO_ERROR, locked.code());
    assertThrows(StoreClosedException.class, () -> handle.get(KEY));
    assertStale(view);
    handle.close();
    pinned.close();
    assertThrows(PingetException.class, () -> Store.open(dir.resolve("db")).close());
    snapshot.close();
    store = Store.open(dir.resolve("db"));
    assertArrayEquals(VALUE, store.stringCopy(KEY));
  }

  @Test
  void rangesOutOfBoundsThrowIndexOutOfBounds() {
    byte[] dst = new byte[10];
    ByteBuffer direct = ByteBuffer.allocateDirect(10);
    ReadOptions ro = ReadOptions.DEFAULT;
    PinnedView handle = store.newPinnedView();
    List<Executable> calls =
        List.of(
            () -> store.stringCopy(ro, KEY, -1, 2),
            () -> store.stringCopy(ro, KEY, 2, 2),
            () -> store.pinnableCopy(ro, KEY, 0, 4),
            () -> store.pinnableCopy(ro, KEY, Integer.MAX_VALUE, 2),
            () -> store.bufferCopy(ro, KEY, 0, 3, dst, 5, 6),
            () -> store.bufferCopy(ro, KEY, 0, 3, dst, -1, 1),
            () -> store.bufferCopy(ro, KEY, 1, -1, dst, 0, 1),
            () -> store.bufferCopy(KEY, dst, 0, 11),
            () -> store.directCopy(ro, KEY, 3, 1, direct),
            () -> store.pinnedValue(ro, KEY, 0, 10),
            () -> handle.get(ro, KEY, 1, 3),
            () -> store.put(WriteOptions.DEFAULT, KEY, 0, 4, VALUE, 0, 1),
            () -> store.put(WriteOptions.DEFAULT, KEY, 0, 3, VALUE, 4999, 2),
            () -> store.delete(WriteOptions.DEFAULT, KEY, 3, 1),
            () -> new WriteBatch().put(ColumnFamily.DEFAULT, KEY, 0, 3, VALUE, -5, 1));
    for (Executable call : calls) {
      assertThrows(IndexOutOfBoundsException.class, call);
    }
    handle.close();
  }

  @Test
  void heapAndReadOnlyBuffersAreRefused() {
    ByteBuffer heapKey = ByteBuffer.wrap(KEY);
    ByteBuffer directKey = TestSupport.direct(KEY);
    ByteBuffer heapDst = ByteBuffer.allocate(10);
    ByteBuffer readOnlyDst = ByteBuffer.allocateDirect(10).asReadOnlyBuffer();
    ReadOptions ro = ReadOptions.DEFAULT;
    PinnedView handle = store.newPinnedView();
    for (Executable call :
        List.<Executable>of(
            () -> store.stringCopy(ro, heapKey),
            () -> store.pinnableCopy(ro, heapKey),
            () -> store.bufferCopy(ro, heapKey, new byte[1], 0, 1),
            () -> store.directCopy(ro, heapKey, ByteBuffer.allocateDirect(1)),
            () -> store.directCopy(KEY, heapDst),
            () -> store.pinnedValue(ro, heapKey),
            () -> handle.get(ro, heapKey),
            () -> store.put(WriteOptions.DEFAULT, heapKey, directKey),
            () -> store.put(WriteOptions.DEFAULT, directKey, ByteBuffer.wrap(VALUE)),
            () -> store.delete(WriteOptions.DEFAULT, heapKey),
            () ->
                store.multiGetDirectCopy(
                    ro, new byte[][] {KEY}, new ByteBuffer[] {heapDst}, new int[1]))) {
      assertThrows(IllegalArgumentException.class, call);
    }
    ByteBuffer pinnedView = handle.get(KEY);
    for (Executable call :
        List.<Executable>of(
            () -> store.directCopy(KEY, readOnlyDst),
            () -> store.directCopy(ro, directKey, readOnlyDst),
            () -> store.directCopy(KEY, pinnedView),
            () ->
                store.multiGetDirectCopy(
                    ro, new byte[][] {KEY}, new ByteBuffer[] {pinnedView}, new int[1]),
            () -> pinnedView.put(0, (byte) 1))) {
      assertThrows(ReadOnlyBufferException.class, call);
    }
    assertArrayEquals(VALUE, TestSupport.toArray(handle.get(KEY)));
    handle.close();
  }

  @Test
  void nullsThrowNullPointer() {
    ReadOptions ro = ReadOptions.DEFAULT;
    PinnedView handle = store.newPinnedView();
    PinnedBatch batch = store.newPinnedBatch();
    byte[] nk = null;
    ByteBuffer nb = null;
    for (Executable call :
        List.<Executable>of(
            () -> store.stringCopy(nk),
            () -> store.stringCopy(ro, nb),
            () -> store.stringCopy(null, KEY, 0, 3),
            () -> store.pinnableCopy(nk),
            () -> store.pinnableCopy(ro, nk, 0, 0),
            () -> store.bufferCopy(nk, new byte[1], 0, 1),
            () -> store.bufferCopy(KEY, null, 0, 0),
            () -> store.directCopy(nk, ByteBuffer.allocateDirect(1)),
            () -> store.directCopy(KEY, null),
            () -> store.pinnedValue(nk),
            () -> store.pinnedValue(ro, nb),
            () -> handle.get(nk),
            () -> handle.get(ro, nb),
            () -> batch.get(null),
            () -> batch.get(new byte[][] {null}),
            () -> store.multiGetBufferCopy(ro, new byte[][] {null}, new byte[][] {{}}, new int[1]),
            () -> store.multiGetBufferCopy(ro, new byte[][] {KEY}, new byte[][] {null}, new int[1]),
            () ->
                store.multiGetDirectCopy(
                    ro, new byte[][] {KEY}, new ByteBuffer[] {null}, new int[1]),
            () -> store.multiGetBufferCopy(ro, null, new byte[0][], new int[0]),
            () -> store.put(nk, VALUE),
            () -> store.put(KEY, null),
            () -> store.delete(nk),
            () -> store.write(WriteOptions.DEFAULT, null),
            () -> new WriteBatch().put(nk, VALUE),
            () -> Store.open(null),
            () -> store.columnFamily(null))) {
      assertThrows(NullPointerException.class, call);
    }
    handle.close();
    batch.close();
  }

  @Test
  void emptyKeysAndUnknownColumnFamiliesAreIllegalArguments() {
    byte[] empty = {};
    ReadOptions ro = ReadOptions.DEFAULT;
    // A column family of another store: pinget's ids are per store.
    Store other = Store.open(dir.resolve("other"), new Options().columnFamilies("cf"));
    ColumnFamily foreign = other.columnFamily("cf");
    ReadOptions cf9 = ro.withColumnFamily(foreign);
    PinnedView handle = store.newPinnedView();
    PinnedBatch batch = store.newPinnedBatch();
    WriteBatch writes = new WriteBatch().put(bytes("ok"), VALUE);
    assertThrows(IllegalArgumentException.class, () -> writes.put(empty, VALUE));
    assertEquals(1, writes.count(), "a refused put adds nothing");
    // Arguments are checked in signature order: the column family (of the batch's one store)
    // before the key and the value; a refused call leaves the batch's store as it was.
    Store third = Store.open(dir.resolve("third"), new Options().columnFamilies("cf"));
    try (WriteBatch two = new WriteBatch()) {
      ColumnFamily mine = third.columnFamily("cf");
      assertThrows(NullPointerException.class, () -> two.put(foreign, null, VALUE));
      assertThrows(NullPointerException.class, () -> two.delete(foreign, (byte[]) null, 0, 0));
      two.put(mine, KEY, VALUE); // nothing refused above made the batch other's
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> two.put(foreign, null, VALUE));
      assertTrue(e.getMessage().contains("belongs to another"), e.getMessage());
      e =
          assertThrows(
              IllegalArgumentException.class,
              () -> two.put(foreign, ByteBuffer.allocate(1), ByteBuffer.allocate(1)));
      assertTrue(e.getMessage().contains("belongs to another"), e.getMessage());
      e =
          assertThrows(
              IllegalArgumentException.class, () -> two.delete(foreign, (ByteBuffer) null));
      assertTrue(e.getMessage().contains("belongs to another"), e.getMessage());
      assertEquals(1, two.count());
    }
    third.close();
    for (Executable call :
        List.<Executable>of(
            () -> store.stringCopy(empty),
            () -> store.stringCopy(ro, KEY, 1, 0),
            () -> store.stringCopy(ro, ByteBuffer.allocateDirect(0)),
            () -> store.pinnableCopy(empty),
            () -> store.bufferCopy(empty, new byte[1], 0, 1),
            () -> store.directCopy(empty, ByteBuffer.allocateDirect(1)),
            () -> store.pinnedValue(empty),
            () -> handle.get(empty),
            () -> batch.get(new byte[][] {empty}),
            () ->
                store.multiGetBufferCopy(ro, new byte[][] {KEY, empty}, new byte[2][1], new int[2]),
            () ->
                store.multiGetDirectCopy(
                    ro,
                    new byte[][] {empty},
                    new ByteBuffer[] {ByteBuffer.allocateDirect(1)},
                    new int[1]),
            () -> store.multiGetBufferCopy(ro, new byte[][] {KEY}, new byte[2][1], new int[2]),
            () -> store.put(empty, VALUE),
            () -> store.delete(empty),
            () -> store.write(WriteOptions.DEFAULT.withColumnFamily(foreign), writes),
            () -> store.stringCopy(cf9, KEY, 0, 3),
            () -> handle.get(cf9, KEY, 0, 3),
            () -> store.put(WriteOptions.DEFAULT.withColumnFamily(foreign), KEY, 0, 3, VALUE, 0, 1),
            () -> store.flush(foreign),
            () -> store.columnFamily("nope"),
            () -> new Options().blockCacheBytes(-1),
            () -> Store.open(dir.resolve("db2"), new Options().createIfMissing(false)),
            () -> Store.open(dir.resolve("db3"), new Options().columnFamilies("default")),
            () -> Strategy.fromToken("nope"))) {
      assertThrows(IllegalArgumentException.class, call);
    }
    assertNull(store.stringCopy(bytes("ok")), "a refused write applies nothing");
    handle.close();
    batch.close();
    writes.close();
    other.close();
  }

  @Test
  void closedSnapshotsAndBatchesAndForeignSnapshots() {
    Snapshot snapshot = store.snapshot();
    ReadOptions at = ReadOptions.DEFAULT.withSnapshot(snapshot);
    assertArrayEquals(VALUE, store.stringCopy(at, KEY, 0, 3));
    snapshot.close();
    snapshot.close();
    assertThrows(IllegalStateException.class, () -> store.stringCopy(at, KEY, 0, 3));
    Path otherDir = dir.resolve("other");
    try (Store other = Store.open(otherDir);
        Snapshot foreign = other.snapshot()) {
      assertThrows(
          IllegalArgumentException.class,
          () -> store.stringCopy(ReadOptions.DEFAULT.withSnapshot(foreign), KEY, 0, 3));
    }
    WriteBatch batch = new WriteBatch();
    batch.close();
    batch.close();
    assertThrows(IllegalStateException.class, () -> batch.put(KEY, VALUE));
    assertThrows(IllegalStateException.class, batch::count);
    assertThrows(IllegalStateException.class, () -> store.write(WriteOptions.DEFAULT, batch));
  }

  @Test
  void openErrorsCarryTheirCode() {
    PingetException e = assertThrows(PingetException.class, () -> Store.open(dir.resolve("db")));
    assertEquals(PingetException.Code.IO_ERROR, e.code(), e.getMessage());
    store.close();
    assertThrows(
        IllegalArgumentException.class,
        () -> Store.open(dir.resolve("db"), new Options().errorIfExists(true)));
  }

  @Test
  void closingWhileOtherThreadsReadNeverCrashes() throws Exception {
    List<Thread> threads = new ArrayList<>();
    List<Throwable> unexpected = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      final int id = t;
      threads.add(
          new Thread(
              () -> {
                byte[] dst = new byte[VALUE.length];
                try (PinnedView handle = store.newPinnedView()) {
                  for (; ; ) {
                    if (id % 2 == 0) {
                      ByteBuffer view = handle.get(KEY);
                      assertEquals(VALUE[7], view.get(7));
                    } else {
                      assertEquals(VALUE.length, store.bufferCopy(KEY, dst, 0, dst.length));
                    }
                  }
                } catch (StoreClosedException expected) {
                  // the store closed under us: the documented outcome
                } catch (Throwable e) {
                  synchronized (unexpected) {
                    unexpected.add(e);
                  }
                }
              }));
    }
    threads.forEach(Thread::start);
    Thread.sleep(200);
    store.close();
    for (Thread thread : threads) {
      thread.join(10_000);
    }
    assertEquals(List.of(), unexpected);
  }

  @Test
  void forgottenPinsAreReleasedByTheCleanerAndViewsKeepTheirOwner() throws Exception {
    long before = PinnedValue.releasedByCleaner();
    forget(s -> s.pinnedValue(KEY));
    forget(s -> s.newPinnedView().get(KEY));
    forget(s -> s.newPinnedBatch().get(new byte[][] {KEY}));
    awaitReleased(before + 3);

    // A caller who keeps only the view (or a slice) keeps the pin.
    ByteBuffer view = store.pinnedValue(KEY).view();
    ByteBuffer slice = store.newPinnedView().get(KEY).slice(10, 20);
    // Earlier tests' forgotten handles (the contract suite leaves views to the Cleaner) may still
    // be waiting for a GC: let them go first, so that the count below moves only for these two.
    long settled = -1;
    for (int i = 0; i < 100 && settled != PinnedValue.releasedByCleaner(); i++) {
      settled = PinnedValue.releasedByCleaner();
      System.gc();
      Thread.sleep(50);
    }
    long kept = PinnedValue.releasedByCleaner();
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(20);
    }
    assertEquals(kept, PinnedValue.releasedByCleaner());
    assertArrayEquals(VALUE, TestSupport.toArray(view));
    assertEquals(VALUE[15], slice.get(5));
    view = null;
    slice = null;
    awaitReleased(kept + 2);

    // The last forgotten pin of a closed store closes its database.
    long forgotten = PinnedValue.releasedByCleaner();
    forget(s -> s.pinnedValue(KEY));
    store.close();
    awaitReleased(forgotten + 1);
    long deadline = System.nanoTime() + 20_000_000_000L;
    for (; ; ) {
      try {
        store = Store.open(dir.resolve("db"));
        break;
      } catch (PingetException stillOpen) {
        if (System.nanoTime() > deadline) {
          throw stillOpen;
        }
        System.gc();
        Thread.sleep(20);
      }
    }
  }

  private void forget(Consumer<Store> use) {
    use.accept(store);
  }

  private static void awaitReleased(long atLeast) throws InterruptedException {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (PinnedValue.releasedByCleaner() < atLeast && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    assertTrue(
        PinnedValue.releasedByCleaner() >= atLeast,
        "released by cleaner: " + PinnedValue.releasedByCleaner() + " < " + atLeast);
  }
}
