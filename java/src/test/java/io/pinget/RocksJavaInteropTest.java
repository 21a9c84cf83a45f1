// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.bytes;
import static io.pinget.TestSupport.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.rocksdb.BuiltinComparator;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.TableProperties;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Files written by RocksJava (org.rocksdb:rocksdbjni, the same RocksDB release as pinget's engine)
 * read by pinget with every strategy, and files written by pinget read by RocksJava: default
 * options and each codec, two column families, values in SST files and values only in the WAL.
 */
class RocksJavaInteropTest {
  /** How RocksJava writes: its defaults, or one codec for every column family. */
  enum Written {
    // RocksDB 11 compresses with LZ4 by default (Snappy before); pinget reads both.
    DEFAULTS(null, CompressionType.LZ4_COMPRESSION),
    NONE(CompressionType.NO_COMPRESSION, CompressionType.NO_COMPRESSION),
    SNAPPY(CompressionType.SNAPPY_COMPRESSION, CompressionType.SNAPPY_COMPRESSION),
    LZ4(CompressionType.LZ4_COMPRESSION, CompressionType.LZ4_COMPRESSION),
    ZSTD(CompressionType.ZSTD_COMPRESSION, CompressionType.ZSTD_COMPRESSION),
    ZLIB(CompressionType.ZLIB_COMPRESSION, CompressionType.ZLIB_COMPRESSION),
    BZIP2(CompressionType.BZLIB2_COMPRESSION, CompressionType.BZLIB2_COMPRESSION);

    final CompressionType type; // set on the column families; null: RocksJava's default
    final CompressionType inFiles; // what the SST files' blocks then use

    Written(CompressionType type, CompressionType inFiles) {
      this.type = type;
      this.inFiles = inFiles;
    }

    /**
     * TableProperties.getCompressionName() of a file whose blocks use inFiles: RocksDB 11 lists the
     * codes of the codecs used ("BuiltinV2;07;" for ZSTD), none when nothing is compressed.
     */
    String tableName() {
      return inFiles == CompressionType.NO_COMPRESSION
          ? ";;"
          : String.format("BuiltinV2;%02x;", inFiles.getValue());
    }
  }

  private static final String CF = "cf1";
  private static final int[] SIZES = {0, 1, 100, 4096, 70_000};
  private static final int KEYS = 60; // per column family and phase

  private Path dir;

  @BeforeAll
  static void loadRocksJava() {
    RocksDB.loadLibrary();
    assertEquals(RocksDB.rocksdbVersion().toString(), Store.rocksdbVersion(), "one engine");
  }

  @AfterEach
  void deleteDir() {
    TestSupport.deleteTree(dir);
  }

  /** The expected contents: one map per column family (0 default, 1 cf1); null is deleted. */
  private static List<Map<String, byte[]>> newModel() {
    return List.of(new LinkedHashMap<>(), new LinkedHashMap<>());
  }

  private static byte[] key(String phase, int cf, int i) {
    return bytes(phase + "-" + cf + "-" + i);
  }

  @ParameterizedTest
  @EnumSource(Written.class)
  void pingetReadsWhatRocksJavaWrote(Written written) throws Exception {
    dir = TestSupport.newDir("from-rocksjava-" + written);
    Path path = dir.resolve("db");
    List<Map<String, byte[]>> model = newModel();

    try (ColumnFamilyOptions cfOptions = new ColumnFamilyOptions()) {
      if (written.type != null) {
        cfOptions.setCompressionType(written.type);
      }
      List<ColumnFamilyDescriptor> descriptors =
          List.of(
              new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions),
              new ColumnFamilyDescriptor(bytes(CF), cfOptions));
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      try (DBOptions options =
              new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
          RocksDB db = RocksDB.open(options, path.toString(), descriptors, handles);
          FlushOptions flush = new FlushOptions().setWaitForFlush(true);
          WriteOptions wo = new WriteOptions()) {
        try {
          // Phase "sst": puts and a write batch, flushed into SST files.
          for (int cf = 0; cf < 2; cf++) {
            for (int i = 0; i < KEYS; i++) {
              byte[] k = key("sst", cf, i);
              byte[] v = value(cf * 1000 + i, SIZES[i % SIZES.length]);
              db.put(handles.get(cf), k, v);
              model.get(cf).put(new String(k, StandardCharsets.UTF_8), v);
            }
            try (WriteBatch batch = new WriteBatch()) {
              for (int i = 0; i < 5; i++) {
                byte[] k = key("batch", cf, i);
                byte[] v = value(cf * 1000 + 500 + i, 3000);
                batch.put(handles.get(cf), k, v);
                model.get(cf).put(new String(k, StandardCharsets.UTF_8), v);
              }
              db.write(wo, batch);
            }
            db.flush(flush, handles.get(cf));
            Map<String, TableProperties> tables = db.getPropertiesOfAllTables(handles.get(cf));
            assertFalse(tables.isEmpty(), "flushed into SST files");
            for (TableProperties t : tables.values()) {
              assertEquals(written.tableName(), t.getCompressionName(), "codec of the SST files");
            }
          }
          // Phase "wal": overwrites, deletes and new keys after the flush; on close they stay
          // in the WAL, which pinget replays when it opens the database.
          for (int cf = 0; cf < 2; cf++) {
            for (int i = 0; i < KEYS; i += 3) {
              byte[] k = key("sst", cf, i);
              byte[] v = value(cf * 1000 + i + 7, 200);
              db.put(handles.get(cf), k, v);
              model.get(cf).put(new String(k, StandardCharsets.UTF_8), v);
            }
            for (int i = 1; i < KEYS; i += 5) {
              byte[] k = key("sst", cf, i);
              db.delete(handles.get(cf), k);
              model.get(cf).put(new String(k, StandardCharsets.UTF_8), null);
            }
            for (int i = 0; i < KEYS / 2; i++) {
              byte[] k = key("wal", cf, i);
              byte[] v = value(cf * 1000 + 900 + i, SIZES[i % SIZES.length]);
              db.put(handles.get(cf), k, v);
              model.get(cf).put(new String(k, StandardCharsets.UTF_8), v);
            }
          }
        } finally {
          for (ColumnFamilyHandle h : handles) {
            h.close();
          }
        }
      }
    }
    assertTrue(walBytes(path) > 0, "the last writes are only in the WAL");

    try (Store store = Store.open(path, new Options().createIfMissing(false).columnFamilies(CF));
        PinnedView handle = store.newPinnedView();
        PinnedBatch batch = store.newPinnedBatch()) {
      assertModel(store, handle, batch, model);
    }
  }

  private static void assertModel(
      Store store, PinnedView handle, PinnedBatch batch, List<Map<String, byte[]>> model) {
    List<ColumnFamily> families = List.of(ColumnFamily.DEFAULT, store.columnFamily(CF));
    for (int cf = 0; cf < model.size(); cf++) {
      ReadOptions ro = ReadOptions.DEFAULT.withColumnFamily(families.get(cf));
      List<byte[]> keys = new ArrayList<>();
      List<byte[]> expected = new ArrayList<>();
      for (Map.Entry<String, byte[]> e : model.get(cf).entrySet()) {
        byte[] k = bytes(e.getKey());
        Ways.assertAll(e.getValue(), Ways.readAll(store, handle, ro, k), e.getKey());
        keys.add(k);
        expected.add(e.getValue());
      }
      for (Map.Entry<String, byte[][]> way : Ways.multiReadAll(store, batch, ro, keys).entrySet()) {
        for (int i = 0; i < keys.size(); i++) {
          String what = way.getKey() + " of " + new String(keys.get(i), StandardCharsets.UTF_8);
          if (expected.get(i) == null) {
            assertNull(way.getValue()[i], what);
          } else {
            assertArrayEquals(expected.get(i), way.getValue()[i], what);
          }
        }
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void rocksJavaReadsWhatPingetWrote(Compression compression) throws Exception {
    dir = TestSupport.newDir("from-pinget-" + compression);
    Path path = dir.resolve("db");
    List<Map<String, byte[]>> model = newModel();
    try (Store store =
        Store.open(path, new Options().compression(compression).columnFamilies(CF))) {
      List<ColumnFamily> families = List.of(ColumnFamily.DEFAULT, store.columnFamily(CF));
      for (String phase : new String[] {"sst", "wal"}) {
        for (int cf = 0; cf < 2; cf++) {
          for (int i = 0; i < KEYS; i++) {
            byte[] k = key(phase, cf, i);
            byte[] v = value(cf * 1000 + i + phase.length(), SIZES[i % SIZES.length]);
            store.put(
                io.pinget.WriteOptions.DEFAULT.withColumnFamily(families.get(cf)),
                k,
                0,
                k.length,
                v,
                0,
                v.length);
            model.get(cf).put(new String(k, StandardCharsets.UTF_8), v);
          }
          for (int i = 2; i < KEYS; i += 7) {
            byte[] k = key(phase, cf, i);
            store.delete(
                io.pinget.WriteOptions.DEFAULT.withColumnFamily(families.get(cf)), k, 0, k.length);
            model.get(cf).put(new String(k, StandardCharsets.UTF_8), null);
          }
          if (phase.equals("sst")) {
            store.flush(families.get(cf));
          }
        }
      }
    }
    assertTrue(walBytes(path) > 0, "the last writes are only in the WAL");

    List<byte[]> names;
    try (org.rocksdb.Options listOptions = new org.rocksdb.Options()) {
      names = RocksDB.listColumnFamilies(listOptions, path.toString());
    }
    assertEquals(2, names.size(), "default and " + CF);
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    for (byte[] name : names) {
      descriptors.add(new ColumnFamilyDescriptor(name));
    }
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    try (DBOptions options = new DBOptions();
        RocksDB db = RocksDB.open(options, path.toString(), descriptors, handles)) {
      try {
        for (int i = 0; i < handles.size(); i++) {
          int cf = new String(names.get(i), StandardCharsets.UTF_8).equals(CF) ? 1 : 0;
          for (Map.Entry<String, byte[]> e : model.get(cf).entrySet()) {
            byte[] got = db.get(handles.get(i), bytes(e.getKey()));
            if (e.getValue() == null) {
              assertNull(got, e.getKey());
            } else {
              assertArrayEquals(e.getValue(), got, e.getKey());
            }
          }
        }
      } finally {
        for (ColumnFamilyHandle h : handles) {
          h.close();
        }
      }
    }
  }

  @Test
  void aColumnFamilyPingetCannotOpenIsAClearError() throws RocksDBException {
    dir = TestSupport.newDir("reverse-comparator");
    Path path = dir.resolve("db");
    try (ColumnFamilyOptions reverse =
            new ColumnFamilyOptions().setComparator(BuiltinComparator.REVERSE_BYTEWISE_COMPARATOR);
        ColumnFamilyOptions plain = new ColumnFamilyOptions()) {
      List<ColumnFamilyHandle> handles = new ArrayList<>();
      try (DBOptions options =
              new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
          RocksDB db =
              RocksDB.open(
                  options,
                  path.toString(),
                  List.of(
                      new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, plain),
                      new ColumnFamilyDescriptor(bytes("reversed"), reverse)),
                  handles)) {
        db.put(handles.get(1), bytes("k"), bytes("v"));
        for (ColumnFamilyHandle h : handles) {
          h.close();
        }
      }
    }
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Store.open(path, new Options().createIfMissing(false)));
    assertTrue(e.getMessage().contains("Comparator"), e.getMessage());
  }

  private static long walBytes(Path db) throws IOException {
    try (Stream<Path> files = Files.list(db)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".log"))
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .sum();
    }
  }
}
