// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The point-lookup options set from Java: each reaches RocksDB (the database's newest OPTIONS file,
 * or a property of the open store), reads stay right with them, and every bad value is refused with
 * an exception naming the option. The native suite (test/native/options_test.cc) tests what each
 * option does inside RocksDB.
 */
class OptionsTest {
  private static final int KEYS = 1000;

  private Path dir;
  private int stores;

  @BeforeEach
  void makeDir() {
    dir = TestSupport.newDir("options");
  }

  @AfterEach
  void deleteDir() {
    TestSupport.deleteTree(dir);
  }

  private static byte[] key(int i) {
    return bytes(String.format("key%06d", i));
  }

  /** Sorts between key(i) and key(i + 1), so it lies inside every file's key range. */
  private static byte[] absentKey(int i) {
    return bytes(String.format("key%06dx", i));
  }

  private Path newPath() {
    return dir.resolve("db" + stores++);
  }

  /** The newest OPTIONS-number file of the database at path, whole. */
  private static String newestOptionsFile(Path path) {
    try (Stream<Path> files = Files.list(path)) {
      Path newest =
          files
              .filter(p -> p.getFileName().toString().matches("OPTIONS-[0-9]+"))
              .max(
                  Comparator.comparingLong(
                      p -> Long.parseLong(p.getFileName().toString().substring(8))))
              .orElseThrow();
      return Files.readString(newest);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The value of name in the default column family's block-based table section, or null. */
  private static String tableOption(String optionsFile, String name) {
    boolean inSection = false;
    for (String line : optionsFile.split("\n")) {
      if (line.startsWith("[")) {
        inSection = line.equals("[TableOptions/BlockBasedTable \"default\"]");
        continue;
      }
      String trimmed = line.strip();
      if (inSection && trimmed.startsWith(name + "=")) {
        return trimmed.substring(name.length() + 1);
      }
    }
    return null;
  }

  private static long numberAfter(String text, String name) {
    Matcher m = Pattern.compile(Pattern.quote(name + "=") + "([0-9]+)").matcher(text);
    assertTrue(m.find(), name + " in " + text);
    return Long.parseLong(m.group(1));
  }

  /** Writes KEYS keys and flushes them into an SST file. */
  private static void writeAndFlush(Store store) {
    for (int i = 0; i < KEYS; i++) {
      store.put(key(i), TestSupport.value(i, 100));
    }
    store.flush();
  }

  /** Present keys read their values and absent keys are not found, every way of reading. */
  private static void assertReadsAreRight(Store store) {
    try (PinnedView view = store.newPinnedView();
        PinnedBatch batch = store.newPinnedBatch()) {
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> absent = new ArrayList<>();
      for (int i = 0; i < KEYS; i += 97) {
        for (Map.Entry<String, byte[]> e :
            Ways.readAll(store, view, ReadOptions.DEFAULT, key(i)).entrySet()) {
          assertArrayEquals(TestSupport.value(i, 100), e.getValue(), e.getKey());
        }
        for (Map.Entry<String, byte[]> e :
            Ways.readAll(store, view, ReadOptions.DEFAULT, absentKey(i)).entrySet()) {
          assertNull(e.getValue(), e.getKey());
        }
        keys.add(key(i));
        absent.add(absentKey(i));
      }
      for (Map.Entry<String, byte[][]> e :
          Ways.multiReadAll(store, batch, ReadOptions.DEFAULT, keys).entrySet()) {
        for (int j = 0; j < keys.size(); j++) {
          assertArrayEquals(TestSupport.value(j * 97, 100), e.getValue()[j], e.getKey());
        }
      }
      for (Map.Entry<String, byte[][]> e :
          Ways.multiReadAll(store, batch, ReadOptions.DEFAULT, absent).entrySet()) {
        for (byte[] v : e.getValue()) {
          assertNull(v, e.getKey());
        }
      }
    }
  }

  @Test
  void maxOpenFilesReachesRocksDBAndTheTextFormat() {
    Path path = newPath();
    Options options = new Options().maxOpenFiles(64);
    assertTrue(options.toString().contains(";max_open_files=64;"), options.toString());
    try (Store store = Store.open(path, options)) {
      String file = newestOptionsFile(path);
      assertTrue(file.contains("max_open_files=64"), "max_open_files in the OPTIONS file");
    }
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Store.open(newPath(), new Options().maxOpenFiles(19)));
    assertTrue(e.getMessage().contains("max_open_files is 19"), e.getMessage());
  }

  /**
   * A HyperClockCache whose table this machine will not map is refused at open: RocksDB would have
   * terminated the JVM (8 TiB did, with 24 GiB of memory).
   */
  @Test
  void aHyperClockCacheTooLargeToMapIsRefusedNotAnAbort() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Store.open(
                    newPath(),
                    new Options()
                        .blockCacheKind(BlockCacheKind.HYPER_CLOCK)
                        .blockCacheBytes(1L << 50)));
    assertTrue(e.getMessage().contains("too large for a kHyperClock cache"), e.getMessage());
    for (long tib = 1; tib <= 512; tib *= 2) {
      Path path = newPath();
      try (Store store =
          Store.open(
              path,
              new Options()
                  .blockCacheKind(BlockCacheKind.HYPER_CLOCK)
                  .blockCacheBytes(tib << 40))) {
        assertTrue(store.property("rocksdb.block-cache-entry-stats").contains("HyperClockCache"));
      } catch (IllegalArgumentException refused) {
        assertTrue(refused.getMessage().contains("too large"), refused.getMessage());
      }
    }
  }

  @Test
  void theDefaultsAreRocksDBs() {
    Path path = newPath();
    try (Store store = Store.open(path)) {
      String file = newestOptionsFile(path);
      assertEquals("kDataBlockBinarySearch", tableOption(file, "data_block_index_type"));
      assertEquals("nullptr", tableOption(file, "filter_policy"));
      assertEquals("true", tableOption(file, "whole_key_filtering"));
      assertEquals("false", tableOption(file, "cache_index_and_filter_blocks"));
      assertEquals("false", tableOption(file, "pin_l0_filter_and_index_blocks_in_cache"));
      assertTrue(store.property("rocksdb.block-cache-entry-stats").contains("LRUCache@"));
    }
  }

  @Test
  void eachOptionReachesTheOptionsFile() {
    record Case(String name, Supplier<Options> options, String tableOption, String written) {}
    List<Case> cases =
        List.of(
            new Case(
                "dataBlockHashIndex",
                () -> new Options().dataBlockHashIndex(true),
                "data_block_index_type",
                "kDataBlockBinaryAndHash"),
            new Case(
                "bloomBitsPerKey",
                () -> new Options().bloomBitsPerKey(10),
                "filter_policy",
                "bloomfilter:10:false"),
            new Case(
                "bloomBitsPerKey",
                () -> new Options().bloomBitsPerKey(7.5),
                "filter_policy",
                "bloomfilter:7.5:false"),
            new Case(
                "wholeKeyFiltering",
                () -> new Options().wholeKeyFiltering(false),
                "whole_key_filtering",
                "false"),
            new Case(
                "cacheIndexAndFilterBlocks",
                () -> new Options().cacheIndexAndFilterBlocks(true),
                "cache_index_and_filter_blocks",
                "true"),
            new Case(
                "pinL0FilterAndIndexBlocksInCache",
                () ->
                    new Options()
                        .cacheIndexAndFilterBlocks(true)
                        .pinL0FilterAndIndexBlocksInCache(true),
                "pin_l0_filter_and_index_blocks_in_cache",
                "true"));
    for (Case c : cases) {
      Path path = newPath();
      try (Store store = Store.open(path, c.options().get())) {
        assertEquals(c.written(), tableOption(newestOptionsFile(path), c.tableOption()), c.name());
        writeAndFlush(store);
        assertReadsAreRight(store);
      }
    }
  }

  @Test
  void blockCacheKindChoosesTheCache() {
    for (BlockCacheKind kind : BlockCacheKind.values()) {
      try (Store store = Store.open(newPath(), new Options().blockCacheKind(kind))) {
        writeAndFlush(store);
        assertReadsAreRight(store);
        // "Block cache LRUCache@0x...", "Block cache AutoHyperClockCache@0x..."
        String stats = store.property("rocksdb.block-cache-entry-stats");
        boolean hyperClock = stats.contains("HyperClockCache@");
        assertEquals(kind == BlockCacheKind.HYPER_CLOCK, hyperClock, stats);
        assertEquals(kind == BlockCacheKind.LRU, stats.contains("LRUCache@"), stats);
      }
    }
  }

  @Test
  void aBloomFilterIsWrittenWithEveryKey() {
    try (Store store = Store.open(newPath(), new Options().bloomBitsPerKey(10))) {
      writeAndFlush(store);
      String table = store.property("rocksdb.aggregated-table-properties");
      assertTrue(numberAfter(table, "filter block size") > 0, table);
      assertEquals(KEYS, numberAfter(table, "# entries for filter"), table);
    }
    try (Store store = Store.open(newPath())) {
      writeAndFlush(store);
      String table = store.property("rocksdb.aggregated-table-properties");
      assertEquals(0, numberAfter(table, "filter block size"), table);
    }
  }

  @Test
  void readsAreRightWithEveryOptionOn() {
    for (BlockCacheKind kind : BlockCacheKind.values()) {
      Options options =
          new Options()
              .blockCacheKind(kind)
              .dataBlockHashIndex(true)
              .bloomBitsPerKey(10)
              .cacheIndexAndFilterBlocks(true)
              .pinL0FilterAndIndexBlocksInCache(true);
      Path path = newPath();
      try (Store store = Store.open(path, options)) {
        writeAndFlush(store);
        assertReadsAreRight(store);
        store.compact();
        assertReadsAreRight(store);
        String file = newestOptionsFile(path);
        assertEquals("kDataBlockBinaryAndHash", tableOption(file, "data_block_index_type"));
        assertEquals("bloomfilter:10:false", tableOption(file, "filter_policy"));
        assertEquals("true", tableOption(file, "cache_index_and_filter_blocks"));
        assertEquals("true", tableOption(file, "pin_l0_filter_and_index_blocks_in_cache"));
      }
      try (Store store = Store.open(path, options)) {
        assertReadsAreRight(store);
      }
    }
  }

  @Test
  void badValuesThrowIllegalArgumentNamingTheOption() {
    record Bad(Supplier<Options> options, String... message) {}
    List<Bad> bad = new ArrayList<>();
    for (double bits :
        new double[] {
          -1,
          -1e-9,
          0.5,
          0.999,
          100.001,
          1e300,
          Double.NaN,
          Double.POSITIVE_INFINITY,
          Double.NEGATIVE_INFINITY
        }) {
      bad.add(
          new Bad(
              () -> new Options().bloomBitsPerKey(bits),
              "bloom_bits_per_key is ",
              "allowed: 0 (no filter) or 1 to 100"));
    }
    bad.add(
        new Bad(
            () -> new Options().blockCacheKind(BlockCacheKind.HYPER_CLOCK).blockCacheBytes(0),
            "block_cache_kind kHyperClock",
            "block_cache_bytes is 0"));
    bad.add(
        new Bad(
            () -> new Options().cacheIndexAndFilterBlocks(true).blockCacheBytes(0),
            "cache_index_and_filter_blocks",
            "block_cache_bytes is 0"));
    bad.add(
        new Bad(
            () -> new Options().pinL0FilterAndIndexBlocksInCache(true),
            "pin_l0_filter_and_index_blocks_in_cache requires cache_index_and_filter_blocks"));
    bad.add(
        new Bad(
            () -> new Options().bloomBitsPerKey(10).wholeKeyFiltering(false),
            "whole_key_filtering",
            "bloom_bits_per_key"));
    for (Bad b : bad) {
      Path path = newPath();
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Store.open(path, b.options().get()));
      assertTrue(e.getMessage().startsWith("InvalidArgument: "), e.getMessage());
      for (String part : b.message()) {
        assertTrue(e.getMessage().contains(part), e.getMessage());
      }
      assertFalse(Files.exists(path), path.toString());
    }
    for (double bits : new double[] {0, -0.0, 1, 1.5, 99.999, 100}) {
      Store.open(newPath(), new Options().bloomBitsPerKey(bits)).close();
    }
    NullPointerException npe =
        assertThrows(NullPointerException.class, () -> new Options().blockCacheKind(null));
    assertEquals("blockCacheKind", npe.getMessage());
  }
}
