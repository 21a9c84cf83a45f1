// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.pinget.contract.StrategyTable;
import io.pinget.internal.CallSlot;
import io.pinget.rocksjava.RocksJavaReader;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rocksdb.RocksDB;

/**
 * Decode on read through the JNI doors: what the decoder sees, what it gets back, the pin's
 * lifetime around it (a decoder that throws, one that keeps the buffer, one that reads again), the
 * batch rule, and the counts of docs/strategies.md.
 */
class DecodeOnReadTest {
  private static final byte[] COUNTER = bytes("counter");
  private static final byte[] NAME = bytes("name");
  private static final byte[] SHORT = bytes("short");
  private static final byte[] MISSING = bytes("missing");
  private static final long COUNT = 0x0102030405060708L;
  private static final String TEXT = "décodé à la lecture";

  private Path dir;
  private final List<AutoCloseable> open = new ArrayList<>();

  @BeforeEach
  void setUp() {
    dir = TestSupport.newDir("decode");
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    TestSupport.deleteTree(dir);
  }

  private <T extends AutoCloseable> T keep(T t) {
    open.add(t);
    return t;
  }

  private Store store(String name) {
    Store store = keep(Store.open(dir.resolve(name), TestSupport.bigMemtable()));
    store.put(COUNTER, ByteBuffer.allocate(8).putLong(0, COUNT).array());
    store.put(NAME, TEXT.getBytes(StandardCharsets.UTF_8));
    store.put(SHORT, new byte[] {1, 2, 3});
    return store;
  }

  /** Every door: a Store, and the Store a RocksJavaReader lends. */
  private List<Reader> doors() throws Exception {
    Store store = store("store");
    RocksDB.loadLibrary();
    RocksDB db = keep(RocksDB.open(dir.resolve("rocksjava").toString()));
    db.put(COUNTER, ByteBuffer.allocate(8).putLong(0, COUNT).array());
    db.put(NAME, TEXT.getBytes(StandardCharsets.UTF_8));
    db.put(SHORT, new byte[] {1, 2, 3});
    Store reader = keep(RocksJavaReader.open(db)).store();
    return List.of(store, reader);
  }

  @Test
  void everyDoorDecodesAndAMissingKeyIsNullOrMissing() throws Exception {
    for (Reader r : doors()) {
      String door = r.getClass().getSimpleName();
      assertEquals(COUNT, r.getLong(COUNTER, Decoders.longBE(), -1), door);
      assertEquals(Long.reverseBytes(COUNT), r.getLong(COUNTER, Decoders.longLE(), -1), door);
      assertEquals(-7, r.getLong(MISSING, Decoders.longBE(), -7), door);
      assertEquals(TEXT, r.get(NAME, Decoders.utf8()), door);
      assertArrayEquals(TEXT.getBytes(StandardCharsets.UTF_8), r.get(NAME, Decoders.bytes()), door);
      ByteBuffer key = TestSupport.direct(NAME);
      assertEquals(TEXT, r.get(ReadOptions.DEFAULT, key, Decoders.utf8()), door);
      assertEquals(0, key.position(), "a direct key's position does not move");
      assertEquals(
          COUNT, r.getLong(ReadOptions.DEFAULT, TestSupport.direct(COUNTER), Decoders.longBE(), 0));
      byte[] framed = bytes("xxcounteryy");
      assertEquals(
          COUNT, r.getLong(ReadOptions.DEFAULT, framed, 2, COUNTER.length, Decoders.longBE(), 0));
      AtomicInteger calls = new AtomicInteger();
      assertNull(r.get(MISSING, v -> calls.incrementAndGet()), door);
      assertEquals(0, calls.get(), door + ": the decoder is not called for a missing key");
      // A long of 3 bytes is an error, not garbage.
      DecodeException e =
          assertThrows(DecodeException.class, () -> r.getLong(SHORT, Decoders.longBE(), 0));
      assertTrue(e.getMessage().contains("has 3 bytes"), e.getMessage());
    }
  }

