// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.bytes;
import static io.pinget.TestSupport.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinget.contract.StrategyTable;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** ReadOptions.withPinMemtable from Java: recent writes read with no copy, as Get reads them. */
class PinMemtableTest {
  private Path dir;

  @AfterEach
  void deleteDir() {
    TestSupport.deleteTree(dir);
  }

  @Test
  void recentWritesAreReadInPlaceAndMatchThePlainRead() {
    dir = TestSupport.newDir("pin-memtable");
    ReadOptions pin = ReadOptions.DEFAULT.withPinMemtable(true);
    assertTrue(pin.pinMemtable());
    assertFalse(ReadOptions.DEFAULT.pinMemtable());
    StrategyTable.Row pinned = StrategyTable.get("jni", "pinned_view_pin_memtable");
    StrategyTable.Row plain = StrategyTable.get("jni", "pinned_view");
    try (Store store = Store.open(dir.resolve("db"), TestSupport.bigMemtable());
        PinnedView view = store.newPinnedView();
        PinnedView plainView = store.newPinnedView()) {
      byte[] flushed = bytes("flushed");
      store.put(flushed, value(1, 65536));
      store.flush();
      byte[] recent = bytes("recent");
      store.put(recent, value(2, 65536));
      for (int round = 0; round < 3; round++) {
        CopyStats.reset();
        ByteBuffer v = view.get(pin, recent, 0, recent.length);
        assertArrayEquals(value(2, 65536), TestSupport.toArray(v));
        assertTrue(view.pinnedInCache(), "RocksDB's memory");
        assertEquals(pinned.copies(1), CopyStats.current().valueCopies(), "a memtable hit");
        CopyStats.reset();
        plainView.get(ReadOptions.DEFAULT, recent, 0, recent.length);
        assertEquals(plain.copies(1), CopyStats.current().valueCopies(), "RocksDB copies it");
        assertNotNullAndEquals(value(1, 65536), view.get(pin, flushed, 0, flushed.length));
        assertNull(view.get(pin, bytes("absent"), 0, 6));
      }
      // Overwritten and deleted after the probe's iterator was made: seen.
      store.put(recent, bytes("newer"));
      assertArrayEquals(bytes("newer"), TestSupport.toArray(view.get(pin, recent, 0, 6)));
      store.delete(recent);
      assertNull(view.get(pin, recent, 0, 6));
      // Per call, with a snapshot: as of it.
      store.put(recent, bytes("a"));
      try (Snapshot then = store.snapshot()) {
        store.put(recent, bytes("b"));
        try (PinnedValue v = store.pinnedValue(pin.withSnapshot(then), recent, 0, 6)) {
          assertArrayEquals(bytes("a"), TestSupport.toArray(v.view()));
        }
      }
    }
  }

  private static void assertNotNullAndEquals(byte[] expected, ByteBuffer view) {
    assertArrayEquals(expected, TestSupport.toArray(view));
  }
}
