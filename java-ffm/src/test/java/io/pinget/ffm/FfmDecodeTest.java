// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinget.CopyStats;
import io.pinget.DecodeException;
import io.pinget.Decoders;
import io.pinget.ReadOptions;
import io.pinget.TestSupport;
import io.pinget.contract.StrategyTable;
import io.pinget.internal.CallSlot;
import io.pinget.kafka.KafkaDecoders;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Decode on read through the FFM binding: values, the built-in segment decoders, a decoder that
 * throws, one that keeps the segment (it throws afterwards: never a read of freed memory), one that
 * reads again, and the counts of docs/strategies.md.
 */
class FfmDecodeTest {
  private static final byte[] COUNTER = "counter".getBytes(StandardCharsets.UTF_8);
  private static final byte[] NAME = "name".getBytes(StandardCharsets.UTF_8);
  private static final byte[] SHORT = "short".getBytes(StandardCharsets.UTF_8);
  private static final byte[] MISSING = "missing".getBytes(StandardCharsets.UTF_8);
  private static final long COUNT = 0x0102030405060708L;
  private static final String TEXT = "décodé à la lecture";

  private Path dir;
  private FfmStore store;

  @BeforeEach
  void setUp() {
    dir = TestSupport.newDir("ffm-decode");
    store = FfmStore.open(dir.resolve("db"));
    store.put(COUNTER, ByteBuffer.allocate(8).putLong(0, COUNT).array());
    store.put(NAME, TEXT.getBytes(StandardCharsets.UTF_8));
    store.put(SHORT, new byte[] {1, 2, 3});
  }

  @AfterEach
  void tearDown() {
    store.close();
    TestSupport.deleteTree(dir);
  }

  @Test
  void decodesAndAMissingKeyIsNullOrMissing() {
    assertEquals(COUNT, store.getLong(COUNTER, SegmentDecoders.longBE(), -1));
    assertEquals(Long.reverseBytes(COUNT), store.getLong(COUNTER, SegmentDecoders.longLE(), -1));
    assertEquals(
        TEXT.getBytes(StandardCharsets.UTF_8).length,
        store.getLong(NAME, MemorySegment::byteSize, -1));
    assertEquals(-9, store.getLong(MISSING, SegmentDecoders.longBE(), -9));
    assertEquals(TEXT, store.get(NAME, SegmentDecoders.utf8()));
    assertEquals(TEXT, store.get(NAME, SegmentDecoders.utf8Strict()));
    assertEquals(TEXT, store.get(NAME, SegmentDecoders.of(Decoders.utf8())));
    assertEquals(COUNT, store.getLong(COUNTER, SegmentDecoders.ofLong(Decoders.longBE()), 0));
    assertArrayEquals(
        TEXT.getBytes(StandardCharsets.UTF_8), store.get(NAME, SegmentDecoders.bytes()));
    try (LongDeserializer kafka = new LongDeserializer()) {
      assertEquals(COUNT, store.get(COUNTER, SegmentDecoders.of(KafkaDecoders.of(kafka, "t"))));
    }
    AtomicInteger calls = new AtomicInteger();
    assertNull(store.get(MISSING, v -> calls.incrementAndGet()));
    assertEquals(0, calls.get(), "the decoder is not called for a missing key");
    DecodeException e =
        assertThrows(
            DecodeException.class, () -> store.getLong(SHORT, SegmentDecoders.longBE(), 0));
    assertTrue(e.getMessage().contains("has 3 bytes"), e.getMessage());
    assertThrows(DecodeException.class, () -> store.getLong(SHORT, SegmentDecoders.intLE(), 0));
    assertEquals(0x030201, store.getLong(SHORT, v -> v.get(JAVA_BYTE, 2) << 16 | 0x0201, 0));
  }