  @Test
  void theDecoderSeesAReadOnlyBigEndianViewOfTheWholeValue() throws Exception {
    for (Reader r : doors()) {
      String door = r.getClass().getSimpleName();
      for (int round = 0; round < 2; round++) {
        r.get(
            NAME,
            v -> {
              assertTrue(v.isReadOnly(), door);
              assertTrue(v.isDirect(), door);
              assertEquals(0, v.position(), door);
              assertEquals(TEXT.getBytes(StandardCharsets.UTF_8).length, v.limit(), door);
              assertEquals(v.limit(), v.capacity(), door);
              assertEquals(ByteOrder.BIG_ENDIAN, v.order(), door + ": big-endian every time");
              assertThrows(ReadOnlyBufferException.class, () -> v.put(0, (byte) 0));
              // Leave it in a mess: the next decoder must not see it.
              v.order(ByteOrder.LITTLE_ENDIAN).position(3).mark().limit(5);
              return null;
            });
      }
    }
  }

  /** A decoder that throws: the same exception reaches the caller, and the pin is gone. */
  @Test
  void aDecoderThatThrowsReleasesThePinAndItsExceptionReachesTheCaller() throws Exception {
    for (Reader r : doors()) {
      RuntimeException thrown = new IllegalStateException("the decoder's own");
      ByteBuffer[] seen = new ByteBuffer[1];
      RuntimeException got =
          assertThrows(
              RuntimeException.class,
              () ->
                  r.get(
                      NAME,
                      v -> {
                        seen[0] = v;
                        throw thrown;
                      }));
      assertSame(thrown, got, "unchanged");
      assertEquals(0, got.getSuppressed().length, "nothing added to it");
      TestSupport.assertStale(seen[0]);
      Error error = new AssertionError("an Error too");
      assertSame(
          error,
          assertThrows(
              AssertionError.class,
              () ->
                  r.getLong(
                      COUNTER,
                      v -> {
                        throw error;
                      },
                      0)));
      assertEquals(COUNT, r.getLong(COUNTER, Decoders.longBE(), -1), "the next read works");
    }
    // The pin is released: the last pin of a closed store would keep its database open, and a
    // database held open keeps its LOCK, so the path could not be opened again.
    Store store = Store.open(dir.resolve("lock"));
    store.put(COUNTER, new byte[8]);
    assertThrows(
        IllegalStateException.class,
        () ->
            store.get(
                COUNTER,
                v -> {
                  throw new IllegalStateException("boom");
                }));
    store.close();
    Store.open(dir.resolve("lock")).close();
  }

  /**
   * A decoder that keeps the buffer: the buffer itself has capacity 0 after the call, so reading it
   * throws (JNI cannot revoke a slice taken during the call: that is the documented undefined
   * case).
   */
  @Test
  void aKeptBufferIsEmptiedAfterTheCall() throws Exception {
    for (Reader r : doors()) {
      ByteBuffer kept = r.get(NAME, v -> v);
      TestSupport.assertStale(kept);
      ByteBuffer[] batchKept = new ByteBuffer[2];
      r.multiGet(ReadOptions.DEFAULT, new byte[][] {NAME, COUNTER}, v -> v, batchKept);
      TestSupport.assertStale(batchKept[0]);
      TestSupport.assertStale(batchKept[1]);
    }
  }

