// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinget.CopyStats;
import io.pinget.CursorOptions;
import io.pinget.ReadOptions;
import io.pinget.Snapshot;
import io.pinget.StoreClosedException;
import io.pinget.TestSupport;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** FfmCursor: scans, counts, and segments that close when the batch moves on. */
class FfmCursorTest {
  static byte[] key(int i) {
    return String.format("k%05d", i).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] value(int i) {
    return ("value of " + i + " ".repeat(i % 50)).getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void scansBothWaysWithSegmentsThatCloseWhenTheBatchMovesOn() {
    Path dir = TestSupport.newDir("ffm-cursor");
    try (FfmStore store = FfmStore.open(dir.resolve("db"))) {
      int n = 1000;
      for (int i = 0; i < n; i++) {
        store.put(key(i), value(i));
      }
      for (boolean flushed : new boolean[] {false, true}) {
        if (flushed) {
          store.flush();
        }
        try (FfmCursor c = store.newCursor()) {
          c.seekToFirst();
          CopyStats.reset();
          int seen = 0;
          for (int got = c.next(100); got > 0; got = c.next(100)) {
            for (int i = 0; i < got; i++, seen++) {
              assertArrayEquals(key(seen), c.key(i).toArray(JAVA_BYTE));
              assertArrayEquals(value(seen), c.value(i).toArray(JAVA_BYTE));
            }
          }
          assertEquals(n, seen);
          assertEquals(0, CopyStats.current().valueCopies(), "values are read in place");
          c.seekToLast();
          assertEquals(3, c.prev(3));
          assertArrayEquals(key(n - 3), c.key(2).toArray(JAVA_BYTE));
        }
      }
      try (FfmCursor c = store.newCursor(CursorOptions.DEFAULT.withPrefix(key(12)))) {
        c.seekToFirst();
        assertEquals(1, c.next(5));
        MemorySegment v = c.value(0);
        ByteBuffer b = v.asByteBuffer();
        MemorySegment slice = v.asSlice(1);
        assertTrue(v.isReadOnly());
        assertThrows(IllegalArgumentException.class, () -> v.set(JAVA_BYTE, 0, (byte) 1));
        assertEquals(0, c.next(5));
        // The batch moved on: the segment, its slice and its buffer throw.
        assertThrows(IllegalStateException.class, () -> v.get(JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> slice.get(JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> b.get(0));
        c.seek(key(12));
        assertEquals(1, c.next(1));
        MemorySegment k = c.key(0);
        c.close();
        assertThrows(IllegalStateException.class, () -> k.get(JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> c.next(1));
        c.close();
      }
      // As of its snapshot; the store closed under it.
      Snapshot before = store.snapshot();
      store.put(key(1), "newer".getBytes(StandardCharsets.UTF_8));
      FfmCursor c =
          store.newCursor(
              CursorOptions.DEFAULT.withReadOptions(ReadOptions.DEFAULT.withSnapshot(before)));
      before.close(); // deferred until the cursor closes
      c.seek(key(1));
      assertEquals(1, c.next(1));
      assertArrayEquals(value(1), c.value(0).toArray(JAVA_BYTE));
      MemorySegment shown = c.value(0);
      store.close();
      assertThrows(StoreClosedException.class, () -> c.next(1));
      assertThrows(IllegalStateException.class, () -> shown.get(JAVA_BYTE, 0));
      c.close();
    } finally {
      TestSupport.deleteTree(dir);
    }
  }
}
