// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.InvalidMarkException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Views handed out again after a caller moved them (whoever re-points them, Java or native code:
 * the Java holder resets position, limit and mark), batches whose keys Java packs (empty, repeated,
 * of many sizes, larger than the kept key buffer), and the native loops that the JNI-tax rows
 * divide by.
 */
class ViewStateTest {
  private Path dir;
  private Store store;

  @BeforeEach
  void open() {
    dir = TestSupport.newDir("viewstate");
    store = Store.open(dir.resolve("db"));
    for (int i = 0; i < 100; i++) {
      store.put(key(i), TestSupport.value(i, 10 + i));
    }
    store.flush();
  }

  @AfterEach
  void close() {
    store.close();
    TestSupport.deleteTree(dir);
  }

  private static byte[] key(int i) {
    return bytes("key-" + i);
  }

  /** Moves position, limit and mark, as a caller reading the view may. */
  private static void disturb(ByteBuffer view) {
    view.position(3).mark().position(5).limit(6);
  }

  private static void assertFresh(ByteBuffer view, byte[] expected) {
    assertEquals(0, view.position());
    assertEquals(expected.length, view.limit());
    assertEquals(expected.length, view.capacity());
    assertThrows(InvalidMarkException.class, view::reset);
    assertArrayEquals(expected, TestSupport.toArray(view));
  }

  /**
   * Which way views are re-pointed in this JVM: from Java on JDK 17 to 23 (Views.point), by native
   * code on JDK 24 and later or when asked (this suite runs twice, once each way).
   */
  @Test
  void theViewsAreRepointedTheWayThisJvmAllows() {
    boolean java =
        Views.REPOINTED
            && Runtime.version().feature() < 24
            && !Boolean.getBoolean("pinget.views.nativeRepoint");
    assertEquals(java, Views.JAVA_REPOINTED);
  }

  /**
   * A cursor's views, moved by the caller, come back fresh with the next batch and after a seek,
   * for entries of one size (where a re-pointing that skipped a field would go unseen) and of many.
   */
  @Test
  void aCursorsViewsComeBackResetEachBatch() {
    for (int i = 0; i < 8; i++) {
      store.put(bytes("same-" + i), new byte[16]);
    }
    try (Cursor c = store.newCursor(CursorOptions.DEFAULT.withPrefix(bytes("same-")))) {
      c.seekToFirst();
      for (int round = 0; round < 3; round++) {
        int n = c.next(2);
        assertEquals(2, n);
        for (int i = 0; i < n; i++) {
          assertFresh(c.value(i), new byte[16]);
          disturb(c.key(i));
          disturb(c.value(i));
        }
      }
    }
    try (Cursor c = store.newCursor()) {
      c.seek(key(10));
      byte[] firstKey = null;
      for (int round = 0; round < 3; round++) {
        int n = c.next(4);
        for (int i = 0; i < n; i++) {
          byte[] k = TestSupport.toArray(c.key(i).duplicate());
          assertFresh(c.key(i), k);
          if (firstKey == null) {
            firstKey = k;
          }
          c.key(i).position(1).mark().limit(2);
          disturb(c.value(i));
        }
      }
      c.seek(firstKey);
      assertTrue(c.next(1) == 1);
      assertFresh(c.key(0), firstKey);
    }
  }

  @Test
  void aDecodersViewComesBackReset() {
    for (int round = 0; round < 3; round++) {
      byte[] want = TestSupport.value(40, 50);
      store.get(
          key(40),
          v -> {
            assertFresh(v, want);
            disturb(v);
            return null;
          });
    }
  }

  @Test
  void aReusedViewComesBackReset() {
    try (PinnedView view = store.newPinnedView()) {
      disturb(view.get(key(40)));
      assertFresh(view.get(key(41)), TestSupport.value(41, 51));
      disturb(view.get(key(42)));
      assertNull(view.get(bytes("missing")));
      assertFresh(view.get(key(7)), TestSupport.value(7, 17));
      ByteBuffer v = view.get(key(50));
      disturb(v);
      view.release();
      assertEquals(0, v.position());
      assertEquals(0, v.limit());
      assertEquals(0, v.capacity());
    }
  }

  @Test
  void batchViewsComeBackReset() {
    try (PinnedBatch batch = store.newPinnedBatch()) {
      byte[][] keys = {key(60), key(61), key(62)};
      batch.get(keys);
      for (int i = 0; i < 3; i++) {
        disturb(batch.value(i));
      }
      batch.get(new byte[][] {key(1), bytes("missing"), key(99)});
      assertFresh(batch.value(0), TestSupport.value(1, 11));
      assertNull(batch.value(1));
      assertEquals(-1, batch.size(1));
      assertFresh(batch.value(2), TestSupport.value(99, 109));
      disturb(batch.value(0));
      batch.release();
      assertEquals(0, batch.count());
    }
  }

  @Test
  void packedKeysOfEverySizeReadBack() {
    try (PinnedBatch batch = store.newPinnedBatch()) {
      // One key over 1 MiB: the packed keys then get a buffer for this call only.
      byte[] big = new byte[(1 << 20) + 1];
      store.put(big, bytes("big"));
      byte[][] keys = {key(3), big, key(3), new byte[0], key(77), key(5)};
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> batch.get(keys));
      assertEquals("keys[3] is empty", e.getMessage());
      byte[][] valid = {key(3), big, key(3), key(77), key(5)};
      CopyStats.reset();
      assertEquals(5, batch.get(valid));
      assertEquals(5, CopyStats.current().keyCopies());
      assertFresh(batch.value(0), TestSupport.value(3, 13));
      assertFresh(batch.value(1), bytes("big"));
      assertFresh(batch.value(2), TestSupport.value(3, 13));
      assertFresh(batch.value(3), TestSupport.value(77, 87));
      assertFresh(batch.value(4), TestSupport.value(5, 15));
      assertEquals(2, batch.get(new byte[][] {key(8), key(9)}));
      assertFresh(batch.value(1), TestSupport.value(9, 19));
    }
  }
}
