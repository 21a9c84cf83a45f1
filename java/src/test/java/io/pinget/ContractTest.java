// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The contract of Store's javadoc and docs/design.md, from Java: messages name their code once,
 * checks fire in one order (closed store, then arguments, then options) for single and batched
 * reads alike, a batch of 0 keys is checked as a batch of 1, the constant tables agree with the
 * native ones, and every option at its extremes gives a clear exception or works.
 */
class ContractTest {
  private static final byte[] KEY = bytes("key");

  private Path dir;
  private Store store;

  @BeforeEach
  void open() {
    dir = TestSupport.newDir("contract");
    store = Store.open(dir.resolve("db"));
    store.put(KEY, bytes("value"));
  }

  @AfterEach
  void close() {
    store.close();
    TestSupport.deleteTree(dir);
  }

  @Test
  void everyMessageNamesItsCodeOnce() throws Exception {
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () -> Store.open(dir.resolve("missing"), new Options().createIfMissing(false)));
    assertTrue(missing.getMessage().startsWith("InvalidArgument: "), missing.getMessage());
    assertFalse(missing.getMessage().contains("Invalid argument"), missing.getMessage());

    Path file = Files.writeString(dir.resolve("file"), "not a database");
    PingetException io = assertThrows(PingetException.class, () -> Store.open(file));
    assertEquals(PingetException.Code.IO_ERROR, io.code());
    assertTrue(io.getMessage().startsWith("IOError: "), io.getMessage());
    assertFalse(io.getMessage().contains("IO error"), io.getMessage());

    // A name beyond the BMP (4 bytes in UTF-8, not valid modified UTF-8 for JNI) in a message:
    // escaped as \xNN, so the message reaches Java intact under -Xcheck:jni.
    IllegalArgumentException emoji =
        assertThrows(
            IllegalArgumentException.class,
            () -> Store.open(dir.resolve("db-\uD83D\uDE00"), new Options().createIfMissing(false)));
    assertTrue(emoji.getMessage().contains("db-\\xf0\\x9f\\x98\\x80"), emoji.getMessage());

