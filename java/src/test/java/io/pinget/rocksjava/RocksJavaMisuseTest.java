// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.rocksjava;

import static io.pinget.TestSupport.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinget.Cursor;
import io.pinget.CursorOptions;
import io.pinget.PinnedBatch;
import io.pinget.PinnedValue;
import io.pinget.PinnedView;
import io.pinget.ReadOptions;
import io.pinget.Store;
import io.pinget.StoreClosedException;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The RocksJava reader's rows of docs/misuse.md: what can be detected throws, nothing crashes the
 * JVM, and the supported close order works.
 */
class RocksJavaMisuseTest {
  private RocksJavaDb rocks;

  @BeforeEach
  void open() throws RocksDBException {
    rocks = RocksJavaDb.open("misuse");
    rocks.db.put(bytes("k"), bytes("v"));
    rocks.db.put(rocks.cf1, bytes("k"), bytes("v1"));
  }

  @AfterEach
  void close() {
    rocks.close();
  }

  /** Every read way of the reader, on column family cf. */
  private static List<Executable> reads(RocksJavaReader reader, ReadOptions ro) {
    byte[] key = bytes("k");
    ByteBuffer direct = ByteBuffer.allocateDirect(16);
    return List.of(
        () -> reader.store().stringCopy(ro, key, 0, 1),
        () -> reader.store().pinnableCopy(ro, key, 0, 1),
        () -> reader.store().bufferCopy(ro, key, 0, 1, new byte[4], 0, 4),
        () -> reader.store().directCopy(ro, key, 0, 1, direct),
        () -> reader.store().pinnedValue(ro, key, 0, 1),
        () -> {
          try (PinnedView view = reader.store().newPinnedView()) {
            view.get(ro, key, 0, 1);
          }
        },
        () -> {
          try (PinnedBatch batch = reader.store().newPinnedBatch()) {
            batch.get(ro, new byte[][] {key});
          }
        },
        () ->
            reader
                .store()
                .multiGetBufferCopy(ro, new byte[][] {key}, new byte[][] {new byte[4]}, new int[1]),
        () ->
            reader
                .store()
                .multiGetDirectCopy(ro, new byte[][] {key}, new ByteBuffer[] {direct}, new int[1]));
  }

  @Test
  void nullArgumentsAreNamed() {
    NullPointerException e =
        assertThrows(NullPointerException.class, () -> RocksJavaReader.open(null));
    assertTrue(e.getMessage().contains("db"), e.getMessage());
    e =
        assertThrows(
            NullPointerException.class,
            () -> RocksJavaReader.open(rocks.db, (ColumnFamilyHandle) null));
    assertTrue(e.getMessage().contains("columnFamilies[0]"), e.getMessage());
  }

