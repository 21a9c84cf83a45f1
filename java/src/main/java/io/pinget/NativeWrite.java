// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;

/**
 * Natives of native/jni/write_jni.cc. Keys and values are a byte[] range or (array null) a direct
 * buffer range.
 */
final class NativeWrite {
  static {
    NativeLibrary.load();
  }

  private NativeWrite() {}

  static native void put(
      long store,
      int writeFlags,
      int columnFamily,
      byte[] key,
      ByteBuffer keyBuffer,
      int keyOff,
      int keyLen,
      byte[] value,
      ByteBuffer valueBuffer,
      int valueOff,
      int valueLen);

  static native void delete(
      long store,
      int writeFlags,
      int columnFamily,
      byte[] key,
      ByteBuffer keyBuffer,
      int keyOff,
      int keyLen);

  static native void write(long store, int writeFlags, long batch);

  static native long newBatch();

  static native void freeBatch(long batch);

  static native void batchPut(
      long batch,
      int columnFamily,
      byte[] key,
      ByteBuffer keyBuffer,
      int keyOff,
      int keyLen,
      byte[] value,
      ByteBuffer valueBuffer,
      int valueOff,
      int valueLen);

  static native void batchDelete(
      long batch, int columnFamily, byte[] key, ByteBuffer keyBuffer, int keyOff, int keyLen);

  static native void batchClear(long batch);

  static native int batchCount(long batch);
}