  /** A decoder that reads again, on the same thread and door, gets a pin of its own. */
  @Test
  void aDecoderMayReadThroughTheSameReader() throws Exception {
    for (Reader r : doors()) {
      String got =
          r.get(
              NAME,
              outer -> {
                long inner = r.getLong(COUNTER, Decoders.longBE(), -1);
                // The outer value is intact right after an inner read of another key.
                assertEquals(TEXT, Decoders.utf8().decode(outer.duplicate()));
                String again = r.get(NAME, Decoders.utf8());
                long[] batch = new long[1];
                r.multiGetLong(
                    ReadOptions.DEFAULT, new byte[][] {COUNTER}, Decoders.longBE(), -1, batch);
                byte[] last = r.get(SHORT, Decoders.bytes()); // another key read last
                assertEquals(COUNT, inner);
                assertEquals(COUNT, batch[0]);
                assertEquals(TEXT, again);
                assertArrayEquals(new byte[] {1, 2, 3}, last);
                return Decoders.utf8().decode(outer); // still the outer value
              });
      assertEquals(TEXT, got, r.getClass().getSimpleName());
    }
  }

  @Test
  void batchesDecodeEveryKeyInOrder() throws Exception {
    for (Reader r : doors()) {
      String door = r.getClass().getSimpleName();
      byte[][] keys = {NAME, MISSING, NAME};
      String[] out = {"x", "x", "x", "x"};
      r.multiGet(ReadOptions.DEFAULT, keys, Decoders.utf8(), out);
      assertArrayEquals(
          new String[] {TEXT, null, TEXT, "x"}, out, door + ": past keys.length unchanged");
      long[] longs = {9, 9, 9};
      r.multiGetLong(
          ReadOptions.DEFAULT, new byte[][] {COUNTER, MISSING}, Decoders.longBE(), -5, longs);
      assertArrayEquals(new long[] {COUNT, -5, 9}, longs, door);
      // A decoder that throws midway: values before it, null after, its exception unchanged.
      RuntimeException thrown = new UnsupportedOperationException("second");
      AtomicInteger calls = new AtomicInteger();
      Object[] partial = new Object[3];
      assertSame(
          thrown,
          assertThrows(
              RuntimeException.class,
              () ->
                  r.multiGet(
                      ReadOptions.DEFAULT,
                      new byte[][] {NAME, NAME, NAME},
                      v -> {
                        if (calls.incrementAndGet() == 2) {
                          throw thrown;
                        }
                        return "ok";
                      },
                      partial)));
      assertArrayEquals(new Object[] {"ok", null, null}, partial, door);
      // A refused batch reads nothing and leaves every element of out null (or missing).
      Object[] refused = {"a", "b", "c"};
      assertThrows(
          IllegalArgumentException.class,
          () -> r.multiGet(ReadOptions.DEFAULT, new byte[][] {NAME, {}}, Decoders.utf8(), refused));
      assertArrayEquals(new Object[3], refused, door);
      long[] refusedLongs = {1, 2};
      assertThrows(
          IllegalArgumentException.class,
          () ->
              r.multiGetLong(
                  ReadOptions.DEFAULT,
                  new byte[][] {COUNTER, COUNTER, COUNTER},
                  Decoders.longBE(),
                  -1,
                  refusedLongs));
      assertArrayEquals(new long[] {-1, -1}, refusedLongs, door);
      // An empty batch is fine.
      r.multiGet(ReadOptions.DEFAULT, new byte[0][], Decoders.utf8(), new String[0]);
    }
  }

  @Test
  void aClosedStoreThrowsStoreClosedException() throws Exception {
    for (Reader r : doors()) {
      r.close();
      assertThrows(StoreClosedException.class, () -> r.get(NAME, Decoders.utf8()));
      assertThrows(StoreClosedException.class, () -> r.getLong(COUNTER, Decoders.longBE(), 0));
      assertThrows(
          StoreClosedException.class,
          () ->
              r.multiGet(ReadOptions.DEFAULT, new byte[][] {NAME}, Decoders.utf8(), new String[1]));
    }
  }

