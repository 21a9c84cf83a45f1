// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.bytes;
import static io.pinget.TestSupport.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The file-read counters from Java ({@link CopyStats#fileReads()}, {@link
 * CopyStats#fileBytesRead()}): a get whose block is not in the block cache counts the read of the
 * block from its SST file; a hit counts none; memory-mapped reads copy nothing from the file but
 * copy the value once.
 */
class FileReadsTest {
  private static final int VALUE = 64 * 1024; // larger than a block: one block per value
  private static final int KEYS = 16;

  private Path dir;

  @AfterEach
  void deleteDir() {
    TestSupport.deleteTree(dir);
  }

  private static Options fileOptions() {
    return new Options().compression(Compression.NONE).blockCacheBytes(4L * VALUE);
  }

  private static byte[] key(int i) {
    return bytes("file-" + (100 + i));
  }

  /** Writes KEYS values to an SST file and reopens, so that the block cache starts empty. */
  private Store load(Options options) {
    dir = TestSupport.newDir("file-reads");
    Path path = dir.resolve("db");
    try (Store store = Store.open(path, options)) {
      for (int i = 0; i < KEYS; i++) {
        store.put(key(i), value(i, VALUE));
      }
      store.flush();
    }
    return Store.open(path, options);
  }

  @Test
  void aMissCountsOneReadAndAHitNone() {
    try (Store store = load(fileOptions());
        PinnedView view = store.newPinnedView()) {
      CopyStats.reset();
      ByteBuffer v = view.get(key(3));
      CopyStats miss = CopyStats.current();
      assertEquals(1, miss.fileReads());
      assertTrue(
          miss.fileBytesRead() >= VALUE && miss.fileBytesRead() < VALUE + 128,
          "bytes read: " + miss.fileBytesRead());
      assertEquals(0, miss.valueCopies(), "the block went to the cache, and is pinned there");
      assertArrayEquals(value(3, VALUE), TestSupport.toArray(v));

      CopyStats.reset();
      view.get(key(3));
      assertEquals(0, CopyStats.current().fileReads(), "a block-cache hit reads no file");

      // Every strategy reads the file the same way.
      CopyStats.reset();
      store.stringCopy(key(4));
      store.bufferCopy(key(5), new byte[VALUE], 0, VALUE);
      store.directCopy(key(6), ByteBuffer.allocateDirect(VALUE));
      CopyStats all = CopyStats.current();
      assertEquals(3, all.fileReads());
      assertTrue(all.fileBytesRead() >= 3L * VALUE);

      long[] raw = new long[CopyStats.COUNTERS];
      CopyStats.read(raw);
      assertEquals(all.fileReads(), raw[4]);
      assertEquals(all.fileBytesRead(), raw[5]);
      long[] four = new long[4]; // the original layout still works
      CopyStats.read(four);
      assertEquals(all.valueCopies(), four[0]);
    }
  }

  @Test
  void mmapReadsCopyNothingFromTheFileButTheValueOnce() {
    try (Store store = load(fileOptions().allowMmapReads(true));
        PinnedView view = store.newPinnedView()) {
      CopyStats.reset();
      ByteBuffer v = view.get(key(2));
      CopyStats s = CopyStats.current();
      assertEquals(0, s.fileReads());
      assertEquals(1, s.valueCopies(), "P = 1: the value is copied out of the mapping");
      assertArrayEquals(value(2, VALUE), TestSupport.toArray(v));
    }
  }

  @Test
  void fillCacheFalseReadsTheFileEveryTime() {
    ReadOptions noFill = ReadOptions.DEFAULT.withFillCache(false);
    try (Store store = load(fileOptions());
        PinnedView view = store.newPinnedView()) {
      for (int i = 0; i < 3; i++) {
        CopyStats.reset();
        view.get(noFill, key(7), 0, key(7).length);
        assertEquals(1, CopyStats.current().fileReads(), "get " + i);
      }
    }
  }

  @Test
  void mmapAndDirectReadsAreRefusedTogether() {
    dir = TestSupport.newDir("file-reads");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                Store.open(
                    dir.resolve("db"), fileOptions().allowMmapReads(true).useDirectReads(true)));
    assertTrue(e.getMessage().contains("allow_mmap_reads"), e.getMessage());
    assertTrue(e.getMessage().contains("use_direct_reads"), e.getMessage());
  }
}
