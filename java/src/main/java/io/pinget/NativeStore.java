// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

/** Natives of native/jni/store_jni.cc. Handles are pinget::Store* and pinget::Snapshot*. */
final class NativeStore {
  static {
    NativeLibrary.load();
  }

  static final int CREATE_IF_MISSING = 1;
  static final int ERROR_IF_EXISTS = 2;
  static final int CACHE_INDEX_AND_FILTER_BLOCKS = 4;
  static final int PIN_L0_FILTER_AND_INDEX_BLOCKS_IN_CACHE = 8;
  static final int DATA_BLOCK_HASH_INDEX = 16;
  static final int WHOLE_KEY_FILTERING = 32;
  static final int ALLOW_MMAP_READS = 64;
  static final int USE_DIRECT_READS = 128;

  private NativeStore() {}

  static native long open(
      byte[] path,
      int flags,
      long blockCacheBytes,
      int blockCacheKind,
      long blockSize,
      double bloomBitsPerKey,
      long writeBufferBytes,
      int compression,
      byte[][] columnFamilies);

  /** A pinget::Store over RocksJava's rocksdb::DB* and ColumnFamilyHandle*s (not owned). */
  static native long borrow(long db, long[] columnFamilies);

  /** A pinget::Snapshot over RocksJava's const rocksdb::Snapshot* (not released by it). */
  static native long borrowSnapshot(long store, long snapshot);

  static native void close(long store);

  static native void free(long store);

  static native int columnFamilyId(long store, byte[] name);

  static native String property(long store, int columnFamily, byte[] name);

  static native long newSnapshot(long store);

  static native void freeSnapshot(long snapshot);

  static native void flush(long store, int columnFamily);

  static native void compact(long store, int columnFamily);

  static native String rocksdbVersion();
}
