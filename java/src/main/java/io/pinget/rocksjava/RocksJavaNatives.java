// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.rocksjava;

import io.pinget.Snapshot;
import io.pinget.Store;
import java.util.function.IntConsumer;

/**
 * Natives of native/jni/rocksjava_jni.cc: a Store and Snapshots over a RocksJava database's native
 * objects. Package-private: only {@link RocksJavaReader}, which takes the handles from live
 * RocksJava objects it has checked, passes them.
 */
final class RocksJavaNatives {
  private RocksJavaNatives() {}

  /**
   * A Store over RocksJava's rocksdb::DB* and ColumnFamilyHandle*s (not owned: close() lets go of
   * the database without closing it). Column family i + 1 is columnFamilies[i], 0 the default.
   * ownerCheck runs first in every call with its column family id.
   */
  static native Store borrow(long db, long[] columnFamilies, IntConsumer ownerCheck);

  /** A Snapshot over RocksJava's const rocksdb::Snapshot* of store's database (not released). */
  static native Snapshot borrowSnapshot(Store store, long snapshot);
}
