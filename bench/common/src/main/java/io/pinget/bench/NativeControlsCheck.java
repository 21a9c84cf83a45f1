// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.CopyStats;
import io.pinget.Options;
import io.pinget.Store;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks the benchmarks' native controls ({@link NativeControls}) before any benchmark times them:
 * they read what the strategies read, count no copy where the strategies count none, and refuse
 * misuse with an exception (bench/run runs it after building, under -Xcheck:jni). Exits non-zero on
 * the first failure.
 */
public final class NativeControlsCheck {
  private static int checks;

  private NativeControlsCheck() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("pinget-controls-");
    byte[][] keys = new byte[100][];
    long valueBytes = 0;
    long keyBytes = 0;
    try (Store store = Store.open(dir, new Options())) {
      for (int i = 0; i < keys.length; i++) {
        keys[i] = ("key-" + (100 + i)).getBytes(StandardCharsets.US_ASCII);
        byte[] value = new byte[10 + i]; // ASCII: pinnedStrings decodes it
        java.util.Arrays.fill(value, letter(i));
        store.put(keys[i], value);
        valueBytes += 10 + i;
        keyBytes += keys[i].length;
      }
      store.flush();

      check(NativeControls.jniNop() == 0, "jniNop returns 0");
      CopyStats.reset();
      for (int i = 0; i < 1000; i++) {
        NativeControls.jniNop();
      }
      check(CopyStats.current().valueCopies() == 0, "jniNop counts no copy");

      try (NativeControls.KeyLoop loop = NativeControls.keyLoop(store, keys)) {
        check(loop.pinnedGets(0, 100) == valueBytes, "pinnedGets reads every key");
        check(loop.pinnedGets(98, 2) == valueBytes(98, 2), "pinnedGets of a range");
        check(loop.pinnedBatches(0, 100, 16) == valueBytes, "pinnedBatches reads every key");
        check(loop.pinnedStrings(0, 100) == valueBytes, "pinnedStrings reads every key");
        check(loop.pinnedStrings(98, 2) == valueBytes(98, 2), "pinnedStrings of a range");
        ByteBuffer slots = slots(100, 128);
        check(loop.pinnedCopies(0, 100, slots, 128) == valueBytes, "pinnedCopies reads every key");
        check(copied(slots, 0, 100, 128), "pinnedCopies: each value in its slot");
        slots = slots(10, 105);
        check(loop.pinnedCopies(90, 10, slots, 105) == valueBytes(90, 10), "pinnedCopies range");
        check(copied(slots, 90, 10, 105), "a value larger than its slot is not copied");
        ByteBuffer small = slots(2, 128);
        refuses(
            IllegalArgumentException.class,
            () -> loop.pinnedCopies(0, 2, ByteBuffer.allocate(small.capacity()), 128),
            "a heap buffer");
        refuses(
            IllegalArgumentException.class,
            () -> loop.pinnedCopies(0, 2, small.asReadOnlyBuffer(), 128),
            "a read-only buffer");
        refuses(
            IllegalArgumentException.class,
            () -> loop.pinnedCopies(0, 2, small.slice(0, small.capacity() - 1), 128),
            "a short buffer");
        refuses(
            IllegalArgumentException.class,
            () -> loop.pinnedCopies(0, 1, small, Integer.MAX_VALUE),
            "a stride past the buffer");
        refuses(IllegalArgumentException.class, () -> loop.pinnedCopies(0, 1, small, -1), "-1");
        refuses(IndexOutOfBoundsException.class, () -> loop.pinnedCopies(99, 2, small, 1), "past");
        CopyStats.reset();
        loop.pinnedGets(0, 100);
        loop.pinnedBatches(0, 100, 16);
        CopyStats s = CopyStats.current();
        check(s.valueCopies() == 0 && s.allocations() == 0, "block-cache loops copy nothing");
        refuses(IndexOutOfBoundsException.class, () -> loop.pinnedGets(99, 2), "a range past");
        refuses(IndexOutOfBoundsException.class, () -> loop.pinnedStrings(99, 2), "strings past");
        refuses(IllegalArgumentException.class, () -> loop.pinnedBatches(0, 1, 0), "batch 0");
      }
      byte[] absent = "key-absent".getBytes(StandardCharsets.US_ASCII);
      try (NativeControls.KeyLoop loop =
          NativeControls.keyLoop(store, new byte[][] {keys[0], absent, keys[2]})) {
        ByteBuffer slots = slots(3, 16);
        check(loop.pinnedCopies(0, 3, slots, 16) == 10 + 12, "pinnedCopies with a key absent");
        check(
            slots.getInt(0) == 10 && slots.getInt(4) == -1 && slots.getInt(8) == 12,
            "an absent key's size is -1");
        check(slots.get(12 + 16) == MARK, "an absent key's slot is not written");
      }
      refuses(NullPointerException.class, () -> NativeControls.keyLoop(store, null), "no keys");
      refuses(
          NullPointerException.class,
          () -> NativeControls.keyLoop(store, new byte[][] {null}),
          "a null key");

      long[] out = new long[2];
      try (NativeControls.CursorLoop cursor = NativeControls.cursorLoop(store)) {
        cursor.scan(64, 250, out);
        long half = 0;
        for (int i = 0; i < 50; i++) {
          half += keys[i].length + 10 + i;
        }
        check(out[0] == 250, "scan lends 250 entries");
        check(out[1] == 2 * (keyBytes + valueBytes) + half, "scan starts over at the end");
        cursor.seek(keys[90], 64, out);
        check(out[0] == 10, "seek lends to the range's end");
        refuses(IllegalArgumentException.class, () -> cursor.scan(0, 1, out), "batch 0");
        refuses(IllegalArgumentException.class, () -> cursor.scan(1, -1, out), "total < 0");
        refuses(IllegalArgumentException.class, () -> cursor.scan(1, 1, new long[1]), "short out");
        refuses(NullPointerException.class, () -> cursor.seek(null, 1, out), "no key");
        store.close();
        String message = refuses(IllegalStateException.class, () -> cursor.scan(1, 1, out), "");
        check(message.startsWith("Closed: "), "a closed store's scan says Closed: " + message);
      }
      NativeControls.KeyLoop loop = NativeControls.keyLoop(store, keys);
      String message = refuses(IllegalStateException.class, () -> loop.pinnedGets(0, 1), "");
      check(message.startsWith("Closed: "), "a closed store's get says Closed: " + message);
      message = refuses(IllegalStateException.class, () -> loop.pinnedStrings(0, 1), "");
      check(message.startsWith("Closed: "), "a closed store's strings say Closed: " + message);
      ByteBuffer slot = ByteBuffer.allocateDirect(4 + 128);
      message = refuses(IllegalStateException.class, () -> loop.pinnedCopies(0, 1, slot, 128), "");
      check(message.startsWith("Closed: "), "a closed store's copies say Closed: " + message);
      loop.close();
      loop.close();
      refuses(IllegalStateException.class, () -> loop.pinnedGets(0, 1), "a closed loop");
    } finally {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    System.out.println("native controls: " + checks + " checks passed");
  }

