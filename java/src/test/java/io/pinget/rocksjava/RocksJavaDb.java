// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.rocksjava;

import io.pinget.TestSupport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * A RocksDB opened by RocksJava as a service would: default and "cf1" column families, a 64 MiB
 * block cache, no compression. Closes in the supported order (RocksJava's objects last).
 */
final class RocksJavaDb implements AutoCloseable {
  final Path dir;
  final RocksDB db;
  final ColumnFamilyHandle defaultFamily;
  final ColumnFamilyHandle cf1;
  private final LRUCache cache;
  private final ColumnFamilyOptions cfOptions;
  private final DBOptions options;

  private RocksJavaDb(
      Path dir,
      RocksDB db,
      List<ColumnFamilyHandle> handles,
      LRUCache cache,
      ColumnFamilyOptions cfOptions,
      DBOptions options) {
    this.dir = dir;
    this.db = db;
    this.defaultFamily = handles.get(0);
    this.cf1 = handles.get(1);
    this.cache = cache;
    this.cfOptions = cfOptions;
    this.options = options;
  }

  static RocksJavaDb open(String name) throws RocksDBException {
    RocksDB.loadLibrary();
    Path dir = TestSupport.newDir(name);
    LRUCache cache = new LRUCache(64L << 20);
    ColumnFamilyOptions cfOptions =
        new ColumnFamilyOptions()
            .setCompressionType(CompressionType.NO_COMPRESSION)
            .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
    DBOptions options =
        new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true);
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    RocksDB db =
        RocksDB.open(
            options,
            dir.resolve("db").toString(),
            List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions),
                new ColumnFamilyDescriptor("cf1".getBytes(), cfOptions)),
            handles);
    return new RocksJavaDb(dir, db, handles, cache, cfOptions, options);
  }

  /** 0: the default column family, 1: cf1 (pinget's ids for a reader opened with cf1). */
  ColumnFamilyHandle family(int id) {
    return id == 0 ? defaultFamily : cf1;
  }

  /** Idempotent, as RocksJava's close() is. */
  @Override
  public void close() {
    defaultFamily.close();
    cf1.close();
    db.close();
    cfOptions.close();
    options.close();
    cache.close();
    TestSupport.deleteTree(dir);
  }
}
