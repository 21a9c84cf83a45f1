// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.bytes;
import static io.pinget.TestSupport.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A damaged SST data block reaches Java as a {@link PingetException} with code CORRUPTION, from
 * every way of reading, with and without a block cache; undamaged blocks still read right. The C++
 * suite (corruption_test.cc) covers the cases in depth.
 */
class CorruptionTest {
  private static final int KEYS = 60;
  private static final int SIZE = 1000;
  private static final int DAMAGED = 30;

  private Path dir;

  @AfterEach
  void deleteDir() {
    TestSupport.deleteTree(dir);
  }

  private static byte[] key(int i) {
    return bytes("corrupt-" + i);
  }

  private static byte[] val(int i) {
    return value(i, SIZE);
  }

  /**
   * Writes KEYS uncompressed values into one SST file and flips one byte in the middle of value
   * DAMAGED (stored verbatim, so its offset is found by searching the file).
   */
  private Path writeAndDamage() throws IOException {
    dir = TestSupport.newDir("corruption");
    Path db = dir.resolve("db");
    try (Store store = Store.open(db, new Options().compression(Compression.NONE))) {
      for (int i = 0; i < KEYS; i++) {
        store.put(key(i), val(i));
      }
      store.flush();
    }
    List<Path> ssts;
    try (Stream<Path> files = Files.list(db)) {
      ssts = files.filter(p -> p.toString().endsWith(".sst")).collect(Collectors.toList());
    }
    assertEquals(1, ssts.size(), ssts.toString());
    byte[] file = Files.readAllBytes(ssts.get(0));
    int at = indexOf(file, val(DAMAGED));
    assertTrue(at >= 0, "the value is stored verbatim");
    file[at + SIZE / 2] ^= 0x5a;
    Files.write(ssts.get(0), file);
    return db;
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Test
  void damagedBlocksThrowCorruptionEveryWay() throws IOException {
    Path db = writeAndDamage();
    for (long cache : new long[] {64L << 20, 0}) {
      try (Store store = Store.open(db, new Options().blockCacheBytes(cache));
          PinnedView handle = store.newPinnedView();
          PinnedBatch batch = store.newPinnedBatch()) {
        byte[] bad = key(DAMAGED);
        byte[] good = key(0); // 30 values of 1000 bytes away: another block
        ReadOptions ro = ReadOptions.DEFAULT;
        ByteBuffer view = handle.get(good);
        byte[][] keys = {good, bad, key(1)}; // reads go on past the damaged key
        List<Executable> reads =
            List.of(
                () -> store.stringCopy(bad),
                () -> store.stringCopy(ro, TestSupport.direct(bad)),
                () -> store.pinnableCopy(bad),
                () -> store.bufferCopy(bad, new byte[SIZE], 0, SIZE),
                () -> store.bufferCopy(bad, new byte[0], 0, 0),
                () -> store.directCopy(bad, ByteBuffer.allocateDirect(SIZE)),
                () -> store.pinnedValue(bad),
                () -> handle.get(bad),
                () -> batch.get(keys),
                () -> store.multiGetBufferCopy(ro, keys, new byte[3][SIZE], new int[3]),
                () ->
                    store.multiGetDirectCopy(
                        ro,
                        keys,
                        new ByteBuffer[] {
                          ByteBuffer.allocateDirect(SIZE),
                          ByteBuffer.allocateDirect(SIZE),
                          ByteBuffer.allocateDirect(SIZE)
                        },
                        new int[3]));
        for (int round = 0; round < 2; round++) { // a failed block is not cached: again
          for (Executable read : reads) {
            PingetException e = assertThrows(PingetException.class, read);
            assertEquals(PingetException.Code.CORRUPTION, e.code(), e.getMessage());
          }
        }
        assertEquals(0, view.capacity(), "a failed get releases the handle's previous pin");
        assertEquals(keys.length, batch.count(), "a per-key error leaves the batch readable");
        Ways.assertAll(val(0), Ways.readAll(store, handle, ro, good), "an undamaged block");
      }
    }
  }

  @Test
  void batchesReadEveryKeyThenThrowTheFirstError() throws IOException {
    Path db = writeAndDamage();
    byte[][] keys = {key(0), key(DAMAGED), key(1), key(KEYS - 1)};
    int[] expected = {SIZE, Store.NOT_FOUND, SIZE, SIZE};
    try (Store store = Store.open(db);
        PinnedBatch batch = store.newPinnedBatch()) {
      byte[][] dsts = new byte[keys.length][SIZE];
      int[] sizes = new int[keys.length];
      assertCorruption(() -> store.multiGetBufferCopy(ReadOptions.DEFAULT, keys, dsts, sizes));
      assertArrayEquals(expected, sizes, "multiGetBufferCopy: every key's size");
      ByteBuffer[] directs = new ByteBuffer[keys.length];
      for (int i = 0; i < keys.length; i++) {
        directs[i] = ByteBuffer.allocateDirect(SIZE);
      }
      int[] directSizes = new int[keys.length];
      assertCorruption(
          () -> store.multiGetDirectCopy(ReadOptions.DEFAULT, keys, directs, directSizes));
      assertArrayEquals(expected, directSizes, "multiGetDirectCopy: every key's size");
      assertCorruption(() -> batch.get(keys));
      assertEquals(keys.length, batch.count());
      // Decode on read: the error is thrown once every value read is decoded into out.
      byte[][] decoded = new byte[keys.length][];
      assertCorruption(() -> store.multiGet(ReadOptions.DEFAULT, keys, Decoders.bytes(), decoded));
      long[] lengths = new long[keys.length];
      assertCorruption(
          () -> store.multiGetLong(ReadOptions.DEFAULT, keys, ByteBuffer::remaining, -1, lengths));
      for (int i = 0; i < keys.length; i++) {
        int k = i == 1 ? DAMAGED : i == 3 ? KEYS - 1 : i == 2 ? 1 : 0;
        assertEquals(expected[i], batch.size(i), "PinnedBatch: key " + i);
        assertEquals(expected[i], lengths[i], "multiGetLong: key " + i);
        if (expected[i] < 0) {
          assertEquals(null, batch.value(i));
          assertEquals(null, decoded[i]);
          continue;
        }
        assertArrayEquals(val(k), dsts[i], "multiGetBufferCopy read key " + i);
        assertArrayEquals(val(k), TestSupport.toArray(directs[i]), "multiGetDirectCopy");
        assertArrayEquals(val(k), TestSupport.toArray(batch.value(i)), "PinnedBatch");
        assertArrayEquals(val(k), decoded[i], "multiGet: key " + i);
      }
      // The error was the call's, also when a decoder's exception ends the call before it is
      // thrown: the thread's batch reads the next call without it.
      ValueDecoder<byte[]> refuses =
          v -> {
            throw new DecodeException("refused");
          };
      assertThrows(
          DecodeException.class,
          () -> store.multiGet(ReadOptions.DEFAULT, keys, refuses, new byte[keys.length][]));
      byte[][] good = {key(0), key(1)};
      byte[][] again = new byte[good.length][];
      store.multiGet(ReadOptions.DEFAULT, good, Decoders.bytes(), again);
      assertArrayEquals(val(1), again[1]);
    }
  }

  /** Throws CORRUPTION, the code named once in its message. */
  private static void assertCorruption(Executable read) {
    PingetException e = assertThrows(PingetException.class, read);
    assertEquals(PingetException.Code.CORRUPTION, e.code(), e.getMessage());
    assertTrue(e.getMessage().startsWith("Corruption: "), e.getMessage());
    assertFalse(e.getMessage().startsWith("Corruption: Corruption"), e.getMessage());
  }

  @Test
  void unverifiedReadsOfAFlippedValueByteReturnItsBytes() throws IOException {
    Path db = writeAndDamage();
    try (Store store = Store.open(db)) {
      // Not verified and not cached: the damaged bytes come back with no error ...
      ReadOptions unverified = ReadOptions.DEFAULT.withVerifyChecksums(false).withFillCache(false);
      byte[] got = store.stringCopy(unverified, key(DAMAGED), 0, key(DAMAGED).length);
      assertNotNull(got);
      assertEquals(SIZE, got.length);
      assertNotEquals(-1, Arrays.mismatch(val(DAMAGED), got));
      // ... and a verified read still catches them.
      PingetException e = assertThrows(PingetException.class, () -> store.stringCopy(key(DAMAGED)));
      assertEquals(PingetException.Code.CORRUPTION, e.code());
      assertArrayEquals(val(1), store.stringCopy(key(1)));
    }
  }
}