  private static final byte MARK = (byte) 0xA5;

  /** Value i's every byte: ASCII, and not value i + 1's. */
  private static byte letter(int i) {
    return (byte) ('a' + i % 26);
  }

  /** A direct buffer of exactly count slots of stride bytes and their sizes, filled with MARK. */
  private static ByteBuffer slots(int count, int stride) {
    ByteBuffer b = ByteBuffer.allocateDirect(count * (4 + stride)).order(ByteOrder.nativeOrder());
    while (b.hasRemaining()) {
      b.put(MARK);
    }
    return b.clear();
  }

  /** The bytes of values [from, from + count): value i is 10 + i bytes. */
  private static long valueBytes(int from, int count) {
    long sum = 0;
    for (int i = from; i < from + count; i++) {
      sum += 10 + i;
    }
    return sum;
  }

  /**
   * Whether slots holds what pinnedCopies(from, count, slots, stride) should leave: value i (10 + i
   * bytes of letter(i)) in slot i - from, the rest of the slot untouched; or, for a value larger
   * than a slot, size -1 and the slot untouched.
   */
  private static boolean copied(ByteBuffer slots, int from, int count, int stride) {
    for (int j = 0; j < count; j++) {
      int size = 10 + from + j;
      int got = slots.getInt(4 * j);
      if (got != (size <= stride ? size : -1)) {
        return false;
      }
      for (int b = 0; b < stride; b++) {
        byte want = b < got ? letter(from + j) : MARK;
        if (slots.get(4 * count + j * stride + b) != want) {
          return false;
        }
      }
    }
    return true;
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError("native controls: " + what);
    }
    checks++;
  }

  /** Runs call, which must throw type; returns its message. */
  private static String refuses(Class<? extends Throwable> type, Runnable call, String what) {
    try {
      call.run();
    } catch (Throwable t) {
      check(type.isInstance(t), what + ": threw " + t);
      return String.valueOf(t.getMessage());
    }
    throw new AssertionError("native controls: " + what + ": nothing thrown");
  }
}
