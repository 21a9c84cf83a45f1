// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;

/**
 * Natives of native/jni/cursor_jni.cc: a pinget::Cursor and its views, which native code re-points
 * at each batch's entries, or (setTable) the table from which the Java cursor re-points them.
 */
final class NativeCursor {
  static {
    NativeLibrary.load();
  }

  private NativeCursor() {}

  /** Bounds and prefix: null for none. */
  static native long open(
      long store,
      byte[] lower,
      byte[] upper,
      byte[] prefix,
      long snapshot,
      int columnFamily,
      int flags);

  static native void free(long cursor);

  /**
   * As free, but leaks the pinget::Cursor (its iterator): for a database its owner has already
   * closed.
   */
  static native void abandon(long cursor);

  /** Makes keys and values the cursor's views (native code keeps weak references). */
  static native void setViews(long cursor, ByteBuffer[] keys, ByteBuffer[] values);

  /**
   * Makes table (a direct buffer, native byte order, 4 longs per entry: key address, key size,
   * value address, value size) where batches are written instead of re-pointing views.
   */
  static native void setTable(long cursor, ByteBuffer table);

  /**
   * how: 0 first, 1 last, 2 at or after key, 3 at or before key (key unused for 0 and 1). The key
   * as a read's: a byte[] or direct buffer range, or keyLen bytes at keyAt if that is not 0.
   */
  static native void seek(
      long cursor, int how, byte[] key, ByteBuffer keyBuffer, long keyAt, int keyOff, int keyLen);

  /** Lends up to max entries; returns how many. */
  static native int lend(long cursor, int max, boolean forward);

  static native void close(long cursor);

  static native ByteBuffer keyOf(long cursor, int index);

  static native ByteBuffer valueOf(long cursor, int index);

  static native boolean valuePinned(long cursor, int index);

  static native int copyOut(long cursor, int index, boolean value, byte[] dst, int off, int len);
}