  /** docs/strategies.md's decode rows, counted, from the memtable (P = 1) and the cache (P = 0). */
  @Test
  void countsMatchTheStrategyTable() {
    Store store = store("counts");
    for (int p = 1; p >= 0; p--) {
      if (p == 0) {
        store.flush();
      }
      store.get(NAME, Decoders.utf8()); // warm: the cache filled
      expect(p, 1, 1, "long_decode_on_read", () -> store.getLong(COUNTER, Decoders.longBE(), 0));
      expect(
          p,
          0,
          1,
          "long_decode_on_read",
          () ->
              store.getLong(
                  ReadOptions.DEFAULT, TestSupport.direct(COUNTER), Decoders.longBE(), 0));
      expect(p, 1, 1, "utf8_decode_on_read", () -> store.get(NAME, Decoders.utf8()));
      expect(p, 1, 1, "bytes_decode_on_read", () -> store.get(NAME, Decoders.bytes()));
      long[] out = new long[3];
      byte[][] keys = {COUNTER, COUNTER, COUNTER};
      expect(
          p,
          3,
          3,
          "multiget_long_decode_on_read",
          () -> {
            store.multiGetLong(ReadOptions.DEFAULT, keys, Decoders.longBE(), 0, out);
            return out;
          });
    }
  }

  /**
   * Values on both sides of the slot's copy limit (copied into it up to CallSlot.SMALL bytes,
   * pinned above), through both native doors, from the memtable (P = 1) and the cache (P = 0): the
   * decoder sees exactly the value, the buffer it kept is emptied, and the copies are P + 1 for a
   * copied value and P for a pinned one, as docs/strategies.md says of decode on read.
   */
  @Test
  void valuesEitherSideOfTheCopyLimitDecodeAlikeAndCountTheirCopies() throws Exception {
    int limit = CallSlot.SMALL;
    int[] sizes = {0, 1, limit - 1, limit, limit + 1, 4 * limit};
    Store store = keep(Store.open(dir.resolve("limit"), TestSupport.bigMemtable()));
    RocksDB.loadLibrary();
    RocksDB db = keep(RocksDB.open(dir.resolve("limit-rocksjava").toString()));
    Store reader = keep(RocksJavaReader.open(db)).store();
    java.util.Random random = new java.util.Random(7);
    byte[][] values = new byte[sizes.length][];
    for (int i = 0; i < sizes.length; i++) {
      values[i] = new byte[sizes[i]];
      random.nextBytes(values[i]);
      store.put(bytes("v" + i), values[i]);
      db.put(bytes("v" + i), values[i]);
    }
    for (int p = 1; p >= 0; p--) {
      if (p == 0) {
        store.flush();
        db.flush(new org.rocksdb.FlushOptions().setWaitForFlush(true));
      }
      for (Reader r : List.<Reader>of(store, reader)) {
        for (int i = 0; i < sizes.length; i++) {
          String what = r.getClass().getSimpleName() + ", " + sizes[i] + " B at P = " + p;
          byte[] key = bytes("v" + i);
          ValueDecoder<byte[]> copy =
              v -> {
                assertEquals(0, v.position(), what);
                byte[] out = new byte[v.remaining()];
                v.get(out);
                return out;
              };
          assertArrayEquals(values[i], r.get(key, copy), what); // warm: the cache filled
          CopyStats before = CopyStats.current();
          assertArrayEquals(values[i], r.get(key, copy), what);
          CopyStats d = CopyStats.current().minus(before);
          boolean copied = sizes[i] <= limit && Views.JAVA_REPOINTED;
          assertEquals(copied ? p + 1 : p, d.valueCopies(), what + ": copies");
          assertEquals(0, d.allocations(), what + ": allocations");
          TestSupport.assertStale(r.get(key, v -> v));
          assertEquals(
              sizes[i] >= 8 ? ByteBuffer.wrap(values[i]).getLong() : -2,
              r.getLong(key, v -> v.remaining() >= 8 ? v.getLong(0) : -2, -1),
              what);
        }
      }
    }
  }

