// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a key every way the API offers; null stands for "not found". */
public final class Ways {
  private static final byte PAD = 0x5A;

  private Ways() {}

  public static Map<String, byte[]> readAll(
      Reader store, PinnedView handle, ReadOptions ro, byte[] key) {
    Map<String, byte[]> out = new LinkedHashMap<>();
    byte[] padded = new byte[key.length + 5];
    System.arraycopy(key, 0, padded, 3, key.length);
    ByteBuffer directKey = ByteBuffer.allocateDirect(key.length + 4);
    directKey.position(2);
    directKey.put(key).flip().position(2);

    out.put("string_copy", store.stringCopy(ro, key, 0, key.length));
    out.put("string_copy/offset-key", store.stringCopy(ro, padded, 3, key.length));
    out.put("string_copy/direct-key", store.stringCopy(ro, directKey));
    out.put("pinnable_copy", store.pinnableCopy(ro, key, 0, key.length));
    out.put("pinnable_copy/offset-key", store.pinnableCopy(ro, padded, 3, key.length));
    out.put("pinnable_copy/direct-key", store.pinnableCopy(ro, directKey));
    out.put("buffer_copy", bufferCopy(store, ro, key, null));
    out.put("buffer_copy/direct-key", bufferCopy(store, ro, key, directKey));
    out.put("direct_copy", directCopy(store, ro, key, null));
    out.put("direct_copy/direct-key", directCopy(store, ro, key, directKey));
    try (PinnedValue v = store.pinnedValue(ro, padded, 3, key.length)) {
      out.put("pinned_view/per-call", v == null ? null : TestSupport.toArray(v.view()));
    }
    try (PinnedValue v = store.pinnedValue(ro, directKey)) {
      out.put("pinned_view/per-call/direct-key", v == null ? null : TestSupport.toArray(v.view()));
    }
    ByteBuffer view = handle.get(ro, padded, 3, key.length);
    out.put("pinned_view/reused", view == null ? null : TestSupport.toArray(view));
    view = handle.get(ro, directKey);
    out.put("pinned_view/reused/direct-key", view == null ? null : TestSupport.toArray(view));
    assertEquals(2, directKey.position(), "a direct key's position is left alone");
    return out;
  }

  /** Every multi-get way over keys; one list of results per way. */
  public static Map<String, byte[][]> multiReadAll(
      Reader store, PinnedBatch batch, ReadOptions ro, List<byte[]> keyList) {
    byte[][] keys = keyList.toArray(new byte[0][]);
    Map<String, byte[][]> out = new LinkedHashMap<>();
    int[] sizes = new int[keys.length];
    byte[][] empty = new byte[keys.length][0];
    store.multiGetBufferCopy(ro, keys, empty, sizes);
    byte[][] dsts = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      dsts[i] = new byte[Math.max(sizes[i], 0)];
    }
    int[] sizes2 = new int[keys.length];
    store.multiGetBufferCopy(ro, keys, dsts, sizes2);
    assertArrayEquals(sizes, sizes2);
    byte[][] results = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      results[i] = sizes[i] < 0 ? null : dsts[i];
    }
    out.put("multi/buffer_copy", results);

    ByteBuffer[] directs = new ByteBuffer[keys.length];
    for (int i = 0; i < keys.length; i++) {
      directs[i] = ByteBuffer.allocateDirect(Math.max(sizes[i], 0) + 3);
      directs[i].position(3);
    }
    store.multiGetDirectCopy(ro, keys, directs, sizes2);
    assertArrayEquals(sizes, sizes2);
    results = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      assertEquals(3, directs[i].position(), "position left alone");
      results[i] = sizes[i] < 0 ? null : TestSupport.toArray(directs[i]);
    }
    out.put("multi/direct_copy", results);

    assertEquals(keys.length, batch.get(ro, keys));
    results = new byte[keys.length][];
    for (int i = 0; i < keys.length; i++) {
      ByteBuffer v = batch.value(i);
      assertEquals(sizes[i], batch.size(i));
      results[i] = v == null ? null : TestSupport.toArray(v);
    }
    out.put("multi/pinned_view", results);
    return out;
  }

  public static void assertAll(byte[] expected, Map<String, byte[]> results, String what) {
    for (Map.Entry<String, byte[]> e : results.entrySet()) {
      if (expected == null) {
        assertNull(e.getValue(), e.getKey() + " of " + what);
      } else {
        assertArrayEquals(expected, e.getValue(), e.getKey() + " of " + what);
      }
    }
  }

  // buffer_copy: probe with an empty dst, then copy into the middle of a padded one.
  private static byte[] bufferCopy(Reader store, ReadOptions ro, byte[] key, ByteBuffer directKey) {
    int size =
        directKey == null
            ? store.bufferCopy(ro, key, 0, key.length, new byte[0], 0, 0)
            : store.bufferCopy(ro, directKey, new byte[0], 0, 0);
    if (size < 0) {
      return null;
    }
    byte[] dst = new byte[size + 8];
    Arrays.fill(dst, PAD);
    int got =
        directKey == null
            ? store.bufferCopy(ro, key, 0, key.length, dst, 4, size)
            : store.bufferCopy(ro, directKey, dst, 4, size);
    assertEquals(size, got);
    for (int i : new int[] {0, 1, 2, 3, size + 4, size + 5, size + 6, size + 7}) {
      assertEquals(PAD, dst[i], "byte outside dst[4, 4 + size) was written");
    }
    return Arrays.copyOfRange(dst, 4, 4 + size);
  }

  private static byte[] directCopy(Reader store, ReadOptions ro, byte[] key, ByteBuffer directKey) {
    ByteBuffer probe = ByteBuffer.allocateDirect(0);
    int size =
        directKey == null
            ? store.directCopy(ro, key, 0, key.length, probe)
            : store.directCopy(ro, directKey, probe);
    if (size < 0) {
      return null;
    }
    ByteBuffer dst = ByteBuffer.allocateDirect(size + 8);
    for (int i = 0; i < dst.capacity(); i++) {
      dst.put(i, PAD);
    }
    dst.position(4).limit(4 + size);
    int got =
        directKey == null
            ? store.directCopy(ro, key, 0, key.length, dst)
            : store.directCopy(ro, directKey, dst);
    assertEquals(size, got);
    assertEquals(4, dst.position());
    assertEquals(4 + size, dst.limit());
    ByteBuffer whole = dst.duplicate().clear();
    for (int i : new int[] {0, 1, 2, 3, size + 4, size + 5, size + 6, size + 7}) {
      assertEquals(PAD, whole.get(i), "byte outside dst's window was written");
    }
    return TestSupport.toArray(dst);
  }
}