  @Test
  void batchedDecodesInKeyOrderAndKeepsNoSegmentOrDatabase() {
    byte[][] keys = {NAME, MISSING, COUNTER};
    String[] text = new String[3];
    store.multiGet(ReadOptions.DEFAULT, new byte[][] {NAME, MISSING}, SegmentDecoders.utf8(), text);
    assertArrayEquals(new String[] {TEXT, null, null}, text);
    long[] sizes = {7, 7, 7, 7};
    store.multiGetLong(ReadOptions.DEFAULT, keys, MemorySegment::byteSize, -1, sizes);
    assertArrayEquals(new long[] {TEXT.getBytes(StandardCharsets.UTF_8).length, -1, 8, 7}, sizes);
    // A kept segment throws; a decoder that throws gets its exception through, and what it
    // decoded before stays; a batch that reads again inside a decoder gets a batch of its own.
    MemorySegment[] kept = new MemorySegment[3];
    store.multiGet(ReadOptions.DEFAULT, keys, v -> v, kept);
    assertThrows(IllegalStateException.class, () -> kept[0].get(JAVA_BYTE, 0));
    RuntimeException thrown = new IllegalStateException("the decoder's own");
    Long[] partial = new Long[3];
    assertSame(
        thrown,
        assertThrows(
            RuntimeException.class,
            () ->
                store.multiGet(
                    ReadOptions.DEFAULT,
                    keys,
                    v -> {
                      if (v.byteSize() == 8) {
                        throw thrown;
                      }
                      return v.byteSize();
                    },
                    partial)));
    assertEquals((long) TEXT.getBytes(StandardCharsets.UTF_8).length, partial[0]);
    long[] inner = new long[1];
    String[] outer = new String[1];
    store.multiGet(
        ReadOptions.DEFAULT,
        new byte[][] {NAME},
        v -> {
          store.multiGetLong(
              ReadOptions.DEFAULT, new byte[][] {COUNTER}, SegmentDecoders.longBE(), 0, inner);
          return SegmentDecoders.utf8().decode(v);
        },
        outer);
    assertEquals(TEXT, outer[0]);
    assertEquals(COUNT, inner[0]);
    // A short value is the decoder's error, thrown as for a single get.
    assertThrows(
        DecodeException.class,
        () ->
            store.multiGetLong(
                ReadOptions.DEFAULT,
                new byte[][] {SHORT},
                SegmentDecoders.longBE(),
                0,
                new long[1]));
    // Refused by its checks: nothing read, every element null.
    String[] refused = {"x", "y"};
    assertThrows(
        IllegalArgumentException.class,
        () ->
            store.multiGet(
                ReadOptions.DEFAULT,
                new byte[][] {NAME, new byte[0]},
                SegmentDecoders.utf8(),
                refused));
    assertArrayEquals(new String[] {null, null}, refused);
    // The thread's batch holds no pin or database between calls: closed, the path opens again.
    store.close();
    FfmStore.open(dir.resolve("db")).close();
    store = FfmStore.open(dir.resolve("db"));
  }

  @Test
  void textDecodersAgreeWithTheJniApis() {
    byte[] bad = {'a', (byte) 0x80, 'b', (byte) 0xE6, (byte) 0x97};
    store.put(SHORT, bad);
    assertEquals(new String(bad, StandardCharsets.UTF_8), store.get(SHORT, SegmentDecoders.utf8()));
    DecodeException e =
        assertThrows(DecodeException.class, () -> store.get(SHORT, SegmentDecoders.utf8Strict()));
    assertTrue(e.getMessage().contains("at byte 1"), e.getMessage());
  }

  @Test
  void theDecoderSeesAReadOnlySegmentOfTheWholeValue() {
    store.get(
        NAME,
        v -> {
          assertTrue(v.isReadOnly());
          assertEquals(TEXT.getBytes(StandardCharsets.UTF_8).length, v.byteSize());
          assertThrows(IllegalArgumentException.class, () -> v.set(JAVA_BYTE, 0, (byte) 0));
          assertTrue(v.asByteBuffer().isReadOnly());
          return null;
        });
  }

  /** The segment, a slice of it and a buffer of it, kept past the call, throw: no freed memory. */
  @Test
  void aKeptSegmentItsSliceAndItsBufferThrow() {
    AtomicReference<MemorySegment> slice = new AtomicReference<>();
    AtomicReference<ByteBuffer> buffer = new AtomicReference<>();
    MemorySegment kept =
        store.get(
            NAME,
            v -> {
              slice.set(v.asSlice(1, 4));
              buffer.set(v.asByteBuffer());
              return v;
            });
    assertThrows(IllegalStateException.class, () -> kept.get(JAVA_BYTE, 0));
    assertThrows(IllegalStateException.class, () -> slice.get().get(JAVA_BYTE, 0));
    assertThrows(IllegalStateException.class, () -> buffer.get().get(0));
    assertThrows(IllegalStateException.class, () -> kept.toArray(JAVA_BYTE));
    // And through a ByteBuffer decoder: the buffer it keeps throws too.
    ByteBuffer keptBuffer = store.get(NAME, SegmentDecoders.of(v -> v));
    assertThrows(IllegalStateException.class, () -> keptBuffer.get(0));
  }