  /**
   * docs/strategies.md's copies for a row at P. Where native code re-points the views (JDK 24+, or
   * -Dpinget.views.nativeRepoint=true), small values are pinned, not copied: the table's P + 1 rows
   * of decode on read (the long, utf8 and avro rows) count P there, as the table's note says.
   */
  private static int tableCopies(StrategyTable.Row r, String row, int p) {
    boolean smallCopy =
        row.equals("long_decode_on_read")
            || row.equals("utf8_decode_on_read")
            || row.equals("avro_decode_on_read")
            || row.equals("avro_decode_on_read_in_place")
            || row.equals("rocksjava_long_decode_on_read");
    return smallCopy && !Views.JAVA_REPOINTED ? p : r.copies(p);
  }

  private static void expect(
      int p, int keyCopies, int gets, String row, java.util.function.Supplier<?> read) {
    read.get();
    StrategyTable.Row r = StrategyTable.get("jni", row);
    CopyStats before = CopyStats.current();
    read.get();
    CopyStats d = CopyStats.current().minus(before);
    String what = row + " at P = " + p;
    assertEquals(gets * tableCopies(r, row, p), d.valueCopies(), what + ": copies");
    assertEquals(gets * r.allocations(p), d.allocations(), what + ": allocations");
    assertEquals(keyCopies, d.keyCopies(), what + ": key copies");
  }

  @Test
  void rocksJavaCountsMatchTheStrategyTable() throws Exception {
    RocksDB.loadLibrary();
    RocksDB db = keep(RocksDB.open(dir.resolve("rocksjava-counts").toString()));
    db.put(COUNTER, ByteBuffer.allocate(8).putLong(0, COUNT).array());
    Store reader = keep(RocksJavaReader.open(db)).store();
    expect(1, 1, 1, "long_decode_on_read", () -> reader.getLong(COUNTER, Decoders.longBE(), 0));
    StrategyTable.Row row = StrategyTable.get("rocksjava", "rocksjava_long_decode_on_read");
    CopyStats before = CopyStats.current();
    assertEquals(COUNT, reader.getLong(COUNTER, Decoders.longBE(), 0));
    CopyStats d = CopyStats.current().minus(before);
    assertEquals(tableCopies(row, "rocksjava_long_decode_on_read", 1), d.valueCopies());
    assertEquals(row.allocations(1), d.allocations());
  }

  /** The allocation-free rows allocate no Java heap once warm: getLong, and its batch. */
  @Test
  void decodedLongsAllocateNoJavaHeap() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
    assumeTrue(mx.isThreadAllocatedMemorySupported());
    mx.setThreadAllocatedMemoryEnabled(true);
    Store store = store("alloc");
    store.flush();
    assertTrue(StrategyTable.get("jni", "long_decode_on_read").free());
    ByteBuffer directKey = TestSupport.direct(COUNTER);
    byte[][] keys = {COUNTER, MISSING, COUNTER};
    long[] out = new long[3];
    List<LongRead> reads =
        List.of(
            i -> store.getLong(COUNTER, Decoders.longBE(), i),
            i -> store.getLong(ReadOptions.DEFAULT, directKey, Decoders.longLE(), i),
            i -> {
              store.multiGetLong(ReadOptions.DEFAULT, keys, Decoders.longBE(), i, out);
              return out[1];
            });
    for (int k = 0; k < reads.size(); k++) {
      LongRead read = reads.get(k);
      long sum = 0;
      long allocated = 0;
      for (int round = 0; round < 3; round++) { // the last round counts: warm by then
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 20_000; i++) {
          sum += read.read(i);
        }
        allocated = mx.getCurrentThreadAllocatedBytes() - before;
      }
      System.out.printf("decoded read %d: %d bytes for 20,000 reads%n", k, allocated);
      // One object per read would be 16 bytes or more each (320,000); the JIT's own bookkeeping
      // (a deoptimization, a recompiled loop) may show a few hundred bytes once in a suite.
      assertTrue(allocated < 20_000, "read " + k + ": " + allocated + " bytes for 20,000 reads");
      assertTrue(sum != 42);
    }
  }

  interface LongRead {
    long read(int i);
  }
}