    store.close();
    StoreClosedException closed =
        assertThrows(StoreClosedException.class, () -> store.stringCopy(KEY));
    assertEquals("Closed: store is closed", closed.getMessage());
  }

  /** Every read, single and batched (empty batches included), with the given arguments. */
  private static Map<String, Executable> reads(
      Store store, ReadOptions ro, byte[] key, PinnedView view, PinnedBatch batch) {
    byte[][] one = {key};
    byte[][] none = {};
    Map<String, Executable> reads = new LinkedHashMap<>();
    reads.put("stringCopy", () -> store.stringCopy(ro, key, 0, key == null ? 0 : key.length));
    reads.put("pinnableCopy", () -> store.pinnableCopy(ro, key, 0, 3));
    reads.put("bufferCopy", () -> store.bufferCopy(ro, key, 0, 3, null, 0, 0));
    reads.put("directCopy", () -> store.directCopy(ro, key, 0, 3, null));
    reads.put("pinnedValue", () -> store.pinnedValue(ro, key, 0, 3));
    reads.put("PinnedView.get", () -> view.get(ro, key, 0, 3));
    for (byte[][] keys : new byte[][][] {one, none}) {
      String n = "(" + keys.length + " keys)";
      reads.put("PinnedBatch.get" + n, () -> batch.get(ro, keys));
      reads.put(
          "multiGetBufferCopy" + n,
          () -> store.multiGetBufferCopy(ro, keys, new byte[keys.length][], new int[keys.length]));
      reads.put(
          "multiGetDirectCopy" + n,
          () ->
              store.multiGetDirectCopy(
                  ro, keys, new ByteBuffer[keys.length], new int[keys.length]));
    }
    return reads;
  }

  private static <T extends Throwable> void assertAllThrow(
      Class<T> type, Map<String, Executable> calls) {
    List<String> wrong = new ArrayList<>();
    for (Map.Entry<String, Executable> call : calls.entrySet()) {
      try {
        call.getValue().execute();
        wrong.add(call.getKey() + ": returned");
      } catch (Throwable t) {
        if (!type.isInstance(t)) {
          wrong.add(call.getKey() + ": " + t);
        }
      }
    }
    assertTrue(wrong.isEmpty(), "expected " + type.getSimpleName() + ": " + wrong);
  }

  @Test
  void aClosedStoreComesBeforeEveryArgumentAndOption() {
    Store other = Store.open(dir.resolve("other"), new Options().columnFamilies("cf"));
    ReadOptions foreign = ReadOptions.DEFAULT.withColumnFamily(other.columnFamily("cf"));
    PinnedView view = store.newPinnedView();
    PinnedBatch batch = store.newPinnedBatch();
    store.close();
    // Null keys, null destinations, another store's column family: still "closed" first.
    assertAllThrow(StoreClosedException.class, reads(store, foreign, null, view, batch));
    assertAllThrow(StoreClosedException.class, reads(store, null, KEY, view, batch));
    view.close();
    batch.close();
    other.close();
  }

  @Test
  void argumentsComeBeforeOptions() {
    Store other = Store.open(dir.resolve("other"), new Options().columnFamilies("cf"));
    ReadOptions foreign = ReadOptions.DEFAULT.withColumnFamily(other.columnFamily("cf"));
    try (PinnedView view = store.newPinnedView();
        PinnedBatch batch = store.newPinnedBatch()) {
      Map<String, Executable> nullKey = reads(store, foreign, null, view, batch);
      nullKey.keySet().removeIf(name -> name.contains("(0 keys)"));
      assertAllThrow(NullPointerException.class, nullKey);
      // A batch of 0 keys gets the options' checks a batch of 1 gets.
      Map<String, Executable> empty = reads(store, foreign, KEY, view, batch);
      empty.keySet().removeIf(name -> !name.contains("(0 keys)"));
      assertAllThrow(IllegalArgumentException.class, empty);
      Snapshot otherSnapshot = other.snapshot();
      Map<String, Executable> snapshot =
          reads(store, ReadOptions.DEFAULT.withSnapshot(otherSnapshot), KEY, view, batch);
      snapshot.keySet().removeIf(name -> !name.contains("(0 keys)"));
      assertAllThrow(IllegalArgumentException.class, snapshot);
      otherSnapshot.close();
    }
    other.close();
  }

  @Test
  void theLoaderChecksTheConstantTablesAgainstTheNativeOnes() {
    String tables = NativeLibrary.constants();
    assertNull(NativeLibrary.checkTables(tables), tables);
    // A code renamed, a code missing, a bit moved, no table: each refused, naming both tables.
    String[] wrong = {
      tables.replace("Busy", "Locked"),
      tables.replace("Busy,", ""),
      tables.replace("pin_memtable=" + ReadOptions.PIN_MEMTABLE, "pin_memtable=8"),
      "",
    };
    for (String w : wrong) {
      String message = NativeLibrary.checkTables(w);
      assertNotNull(message, w);
      assertTrue(message.contains("does not match pinget's classes"), message);
      assertTrue(message.contains("IO_ERROR,CLOSED,BUSY,UNKNOWN,|fill_cache=1"), message);
    }
  }

  /** One option set to a value: opens and closes, or names the option in its refusal. */
  private void openWith(String option, Options options, boolean valid) {
    Path path = dir.resolve("x" + System.nanoTime());
    if (valid) {
      Store.open(path, options).close();
      return;
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Store.open(path, options));
    assertTrue(e.getMessage().contains(option), e.getMessage());
    assertTrue(e.getMessage().contains("allowed"), e.getMessage());
  }

  @Test
  void everyOptionAtItsExtremes() {
    record Setter(String name, String nativeName, LongFunction<Options> set, long max) {}
    List<Setter> setters =
        List.of(
            new Setter(
                "blockCacheBytes",
                "block_cache_bytes",
                v -> new Options().blockCacheBytes(v),
                1L << 50),
            new Setter("blockSize", "block_size", v -> new Options().blockSize(v), (1L << 32) - 1),
            new Setter(
                "writeBufferBytes",
                "write_buffer_bytes",
                v -> new Options().writeBufferBytes(v),
                64L << 30));
    for (Setter s : setters) {
      for (long negative : new long[] {-1, Long.MIN_VALUE}) {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> s.set().apply(negative));
        assertTrue(e.getMessage().contains(s.name()), e.getMessage());
      }
      // The largest write buffer is opened only: a write would preallocate a WAL of its size.
      openWith(s.nativeName(), s.set().apply(s.max()), true);
      openWith(s.nativeName(), s.set().apply(s.max() + 1), false);
      openWith(s.nativeName(), s.set().apply(Long.MAX_VALUE), false);
    }
    openWith("block_cache_bytes", new Options().blockCacheBytes(0), true);
    openWith("block_size", new Options().blockSize(0), false);
    openWith("block_size", new Options().blockSize(1), true);
    openWith("write_buffer_bytes", new Options().writeBufferBytes(0), false);
    openWith("write_buffer_bytes", new Options().writeBufferBytes((64L << 10) - 1), false);
    openWith("write_buffer_bytes", new Options().writeBufferBytes(64L << 10), true);

    // Names: unpaired surrogates are refused by name, not replaced.
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Store.open(dir.resolve("s"), new Options().columnFamilies("\uD800", "?")));
    assertTrue(e.getMessage().contains("columnFamilies[0]"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> store.columnFamily("\uD800"));
    assertTrue(e.getMessage().contains("name"), e.getMessage());
    // Every write option combination: sync without the WAL is refused.
    IllegalArgumentException wal =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                store.put(
                    WriteOptions.DEFAULT.withSync(true).withDisableWal(true),
                    KEY,
                    0,
                    3,
                    KEY,
                    0,
                    3));
    assertTrue(wal.getMessage().contains("disable_wal"), wal.getMessage());
  }

  @Test
  void copyStatsNamesItsNullArgument() {
    NullPointerException npe = assertThrows(NullPointerException.class, () -> CopyStats.read(null));
    assertEquals("out", npe.getMessage());
    assertThrows(IllegalArgumentException.class, () -> CopyStats.read(new long[3]));
    assertThrows(NullPointerException.class, () -> CopyStats.current().minus(null));
  }
}