  @Test
  void aSegmentHandedToAnotherThreadThrowsThere() throws Exception {
    AtomicReference<Throwable> there = new AtomicReference<>();
    store.get(
        NAME,
        v -> {
          Thread t =
              new Thread(
                  () -> {
                    try {
                      v.get(JAVA_BYTE, 0);
                    } catch (Throwable x) {
                      there.set(x);
                    }
                  });
          t.start();
          try {
            t.join();
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
          return null;
        });
    assertTrue(there.get() instanceof WrongThreadException, String.valueOf(there.get()));
  }

  @Test
  void aDecoderThatThrowsReleasesThePinAndItsExceptionReachesTheCaller() {
    RuntimeException thrown = new IllegalStateException("the decoder's own");
    AtomicReference<MemorySegment> seen = new AtomicReference<>();
    RuntimeException got =
        assertThrows(
            RuntimeException.class,
            () ->
                store.get(
                    NAME,
                    v -> {
                      seen.set(v);
                      throw thrown;
                    }));
    assertSame(thrown, got);
    assertEquals(0, got.getSuppressed().length);
    assertThrows(IllegalStateException.class, () -> seen.get().get(JAVA_BYTE, 0));
    Error error = new AssertionError("an Error too");
    assertSame(
        error,
        assertThrows(
            AssertionError.class,
            () ->
                store.getLong(
                    COUNTER,
                    v -> {
                      throw error;
                    },
                    0)));
    assertEquals(COUNT, store.getLong(COUNTER, SegmentDecoders.longBE(), 0), "the next read works");
    // Released, database included: closed, the path opens again at once.
    store.close();
    FfmStore.open(dir.resolve("db")).close();
    store = FfmStore.open(dir.resolve("db"));
  }

  @Test
  void aDecoderMayReadThroughTheStoreAgain() {
    String got =
        store.get(
            NAME,
            outer -> {
              assertEquals(COUNT, store.getLong(COUNTER, SegmentDecoders.longBE(), 0));
              assertEquals(TEXT, store.get(NAME, SegmentDecoders.utf8()));
              assertArrayEquals(
                  ByteBuffer.allocate(8).putLong(0, COUNT).array(), store.pinnableCopy(COUNTER));
              return SegmentDecoders.utf8().decode(outer); // still readable: its own pin
            });
    assertEquals(TEXT, got);
  }

  /**
   * A value of up to 1 KiB (CallSlot.SMALL) is copied into the thread's buffer in the read's one
   * downcall (P + 1), a larger one pinned (P) and released after the decoder: either way the whole
   * value is read, and nothing keeps the database open after the call (it reopens at once after
   * close).
   */
  @Test
  void smallValuesAreCopiedLargeOnesPinnedAndNeitherKeepsTheDatabase() {
    byte[] edge = new byte[CallSlot.SMALL];
    byte[] large = new byte[CallSlot.SMALL + 1];
    for (int i = 0; i < large.length; i++) {
      large[i] = (byte) (i * 31 + 7);
      edge[i % edge.length] = (byte) (i * 17 + 3);
    }
    byte[] edgeKey = "edge".getBytes(StandardCharsets.UTF_8);
    byte[] largeKey = "large".getBytes(StandardCharsets.UTF_8);
    store.put(edgeKey, edge);
    store.put(largeKey, large);
    store.flush();
    store.get(edgeKey, SegmentDecoders.bytes()); // loads the blocks: P = 0 from here
    store.get(largeKey, SegmentDecoders.bytes());
    for (byte[][] kv : new byte[][][] {{edgeKey, edge}, {largeKey, large}}) {
      CopyStats before = CopyStats.current();
      byte[] read = store.get(kv[0], v -> v.toArray(JAVA_BYTE));
      CopyStats d = CopyStats.current().minus(before);
      assertArrayEquals(kv[1], read);
      int copies = kv[1].length <= CallSlot.SMALL ? 1 : 0;
      assertEquals(copies, d.valueCopies(), kv[1].length + " bytes");
      assertEquals(0, d.allocations(), kv[1].length + " bytes");
      assertEquals(kv[1].length, store.getLong(kv[0], MemorySegment::byteSize, -1));
    }
    store.close();
    FfmStore.open(dir.resolve("db")).close();
    store = FfmStore.open(dir.resolve("db"));
  }

  /**
   * docs/strategies.md's ffm decode rows, from the memtable (P = 1) and the block cache (P = 0).
   */
  @Test
  void countsMatchTheStrategyTable() {
    for (int p = 1; p >= 0; p--) {
      if (p == 0) {
        store.flush();
      }
      store.get(NAME, SegmentDecoders.utf8());
      store.getLong(COUNTER, SegmentDecoders.longBE(), 0);
      expect(
          p, "ffm_long_decode_on_read", () -> store.getLong(COUNTER, SegmentDecoders.longBE(), 0));
      expect(p, "ffm_utf8_decode_on_read", () -> store.get(NAME, SegmentDecoders.utf8()));
      expect(p, "ffm_bytes_decode_on_read", () -> store.get(NAME, SegmentDecoders.bytes()));
    }
  }

  private static void expect(int p, String row, java.util.function.Supplier<?> read) {
    StrategyTable.Row r = StrategyTable.get("ffm", row);
    CopyStats before = CopyStats.current();
    read.get();
    CopyStats d = CopyStats.current().minus(before);
    assertEquals(r.copies(p), d.valueCopies(), row + " at P = " + p + ": copies");
    assertEquals(r.allocations(p), d.allocations(), row + " at P = " + p + ": allocations");
    assertEquals(0, d.keyCopies(), row + ": the binding's key copy is not counted");
  }
}
