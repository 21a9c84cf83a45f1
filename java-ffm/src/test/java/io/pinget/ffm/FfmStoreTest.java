// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pinget.ColumnFamily;
import io.pinget.Compression;
import io.pinget.CopyStats;
import io.pinget.Options;
import io.pinget.PinnedView;
import io.pinget.ReadOptions;
import io.pinget.Reader;
import io.pinget.Snapshot;
import io.pinget.Store;
import io.pinget.StoreClosedException;
import io.pinget.Strategy;
import io.pinget.TestSupport;
import io.pinget.WriteBatch;
import io.pinget.WriteOptions;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FfmStoreTest {
  private static final byte[] KEY = "key".getBytes(StandardCharsets.UTF_8);
  private static final byte[] MISSING = "missing".getBytes(StandardCharsets.UTF_8);

  private Path dir;
  private byte[] value;

  @BeforeEach
  void setUp() throws IOException {
    Path root = Paths.get(System.getProperty("pinget.test.dir", "target/test-stores"));
    Files.createDirectories(root);
    dir = Files.createTempDirectory(root, "ffm");
    value = new byte[4096];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) (i * 31 + 7);
    }
  }

  @AfterEach
  void tearDown() throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private FfmStore open() {
    return FfmStore.open(dir.resolve("db"), new Options().compression(Compression.NONE));
  }

  /**
   * Every strategy's bytes and copies, from the memtable (P = 1) and the block cache (P = 0): each
   * of the JNI door's {@link Strategy} values that does not lend a view is read through FfmStore's
   * method of the same name and parameters (the doors cannot disagree on one); then the FFM door's
   * own reads (its view, its copy into a segment) and its batches.
   */
  @Test
  void strategiesReadTheValueWithTheirCopyCounts() {
    try (FfmStore store = open();
        FfmPinnedView view = store.newPinnedView()) {
      Reader sameNames = sameNames(store);
      byte[][] keys = {KEY, KEY, MISSING}; // the batches': two found, one missing
      int[] sizes = new int[keys.length];
      byte[][] dsts = {new byte[value.length], new byte[value.length], new byte[1]};
      ByteBuffer[] directs = new ByteBuffer[keys.length];
      for (int i = 0; i < keys.length; i++) {
        directs[i] = ByteBuffer.allocateDirect(value.length);
      }
      store.put(KEY, value);
      for (int p = 1; p >= 0; p--) {
        if (p == 0) {
          store.flush();
        }
        // Steady state: the cache filled, the view's copy buffer grown.
        assertNotNull(view.get(KEY));
        assertNotNull(store.pinnableCopy(KEY));
        assertNotNull(store.stringCopy(KEY)); // this thread's lent string grown
        store.multiGetBufferCopy(ReadOptions.DEFAULT, keys, dsts, sizes); // its batch grown
        CopyStats.reset();
        for (Strategy s : Strategy.values()) {
          if (s != Strategy.PINNED_VIEW) { // the FFM view lends a segment: read below
            Strategy.Into into = // new destinations: a copy that went elsewhere fails
                new Strategy.Into(
                    null, new byte[value.length], ByteBuffer.allocateDirect(value.length));
            assertArrayEquals(value, s.bytes(sameNames, into, KEY), s.token());
            assertCopies(p, 1, "ffm_" + s.token());
          }
        }

        MemorySegment pinned = view.get(KEY);
        assertArrayEquals(value, pinned.toArray(JAVA_BYTE));
        assertCopies(p, 1, "ffm_pinned_view");

        try (Arena arena = Arena.ofConfined()) {
          MemorySegment segment = arena.allocate(value.length);
          assertEquals(value.length, store.copyInto(KEY, segment));
          assertArrayEquals(value, segment.toArray(JAVA_BYTE));
        }
        assertCopies(p, 1, "ffm_copy_into");

        // The Store's batches copy each key in (3). Destinations emptied: the warm-up filled them.
        for (byte[] d : dsts) {
          java.util.Arrays.fill(d, (byte) 0);
        }
        java.util.Arrays.fill(sizes, -2);
        store.multiGetBufferCopy(ReadOptions.DEFAULT, keys, dsts, sizes);
        assertArrayEquals(value, dsts[1]);
        assertArrayEquals(new int[] {value.length, value.length, FfmStore.NOT_FOUND}, sizes);
        assertCopies(p, 2, "ffm_multiget_buffer_copy", keys.length);
        for (ByteBuffer d : directs) {
          d.put(0, new byte[d.capacity()]);
        }
        java.util.Arrays.fill(sizes, -2);
        store.multiGetDirectCopy(ReadOptions.DEFAULT, keys, directs, sizes);
        assertArrayEquals(value, TestSupport.toArray(directs[0]));
        assertArrayEquals(new int[] {value.length, value.length, FfmStore.NOT_FOUND}, sizes);
        assertCopies(p, 2, "ffm_multiget_direct_copy", keys.length);
      }
      // At an offset; and a too-small buffer gets the prefix and the full size.
      byte[] dst = new byte[value.length + 10];
      assertEquals(value.length, store.bufferCopy(KEY, dst, 10, value.length));
      assertArrayEquals(value, java.util.Arrays.copyOfRange(dst, 10, dst.length));
      byte[] small = new byte[10];
      assertEquals(value.length, store.bufferCopy(KEY, small, 0, small.length));
      assertArrayEquals(java.util.Arrays.copyOf(value, 10), small);
    }
  }

  /**
   * A {@link Reader} whose every call is FfmStore's method of the same name and parameter types;
   * one that FfmStore lacks fails the test.
   */
  private static Reader sameNames(FfmStore store) {
    return (Reader)
        Proxy.newProxyInstance(
            Reader.class.getClassLoader(),
            new Class<?>[] {Reader.class},
            (proxy, method, args) -> {
              Method same;
              try {
                same = FfmStore.class.getMethod(method.getName(), method.getParameterTypes());
              } catch (NoSuchMethodException e) {
                throw new AssertionError("FfmStore has no " + method + ": the doors disagree", e);
              }
              try {
                return same.invoke(store, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  /** ReadOptions.withPinMemtable: a memtable hit lent in place, the same bytes as the plain get. */
  @Test
  void pinMemtableLendsMemtableHitsWithoutACopy() {
    ReadOptions pin = ReadOptions.DEFAULT.withPinMemtable(true);
    try (FfmStore store = open();
        FfmPinnedView view = store.newPinnedView()) {
      store.put(KEY, value);
      assertNotNull(view.get(KEY)); // grows the view's copy buffer once
      for (int round = 0; round < 2; round++) {
        CopyStats.reset();
        assertArrayEquals(value, view.get(pin, KEY).toArray(JAVA_BYTE));
        assertCopies(1, 1, "ffm_pinned_view_pin_memtable");
        assertArrayEquals(value, view.get(KEY).toArray(JAVA_BYTE));
        assertCopies(1, 1, "ffm_pinned_view");
      }
      byte[] newer = "newer".getBytes(StandardCharsets.UTF_8);
      store.put(KEY, newer);
      assertArrayEquals(newer, view.get(pin, KEY).toArray(JAVA_BYTE));
      store.delete(KEY);
      assertNull(view.get(pin, KEY));
    }
  }

  /** The counts of gets of a row of docs/strategies.md (the one table), at P = p. */
  private static void assertCopies(int p, int gets, String row) {
    // The binding copies keys into native memory uncounted (Slots.key): C++ copies none.
    assertCopies(p, gets, row, 0);
  }

  private static void assertCopies(int p, int gets, String row, int keyCopies) {
    io.pinget.contract.StrategyTable.Row r = io.pinget.contract.StrategyTable.get("ffm", row);
    String what = gets + " x " + row + " at P = " + p;
    CopyStats s = CopyStats.current();
    assertEquals(gets * r.copies(p), s.valueCopies(), what + " copies");
    assertEquals(gets * r.allocations(p), s.allocations(), what + " allocations");
    assertEquals(keyCopies, s.keyCopies(), what + " key copies");
    CopyStats.reset();
  }

  /** pinnableCopy pins for the call only: afterwards a close closes the database at once. */
  @Test
  void aClosedStoreOpensAgainAfterPinnableCopy() {
    FfmStore store = open();
    store.put(KEY, value);
    assertArrayEquals(value, store.pinnableCopy(KEY));
    store.close();
    open().close(); // the LOCK is free: nothing of this thread holds the database
  }

  @Test
  void missingKeysAreNotErrors() {
    try (FfmStore store = open();
        FfmPinnedView view = store.newPinnedView()) {
      store.put(KEY, value);
      assertNull(view.get(MISSING));
      assertNull(store.stringCopy(MISSING));
      assertNull(store.pinnableCopy(MISSING));
      assertEquals(FfmStore.NOT_FOUND, store.bufferCopy(MISSING, new byte[8], 0, 8));
      assertEquals(FfmStore.NOT_FOUND, store.directCopy(MISSING, ByteBuffer.allocateDirect(8)));
      store.delete(KEY);
      assertNull(view.get(KEY));
    }
  }

  /**
   * The copies take keys through the thread's native key slot (256 bytes at first): a longer key
   * grows it, and a shorter one after it is read by its own length, not the slot's.
   */
  @Test
  void keysLongerThanTheKeySlotAreReadWhole() {
    byte[] longKey = new byte[1000];
    java.util.Arrays.fill(longKey, (byte) 'k');
    byte[] prefix = java.util.Arrays.copyOf(longKey, 300);
    try (FfmStore store = open();
        Arena arena = Arena.ofConfined()) {
      store.put(longKey, value);
      store.put(prefix, KEY);
      byte[] dst = new byte[value.length];
      ByteBuffer direct = ByteBuffer.allocateDirect(value.length);
      MemorySegment segment = arena.allocate(value.length);
      for (int round = 0; round < 2; round++) {
        assertEquals(value.length, store.bufferCopy(longKey, dst, 0, dst.length));
        assertArrayEquals(value, dst);
        assertEquals(value.length, store.directCopy(longKey, direct));
        assertArrayEquals(value, TestSupport.toArray(direct));
        assertEquals(value.length, store.copyInto(longKey, segment));
        assertArrayEquals(value, segment.toArray(JAVA_BYTE));
        assertEquals(KEY.length, store.bufferCopy(prefix, dst, 0, dst.length));
        assertEquals(KEY.length, store.copyInto(prefix, segment));
        assertArrayEquals(KEY, segment.asSlice(0, KEY.length).toArray(JAVA_BYTE));
      }
    }
  }

  /** The enforcement this binding exists for: a released value cannot be read any more. */
  @Test
  @SuppressWarnings("try") // closes the view inside its try, on purpose
  void aReleasedValueItsSliceAndItsByteBufferThrow() {
    try (FfmStore store = open();
        FfmPinnedView view = store.newPinnedView()) {
      store.put(KEY, value);
      store.put(MISSING, new byte[] {1, 2, 3});
      store.flush();
      for (Runnable releaser :
          List.<Runnable>of(() -> view.get(MISSING), view::release, view::close)) {
        MemorySegment segment = view.get(KEY);
        MemorySegment slice = segment.asSlice(100, 10);
        ByteBuffer buffer = segment.asByteBuffer();
        ByteBuffer bufferSlice = buffer.slice(5, 5);
        assertEquals(value[100], slice.get(JAVA_BYTE, 0));
        assertEquals(value[0], buffer.get(0));
        assertTrue(buffer.isReadOnly());
        releaser.run();
        assertThrows(IllegalStateException.class, () -> segment.get(JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> slice.get(JAVA_BYTE, 0));
        assertThrows(IllegalStateException.class, () -> buffer.get(0));
        assertThrows(IllegalStateException.class, () -> bufferSlice.get(0));
        assertThrows(IllegalStateException.class, () -> segment.toArray(JAVA_BYTE));
      }
      assertThrows(IllegalStateException.class, () -> view.get(KEY));
      view.release(); // idempotent after close
      view.close();
    }
  }

  /** The JNI view's slice, by contrast, still reads after its view was released. */
  @Test
  void aJniViewsSliceDoesNotThrowAfterRelease() {
    try (Store store = Store.open(dir.resolve("jni"));
        PinnedView view = store.newPinnedView()) {
      store.put(KEY, value);
      store.flush();
      ByteBuffer slice = view.get(KEY).slice();
      view.release();
      // The block is still cached, so this read is of live memory; after an eviction it would not
      // be. Nothing tells the reader.
      assertEquals(value[0], slice.get(0));
    }
  }

  @Test
  void valuesAreReadOnly() {
    try (FfmStore store = open();
        FfmPinnedView view = store.newPinnedView()) {
      store.put(KEY, value);
      MemorySegment segment = view.get(KEY);
      assertTrue(segment.isReadOnly());
      assertThrows(IllegalArgumentException.class, () -> segment.set(JAVA_BYTE, 0, (byte) 1));
      assertThrows(ReadOnlyBufferException.class, () -> segment.asByteBuffer().put(0, (byte) 1));
    }
  }

  @Test
  void buffersAndSegmentsOfAClosedArenaAreRefused() {
    try (FfmStore store = open()) {
      store.put(KEY, value);
      Arena arena = Arena.ofConfined();
      MemorySegment segment = arena.allocate(value.length);
      ByteBuffer buffer = segment.asByteBuffer();
      arena.close();
      assertThrows(IllegalStateException.class, () -> store.copyInto(KEY, segment));
      assertThrows(IllegalStateException.class, () -> store.directCopy(KEY, buffer));
      // The store is unharmed.
      assertArrayEquals(value, store.stringCopy(KEY));
    }
  }

  /**
   * The thread keeps a segment over its last destination (Slots.dst): a destination that comes back
   * is still asked whether its Arena is open, and written from its position of this call.
   */
  @Test
  void aDestinationThatComesBackIsCheckedAndPlacedAnew() {
    try (FfmStore store = open()) {
      store.put(KEY, value);
      Arena arena = Arena.ofConfined();
      ByteBuffer buffer = arena.allocate(value.length + 3).asByteBuffer();
      assertEquals(value.length, store.directCopy(KEY, buffer));
      buffer.position(3);
      assertEquals(value.length, store.directCopy(KEY, buffer));
      byte[] read = new byte[value.length];
      buffer.get(3, read);
      assertArrayEquals(value, read);
      for (int i = value.length; i < buffer.capacity(); i++) {
        buffer.put(i, (byte) 0x5A);
      }
      // A shorter room: the value's size, and nothing written past the limit.
      assertEquals(value.length, store.directCopy(KEY, buffer.limit(value.length)));
      ByteBuffer all = buffer.duplicate().clear();
      for (int i = value.length; i < all.capacity(); i++) {
        assertEquals((byte) 0x5A, all.get(i), "past the limit at " + i);
      }
      arena.close();
      // pinget's own message: the kept segment was asked, not left to the downcall's refusal.
      assertEquals(
          "dst: already closed (the Arena behind it is closed)",
          assertThrows(IllegalStateException.class, () -> store.directCopy(KEY, buffer))
              .getMessage());
      byte[] dst = new byte[value.length + 2];
      assertEquals(value.length, store.bufferCopy(KEY, dst, 0, dst.length));
      assertEquals(value.length, store.bufferCopy(KEY, dst, 2, value.length));
      assertArrayEquals(value, java.util.Arrays.copyOfRange(dst, 2, dst.length));
    }
  }

  @Test
  void badArgumentsThrowAndNothingIsWritten() {
    try (FfmStore store = open();
        FfmPinnedView view = store.newPinnedView()) {
      assertThrows(NullPointerException.class, () -> view.get(null));
      assertThrows(NullPointerException.class, () -> store.put(null, value));
      assertThrows(IllegalArgumentException.class, () -> store.put(new byte[0], value));
      assertThrows(IllegalArgumentException.class, () -> view.get(new byte[0]));
      assertThrows(IllegalArgumentException.class, () -> store.stringCopy(new byte[0]));
      assertThrows(IndexOutOfBoundsException.class, () -> store.bufferCopy(KEY, new byte[4], 2, 4));
      assertThrows(
          ReadOnlyBufferException.class,
          () -> store.directCopy(KEY, ByteBuffer.allocateDirect(8).asReadOnlyBuffer()));
      assertThrows(
          IllegalArgumentException.class,
          () -> store.copyInto(KEY, MemorySegment.ofArray(new byte[8]).asReadOnly()));
      assertNull(store.stringCopy(KEY));
    }
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> FfmStore.open(dir.resolve("bad"), new Options().bloomBitsPerKey(1000)));
    assertTrue(e.getMessage().contains("bloom_bits_per_key"), e.getMessage());
  }

  @Test
  void aClosedStoreThrowsAndItsPinsStayReadable() {
    FfmStore store = open();
    FfmPinnedView view = store.newPinnedView();
    store.put(KEY, value);
    store.flush();
    MemorySegment held = view.get(KEY);
    store.close();
    store.close(); // idempotent
    assertArrayEquals(value, held.toArray(JAVA_BYTE)); // the pin keeps the database open
    assertThrows(StoreClosedException.class, () -> view.get(KEY));
    assertThrows(IllegalStateException.class, () -> held.get(JAVA_BYTE, 0));
    assertThrows(StoreClosedException.class, () -> store.stringCopy(KEY));
    assertThrows(StoreClosedException.class, () -> store.pinnableCopy(KEY));
    assertThrows(StoreClosedException.class, () -> store.bufferCopy(KEY, new byte[8], 0, 8));
    assertThrows(StoreClosedException.class, () -> store.put(KEY, value));
    assertThrows(StoreClosedException.class, () -> store.delete(KEY));
    assertThrows(StoreClosedException.class, store::flush);
    assertThrows(StoreClosedException.class, store::compact);
    assertThrows(StoreClosedException.class, store::newPinnedView);
    view.close();
    // The path can be opened again: nothing holds it.
    try (FfmStore again = open()) {
      assertArrayEquals(value, again.stringCopy(KEY));
    }
  }

  /** Readers racing a close: each read returns the value or throws StoreClosedException. */
  @Test
  void closeWaitsForReadersOnOtherThreads() throws Exception {
    FfmStore store = open();
    store.put(KEY, value);
    store.flush();
    int threads = 4;
    CountDownLatch started = new CountDownLatch(threads);
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    AtomicLong reads = new AtomicLong();
    Thread[] readers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int which = t;
      readers[t] =
          new Thread(
              () -> {
                byte[] dst = new byte[value.length];
                try (FfmPinnedView view = store.newPinnedView()) {
                  started.countDown();
                  while (true) {
                    if (which % 2 == 0) {
                      MemorySegment v = view.get(KEY);
                      if (v.byteSize() != value.length || v.get(JAVA_BYTE, 9) != value[9]) {
                        failures.add(new AssertionError("wrong bytes"));
                      }
                    } else if (store.bufferCopy(KEY, dst, 0, dst.length) != value.length
                        || dst[9] != value[9]) {
                      failures.add(new AssertionError("wrong bytes"));
                    }
                    reads.incrementAndGet();
                  }
                } catch (StoreClosedException expected) {
                  // the only way out
                } catch (Throwable other) {
                  failures.add(other);
                }
              });
      readers[t].start();
    }
    started.await();
    Thread.sleep(50);
    store.close();
    for (Thread t : readers) {
      t.join(10_000);
      assertTrue(!t.isAlive(), "a reader did not stop");
    }
    assertEquals(List.of(), failures);
    assertTrue(reads.get() > 0);
  }

  /** Both bindings in one JVM, one native library: the JNI API's counters see FFM reads. */
  @Test
  void theJniApiAndThisBindingShareTheLibraryAndItsCounters() {
    try (FfmStore ffm = open();
        Store jni = Store.open(dir.resolve("jni"));
        FfmPinnedView view = ffm.newPinnedView()) {
      ffm.put(KEY, value);
      jni.put(KEY, value);
      CopyStats.reset();
      assertArrayEquals(value, jni.stringCopy(KEY));
      long jniCopies = CopyStats.current().valueCopies();
      assertTrue(jniCopies >= 2, "string_copy from the memtable: " + jniCopies);
      assertEquals(value.length, view.get(KEY).byteSize());
      assertEquals(jniCopies + 1, CopyStats.current().valueCopies()); // P = 1: memtable
    }
  }

  /** A value is confined to the thread that got it; released, the view can change threads. */
  @Test
  void aValueIsReadByTheThreadThatGotIt() throws Exception {
    try (FfmStore store = open();
        FfmPinnedView view = store.newPinnedView()) {
      store.put(KEY, value);
      MemorySegment v = view.get(KEY);
      Throwable[] seen = new Throwable[2];
      Thread other =
          new Thread(
              () -> {
                try {
                  v.get(JAVA_BYTE, 0);
                } catch (Throwable t) {
                  seen[0] = t;
                }
                try {
                  view.get(KEY);
                } catch (Throwable t) {
                  seen[1] = t;
                }
              });
      other.start();
      other.join();
      assertTrue(seen[0] instanceof WrongThreadException, String.valueOf(seen[0]));
      assertTrue(seen[1] instanceof WrongThreadException, String.valueOf(seen[1]));
      assertEquals(value[0], v.get(JAVA_BYTE, 0)); // still held, on this thread
      view.release();
      assertThrows(IllegalStateException.class, () -> v.get(JAVA_BYTE, 0));
      Thread next =
          new Thread(
              () -> {
                MemorySegment w = view.get(KEY);
                seen[0] = w.get(JAVA_BYTE, 0) == value[0] ? null : new AssertionError("bytes");
                view.release();
              });
      next.start();
      next.join();
      assertNull(seen[0]);
    }
  }

  /** The pinned batch: every key's value in one call, revoked like a view's, large batches too. */
  @Test
  @SuppressWarnings("try") // closes the store and the batch inside their try, on purpose
  void aPinnedBatchReadsEveryKeyAndRevokesItsValues() {
    try (FfmStore store = open();
        FfmPinnedBatch batch = store.newPinnedBatch()) {
      byte[][] keys = new byte[100][];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = ("k" + i).getBytes(StandardCharsets.UTF_8);
        if (i != 1) {
          store.put(keys[i], java.util.Arrays.copyOf(value, 100 + i));
        }
      }
      store.flush();
      byte[][] three = {keys[0], keys[1], keys[2]};
      assertEquals(3, batch.get(three)); // fills the cache
      CopyStats.reset();
      assertEquals(3, batch.get(three));
      assertCopies(0, 3, "ffm_pinned_batch");
      MemorySegment v0 = batch.value(0);
      assertArrayEquals(java.util.Arrays.copyOf(value, 100), v0.toArray(JAVA_BYTE));
      assertNull(batch.value(1));
      assertEquals(102, batch.value(2).byteSize());
      assertTrue(v0.isReadOnly());
      assertThrows(IndexOutOfBoundsException.class, () -> batch.value(3));
      ByteBuffer b0 = v0.asByteBuffer();
      assertEquals(100, batch.get(keys)); // more than a critical call takes
      assertThrows(IllegalStateException.class, () -> v0.get(JAVA_BYTE, 0));
      assertThrows(IllegalStateException.class, () -> b0.get(0));
      for (int i = 0; i < keys.length; i++) {
        MemorySegment v = batch.value(i);
        if (i == 1) {
          assertNull(v);
        } else {
          assertEquals(100 + i, v.byteSize());
          assertEquals(value[99], v.get(JAVA_BYTE, 99));
        }
      }
      MemorySegment last = batch.value(99);
      batch.release();
      assertEquals(0, batch.count());
      assertThrows(IllegalStateException.class, () -> last.get(JAVA_BYTE, 0));
      assertEquals(0, batch.get(new byte[0][]));
      assertThrows(NullPointerException.class, () -> batch.get(new byte[][] {null}));
      assertThrows(IllegalArgumentException.class, () -> batch.get(new byte[][] {new byte[0]}));
      batch.get(three);
      MemorySegment held = batch.value(0);
      store.close();
      assertEquals(value[0], held.get(JAVA_BYTE, 0)); // pins outlive the store
      assertThrows(StoreClosedException.class, () -> batch.get(three));
      assertThrows(IllegalStateException.class, () -> held.get(JAVA_BYTE, 0));
      assertThrows(StoreClosedException.class, store::newPinnedBatch);
      batch.close();
      assertThrows(IllegalStateException.class, () -> batch.get(three));
    }
  }

  /** Column families, read options, snapshots (closed with reads in flight too), batched copies. */
  @Test
  void readOptionsColumnFamiliesSnapshotsAndBatchedCopies() throws Exception {
    byte[] other = "in other".getBytes(StandardCharsets.UTF_8);
    byte[] newer = "newer".getBytes(StandardCharsets.UTF_8);
    try (FfmStore store =
            FfmStore.open(
                dir.resolve("cf"),
                new Options().compression(Compression.NONE).columnFamilies("other"));
        FfmStore elsewhere = open();
        FfmPinnedView view = store.newPinnedView();
        FfmPinnedBatch batch = store.newPinnedBatch()) {
      ColumnFamily cf = store.columnFamily("other");
      assertEquals("other", cf.name());
      assertEquals(ColumnFamily.DEFAULT, store.columnFamily("default"));
      assertThrows(IllegalArgumentException.class, () -> store.columnFamily("none"));
      assertThrows(IllegalArgumentException.class, () -> store.columnFamily("bad\uD800"));
      store.put(WriteOptions.DEFAULT.withColumnFamily(cf), KEY, other);
      store.put(KEY, value);
      ReadOptions inOther = ReadOptions.DEFAULT.withColumnFamily(cf);
      assertArrayEquals(other, store.stringCopy(inOther, KEY));
      assertArrayEquals(other, view.get(inOther, KEY).toArray(JAVA_BYTE));
      assertArrayEquals(value, store.stringCopy(KEY));
      assertThrows(
          IllegalArgumentException.class,
          () ->
              store.stringCopy(
                  ReadOptions.DEFAULT.withColumnFamily(new ColumnFamily(store, 7, "x")), KEY));
      assertThrows(
          IllegalArgumentException.class,
          () -> elsewhere.stringCopy(inOther, KEY)); // another store's column family
      store.flush(cf);
      store.compact(cf);
      store.delete(WriteOptions.DEFAULT.withColumnFamily(cf), KEY);
      assertNull(store.pinnableCopy(inOther, KEY));

      Snapshot snapshot = store.snapshot();
      ReadOptions then = ReadOptions.DEFAULT.withSnapshot(snapshot).withVerifyChecksums(true);
      store.put(KEY, newer);
      assertArrayEquals(value, store.stringCopy(then, KEY));
      assertArrayEquals(value, store.pinnableCopy(then, KEY));
      assertArrayEquals(value, view.get(then, KEY).toArray(JAVA_BYTE));
      assertEquals(1, batch.get(then, new byte[][] {KEY}));
      assertArrayEquals(value, batch.value(0).toArray(JAVA_BYTE));
      byte[] dst = new byte[value.length];
      assertEquals(value.length, store.bufferCopy(then, KEY, dst, 0, dst.length));
      assertArrayEquals(newer, store.stringCopy(KEY));
      assertThrows(
          IllegalArgumentException.class,
          () -> elsewhere.stringCopy(then, KEY)); // another store's snapshot
      // Readers on other threads while the snapshot closes: each read sees the old value or
      // throws IllegalStateException; nothing else.
      List<Throwable> failures = new CopyOnWriteArrayList<>();
      Thread[] readers = new Thread[2];
      for (int t = 0; t < readers.length; t++) {
        readers[t] =
            new Thread(
                () -> {
                  try {
                    while (true) {
                      byte[] got = store.stringCopy(then, KEY);
                      if (got.length != value.length) {
                        failures.add(new AssertionError("wrong value"));
                      }
                    }
                  } catch (IllegalStateException expected) {
                    // the snapshot closed
                  } catch (Throwable other2) {
                    failures.add(other2);
                  }
                });
        readers[t].start();
      }
      Thread.sleep(20);
      snapshot.close();
      for (Thread t : readers) {
        t.join(10_000);
      }
      assertEquals(List.of(), failures);
      snapshot.close(); // idempotent
      assertThrows(IllegalStateException.class, () -> store.stringCopy(then, KEY));
      assertThrows(IllegalStateException.class, () -> view.get(then, KEY));
      assertThrows(
          IllegalStateException.class,
          () -> store.pinnableCopy(ReadOptions.DEFAULT.withSnapshot(snapshot), KEY));

      // fill_cache false: a value read from a file is copied out of a block not kept (P = 1).
      store.flush();
      ReadOptions noFill = ReadOptions.DEFAULT.withFillCache(false);
      try (FfmStore cold =
          FfmStore.open(
              dir.resolve("cf"),
              new Options().compression(Compression.NONE).columnFamilies("other"))) {
        fail("a second open of the same path must fail: " + cold);
      } catch (io.pinget.PingetException expected) {
        // the database is locked by store
      }
      CopyStats.reset();
      assertArrayEquals(newer, view.get(noFill, KEY).toArray(JAVA_BYTE));
      assertEquals(1, CopyStats.current().valueCopies()); // never cached: P = 1 each time
      CopyStats.reset();
      assertArrayEquals(newer, view.get(noFill, KEY).toArray(JAVA_BYTE));
      assertEquals(1, CopyStats.current().valueCopies());
      assertEquals(1, CopyStats.current().fileReads());

      // Batched direct_copy: every key, sizes or NOT_FOUND, P + 1 copies per found key.
      store.put(MISSING, value); // not flushed: memtable, P = 1
      store.delete(MISSING);
      byte[] two = "two".getBytes(StandardCharsets.UTF_8);
      store.put(two, value);
      store.flush();
      assertNotNull(store.stringCopy(two)); // into the cache
      assertNotNull(store.stringCopy(KEY));
      ByteBuffer[] dsts = {
        ByteBuffer.allocateDirect(16), ByteBuffer.allocateDirect(8), ByteBuffer.allocateDirect(10)
      };
      int[] sizes = new int[3];
      CopyStats.reset();
      store.multiGetDirectCopy(ReadOptions.DEFAULT, new byte[][] {KEY, MISSING, two}, dsts, sizes);
      assertEquals(2, CopyStats.current().valueCopies());
      assertEquals(newer.length, sizes[0]);
      assertEquals(FfmStore.NOT_FOUND, sizes[1]);
      assertEquals(value.length, sizes[2]); // more than the buffer: it got a prefix
      byte[] prefix = new byte[10];
      dsts[2].get(0, prefix);
      assertArrayEquals(java.util.Arrays.copyOf(value, 10), prefix);
      assertEquals(0, dsts[0].position());
      Arena arena = Arena.ofConfined();
      ByteBuffer dead = arena.allocate(16).asByteBuffer();
      arena.close();
      assertThrows(
          IllegalStateException.class,
          () ->
              store.multiGetDirectCopy(
                  ReadOptions.DEFAULT, new byte[][] {KEY}, new ByteBuffer[] {dead}, sizes));
      assertThrows(
          ReadOnlyBufferException.class,
          () ->
              store.multiGetDirectCopy(
                  ReadOptions.DEFAULT,
                  new byte[][] {KEY},
                  new ByteBuffer[] {dsts[0].asReadOnlyBuffer()},
                  sizes));
      assertThrows(
          IllegalArgumentException.class,
          () -> store.multiGetDirectCopy(ReadOptions.DEFAULT, new byte[][] {KEY}, dsts, sizes));
      store.multiGetDirectCopy(ReadOptions.DEFAULT, new byte[0][], new ByteBuffer[0], sizes);

      // Batched buffer_copy: the store's, P + 1 copies per found key.
      byte[][] arrays = {new byte[16], new byte[8], new byte[10]};
      int[] arraySizes = new int[3];
      CopyStats.reset();
      store.multiGetBufferCopy(
          ReadOptions.DEFAULT, new byte[][] {KEY, MISSING, two}, arrays, arraySizes);
      assertEquals(2, CopyStats.current().valueCopies());
      assertEquals(newer.length, arraySizes[0]);
      assertArrayEquals(newer, java.util.Arrays.copyOf(arrays[0], newer.length));
      assertEquals(FfmStore.NOT_FOUND, arraySizes[1]);
      assertEquals(value.length, arraySizes[2]);
      assertArrayEquals(java.util.Arrays.copyOf(value, 10), arrays[2]);
    }
  }

  /**
   * The FFM door over a JNI Store reads that store's database: what either door writes, with the
   * store's column families and snapshots, whichever door took them; closing either closes both.
   */
  @Test
  void theFfmDoorOverAStoreSharesItsDatabaseColumnFamiliesAndSnapshots() {
    byte[] older = "older".getBytes(StandardCharsets.UTF_8);
    byte[] newer = "newer".getBytes(StandardCharsets.UTF_8);
    Store jni = Store.open(dir.resolve("shared"), new Options().columnFamilies("cf"));
    FfmStore ffm = FfmStore.over(jni);
    assertSame(jni, ffm.store());
    ColumnFamily cf = jni.columnFamily("cf");
    jni.put(WriteOptions.DEFAULT.withColumnFamily(cf), KEY, 0, KEY.length, older, 0, older.length);
    ReadOptions inCf = ReadOptions.DEFAULT.withColumnFamily(cf);
    assertArrayEquals(older, ffm.pinnableCopy(inCf, KEY));
    try (Snapshot jniTaken = jni.snapshot();
        Snapshot ffmTaken = ffm.snapshot();
        FfmPinnedView view = ffm.newPinnedView()) {
      ffm.put(WriteOptions.DEFAULT.withColumnFamily(ffm.columnFamily("cf")), KEY, newer);
      for (Snapshot then : new Snapshot[] {jniTaken, ffmTaken}) {
        ReadOptions old = inCf.withSnapshot(then);
        assertArrayEquals(older, ffm.stringCopy(old, KEY));
        assertArrayEquals(older, view.get(old, KEY).toArray(JAVA_BYTE));
        assertArrayEquals(older, jni.stringCopy(old, KEY, 0, KEY.length));
      }
      assertArrayEquals(newer, jni.stringCopy(inCf, KEY, 0, KEY.length));
      assertArrayEquals(newer, ffm.stringCopy(inCf, KEY));
    }
    jni.close();
    assertTrue(ffm.isClosed());
    assertThrows(StoreClosedException.class, () -> ffm.stringCopy(KEY));
    ffm.close(); // idempotent, as the store's close
    assertThrows(NullPointerException.class, () -> FfmStore.over(null));
  }

  /**
   * A snapshot dropped unclosed after an FFM read goes with the next GC, and with it the database
   * its closed store kept open (the thread's cached native read options keep values, not the
   * ReadOptions: holding that kept the snapshot, and the database's LOCK, until the thread read
   * with other options).
   */
  @Test
  void aDroppedSnapshotReadThroughFfmLetsItsDatabaseGo() throws Exception {
    Path path = dir.resolve("dropped");
    FfmStore store = FfmStore.open(path);
    store.put(KEY, value);
    readWithADroppedSnapshot(store);
    store.close();
    long deadline = System.nanoTime() + 20_000_000_000L;
    for (; ; ) {
      try {
        FfmStore.open(path).close();
        return;
      } catch (io.pinget.PingetException stillOpen) {
        if (System.nanoTime() > deadline) {
          throw stillOpen;
        }
        System.gc();
        Thread.sleep(20);
      }
    }
  }

  private void readWithADroppedSnapshot(FfmStore store) {
    ReadOptions then = ReadOptions.DEFAULT.withSnapshot(store.snapshot());
    assertArrayEquals(value, store.stringCopy(then, KEY));
  }

  /**
   * A RocksJavaReader's store is refused: its JNI calls check first that RocksJava has not closed
   * the database or column family, which reads over its handle could not.
   */
  @Test
  void theFfmDoorRefusesAStoreOverARocksJavaDatabase() throws Exception {
    org.rocksdb.RocksDB.loadLibrary();
    try (org.rocksdb.Options options = new org.rocksdb.Options().setCreateIfMissing(true);
        org.rocksdb.RocksDB db = org.rocksdb.RocksDB.open(options, dir.resolve("rj").toString());
        io.pinget.rocksjava.RocksJavaReader reader = io.pinget.rocksjava.RocksJavaReader.open(db)) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> FfmStore.over(reader.store()));
      assertTrue(e.getMessage().contains("RocksJava"), e.getMessage());
    }
  }

  /** Write batches apply all or nothing; write options reach RocksDB's writes. */
  @Test
  @SuppressWarnings("try") // closes the store and the batch inside their try, on purpose
  void writeBatchesAndWriteOptions() {
    byte[] a = "a".getBytes(StandardCharsets.UTF_8);
    byte[] b = "b".getBytes(StandardCharsets.UTF_8);
    try (FfmStore store = open();
        WriteBatch batch = new WriteBatch()) {
      WriteOptions synced = WriteOptions.DEFAULT.withSync(true);
      store.put(synced, KEY, value);
      store.put(WriteOptions.DEFAULT.withDisableWal(true), a, value);
      batch.put(b, value).delete(KEY).delete(a);
      assertEquals(3, batch.count());
      store.write(synced, batch);
      assertNull(store.stringCopy(KEY));
      assertNull(store.stringCopy(a));
      assertArrayEquals(value, store.stringCopy(b));
      batch.clear();
      assertEquals(0, batch.count());
      batch.put(KEY, value);
      // An empty key is refused by the put, which adds nothing.
      assertThrows(IllegalArgumentException.class, () -> batch.put(new byte[0], value));
      assertEquals(1, batch.count());
      batch.clear();
      batch.put(new ColumnFamily(store, 9, "nine"), KEY, value);
      assertThrows(IllegalArgumentException.class, () -> store.write(WriteOptions.DEFAULT, batch));
      assertNull(store.stringCopy(KEY)); // nothing applied
      store.delete(synced, b);
      assertNull(store.stringCopy(b));
      assertThrows(
          IllegalArgumentException.class,
          () ->
              store.write(
                  WriteOptions.DEFAULT.withColumnFamily(new ColumnFamily(this, 1, "x")), batch));
      batch.close();
      batch.close();
      assertThrows(IllegalStateException.class, () -> batch.put(KEY, value));
      assertThrows(IllegalStateException.class, () -> store.write(WriteOptions.DEFAULT, batch));
      store.close();
      try (WriteBatch other = new WriteBatch()) {
        other.put(KEY, value);
        assertThrows(StoreClosedException.class, () -> store.write(WriteOptions.DEFAULT, other));
      }
    }
  }

  /**
   * A batch built inline is unreachable once write() has its handle; its Cleaner must not free it
   * while pinget_write runs (it did, under GC: a SIGSEGV that ends the JVM, so this test fails by
   * crashing the test JVM).
   */
  @Test
  void aWriteBatchBuiltInlineSurvivesGarbageCollectionDuringTheWrite() throws Exception {
    try (FfmStore store = open()) {
      java.util.concurrent.atomic.AtomicBoolean done =
          new java.util.concurrent.atomic.AtomicBoolean();
      Thread collector =
          new Thread(
              () -> {
                while (!done.get()) {
                  System.gc();
                }
              });
      collector.start();
      try {
        // Batches of 256 KiB: their memory comes from mmap, so a batch freed under the write
        // is unmapped, and reading it faults.
        for (int i = 0; i < 1000; i++) {
          store.write(WriteOptions.DEFAULT, bigBatch(i));
        }
      } finally {
        done.set(true);
        collector.join();
      }
      assertArrayEquals(value, store.stringCopy("gc-999-63".getBytes(StandardCharsets.UTF_8)));
    }
  }

  private WriteBatch bigBatch(int i) {
    WriteBatch batch = new WriteBatch();
    for (int j = 0; j < 64; j++) {
      batch.put(("gc-" + i + "-" + j).getBytes(StandardCharsets.UTF_8), value);
    }
    return batch;
  }
}
