// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;

/**
 * Natives of native/jni/reads_jni.cc: the copying strategies. Every read takes the key as a byte[]
 * range or (array null) a direct buffer range, or, where keyAt is not 0, as keyLen bytes at keyAt
 * ({@link KeyCopy}); then the packed ReadOptions. directCopy's dst
 * range starts at dstAt where that is not 0 ({@link Views#address}).
 */
final class NativeReads {
  static {
    NativeLibrary.load();
  }

  private NativeReads() {}

  static native byte[] stringCopy(
      long store,
      byte[] key,
      ByteBuffer keyBuffer,
      long keyAt,
      int keyOff,
      int keyLen,
      long snapshot,
      int columnFamily,
      int flags);

  static native byte[] pinnableCopy(
      long store,
      byte[] key,
      ByteBuffer keyBuffer,
      long keyAt,
      int keyOff,
      int keyLen,
      long snapshot,
      int columnFamily,
      int flags);

  static native int bufferCopy(
      long store,
      byte[] key,
      ByteBuffer keyBuffer,
      long keyAt,
      int keyOff,
      int keyLen,
      long snapshot,
      int columnFamily,
      int flags,
      byte[] dst,
      int off,
      int len);

  static native int directCopy(
      long store,
      byte[] key,
      ByteBuffer keyBuffer,
      long keyAt,
      int keyOff,
      int keyLen,
      long snapshot,
      int columnFamily,
      int flags,
      ByteBuffer dst,
      long dstAt,
      int off,
      int len);

  static native void multiGetBufferCopy(
      long store,
      int count,
      ByteBuffer keyBytes,
      ByteBuffer keyLengths,
      byte[][] dsts,
      int[] sizes,
      long snapshot,
      int columnFamily,
      int flags);

  static native void multiGetDirectCopy(
      long store,
      int count,
      ByteBuffer keyBytes,
      ByteBuffer keyLengths,
      ByteBuffer[] dsts,
      long windowsAt,
      int[] sizes,
      long snapshot,
      int columnFamily,
      int flags);
}