  @Test
  void aClosedDatabaseOrHandleIsRefusedAtOpen() {
    rocks.cf1.close();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> RocksJavaReader.open(rocks.db, rocks.cf1));
    assertTrue(e.getMessage().contains("closed"), e.getMessage());
    rocks.close();
    assertThrows(IllegalStateException.class, () -> RocksJavaReader.open(rocks.db));
  }

  @Test
  void aHandleOfAnotherDatabaseIsRefused() throws RocksDBException {
    try (RocksJavaDb other = RocksJavaDb.open("other")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> RocksJavaReader.open(rocks.db, other.cf1));
      assertTrue(e.getMessage().contains("another RocksDB"), e.getMessage());
      try (RocksJavaReader reader = RocksJavaReader.open(rocks.db)) {
        assertThrows(IllegalArgumentException.class, () -> reader.columnFamily(other.cf1));
      }
    }
  }

  @Test
  void anotherRocksJavaReleaseIsRefusedWithBothVersions() {
    UnsupportedOperationException e =
        assertThrows(
            UnsupportedOperationException.class, () -> RocksJavaReader.open(rocks.db, "10.4.2"));
    assertTrue(e.getMessage().contains("RocksDB " + Store.rocksdbVersion()), e.getMessage());
    assertTrue(e.getMessage().contains("RocksDB 10.4.2"), e.getMessage());
  }

  @Test
  void noPublicMethodTakesARawNativeHandle() throws Exception {
    // The borrow takes RocksJava's handles from live objects the reader checked; its natives are
    // package-private (RocksJavaNatives), and nothing public in pinget accepts an address.
    for (Class<?> c : List.of(Store.class, RocksJavaReader.class, io.pinget.Snapshot.class)) {
      for (java.lang.reflect.Method m : c.getMethods()) {
        assertFalse(m.getName().startsWith("borrow"), c + "." + m.getName());
      }
    }
    Class<?> natives = Class.forName("io.pinget.rocksjava.RocksJavaNatives");
    assertFalse(java.lang.reflect.Modifier.isPublic(natives.getModifiers()));
  }

  @Test
  void readsAfterRocksJavaClosedTheDatabaseThrowInsteadOfReadingFreedMemory() {
    RocksJavaReader reader = RocksJavaReader.open(rocks.db, rocks.cf1);
    List<ReadOptions> families =
        List.of(
            ReadOptions.DEFAULT,
            ReadOptions.DEFAULT.withColumnFamily(reader.columnFamily(rocks.cf1)));
    rocks.close();
    for (ReadOptions ro : families) {
      for (Executable read : reads(reader, ro)) {
        IllegalStateException e = assertThrows(IllegalStateException.class, read);
        assertTrue(e.getMessage().contains("RocksDB is closed"), e.getMessage());
      }
    }
    reader.close();
    reader.close();
  }

  @Test
  void readsOfAClosedColumnFamilyThrowAndOthersStillWork() {
    try (RocksJavaReader reader = RocksJavaReader.open(rocks.db, rocks.cf1)) {
      ReadOptions cf1 = ReadOptions.DEFAULT.withColumnFamily(reader.columnFamily(rocks.cf1));
      rocks.cf1.close();
      for (Executable read : reads(reader, cf1)) {
        IllegalStateException e = assertThrows(IllegalStateException.class, read);
        assertTrue(e.getMessage().contains("column family 1 is closed"), e.getMessage());
      }
      assertArrayEquals(bytes("v"), reader.store().pinnableCopy(bytes("k")));
    }
  }

  @Test
  void aClosedReaderThrowsAndItsCloseIsIdempotent() throws Exception {
    RocksJavaReader reader = RocksJavaReader.open(rocks.db, rocks.cf1);
    reader.close();
    reader.close();
    assertTrue(reader.isClosed());
    for (Executable read : reads(reader, ReadOptions.DEFAULT)) {
      assertThrows(StoreClosedException.class, read);
    }
    // RocksJava's database is untouched by pinget's close.
    assertArrayEquals(bytes("v"), rocks.db.get(bytes("k")));
  }

  @Test
  void cursorsLeftOpenPastRocksJavasCloseAreAbandonedNotFreed() throws Exception {
    RocksJavaReader reader = RocksJavaReader.open(rocks.db, rocks.cf1);
    Cursor closedLate = reader.store().newCursor(CursorOptions.DEFAULT);
    closedLate.seekToFirst();
    assertEquals(1, closedLate.next(10));
    long before = PinnedValue.releasedByCleaner();
    forgetAScan(reader);
    rocks.close();
    // Each would delete its iterator, which touches the closed database (the forgotten one's
    // Cleaner aborted the JVM so): both are abandoned instead.
    closedLate.close();
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (PinnedValue.releasedByCleaner() < before + 1 && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    assertTrue(PinnedValue.releasedByCleaner() >= before + 1, "the forgotten cursor's Cleaner ran");
    reader.close();
  }

  private static void forgetAScan(RocksJavaReader reader) {
    Cursor cursor = reader.store().newCursor(CursorOptions.DEFAULT);
    cursor.seekToFirst();
    assertEquals(1, cursor.next(10));
  }

  @Test
  void theSupportedOrderViewsThenReaderThenRocksJava() throws RocksDBException {
    RocksJavaReader reader = RocksJavaReader.open(rocks.db, rocks.cf1);
    PinnedView view = reader.store().newPinnedView();
    PinnedValue value = reader.store().pinnedValue(bytes("k"));
    assertNotNull(value);
    assertNotNull(view.get(bytes("k")));
    // The reader closes first; its pins stay valid while RocksJava's database is open.
    reader.close();
    assertArrayEquals(bytes("v"), io.pinget.TestSupport.toArray(value.view()));
    value.close();
    view.close();
    // RocksJava keeps working, with a column family created after the reader went away.
    try (ColumnFamilyHandle late =
        rocks.db.createColumnFamily(new ColumnFamilyDescriptor(bytes("late")))) {
      rocks.db.put(late, bytes("k"), bytes("late"));
      try (RocksJavaReader again = RocksJavaReader.open(rocks.db, late)) {
        ReadOptions ro = ReadOptions.DEFAULT.withColumnFamily(again.columnFamily(late));
        assertArrayEquals(bytes("late"), again.store().pinnableCopy(ro, bytes("k"), 0, 1));
      }
    }
    rocks.close();
  }

  @Test
  void aSnapshotWrapperCanBeClosedBeforeRocksJavaReleasesIt() throws RocksDBException {
    RocksDB db = rocks.db;
    org.rocksdb.Snapshot taken = db.getSnapshot();
    db.put(bytes("k"), bytes("newer"));
    try (RocksJavaReader reader = RocksJavaReader.open(db)) {
      io.pinget.Snapshot wrapper = reader.snapshot(taken);
      ReadOptions then = ReadOptions.DEFAULT.withSnapshot(wrapper);
      assertArrayEquals(bytes("v"), reader.store().pinnableCopy(then, bytes("k"), 0, 1));
      wrapper.close();
      wrapper.close();
      assertThrows(
          IllegalStateException.class, () -> reader.store().pinnableCopy(then, bytes("k"), 0, 1));
      // Still RocksJava's: pinget did not release it.
      try (org.rocksdb.ReadOptions ro = new org.rocksdb.ReadOptions().setSnapshot(taken)) {
        assertArrayEquals(bytes("v"), db.get(ro, bytes("k")));
      }
    } finally {
      db.releaseSnapshot(taken);
    }
  }
}
