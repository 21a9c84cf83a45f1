// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;

/**
 * Natives of native/jni/pinned_jni.cc: pinned_view. Handles are pinget::PinnedValue* and a batch
 * wrapper around pinget::PinnedBatch; views are re-pointed in place by native code. A key is a
 * byte[] range, or (array null) a direct buffer range, or, where keyAt is not 0, keyLen bytes at
 * keyAt ({@link KeyCopy}).
 */
final class NativePinned {
  static {
    NativeLibrary.load();
  }

  private NativePinned() {}

  static native boolean canRepoint();

  static native ByteBuffer emptyView();

  static native void attach(ByteBuffer view, Object owner);

  static native long newPinned();

  static native void freePinned(long pinned);

  static native long pin(
      long store,
      ByteBuffer view,
      byte[] key,
      ByteBuffer keyBuffer,
      long keyAt,
      int keyOff,
      int keyLen,
      long snapshot,
      int columnFamily,
      int flags);

  static native int get(
      long store,
      long pinned,
      ByteBuffer view,
      byte[] key,
      ByteBuffer keyBuffer,
      long keyAt,
      int keyOff,
      int keyLen,
      long snapshot,
      int columnFamily,
      int flags);

  /** The address of a direct buffer; the caller keeps the buffer reachable while it is used. */
  static native long addressOf(ByteBuffer buffer);

  /**
   * Decode on read in one crossing: a value of at most smallCapacity bytes is copied to small and
   * nothing stays held; a larger one is pinned and shown in view, for releaseDetached after use.
   *
   * @return the value's size (at most smallCapacity: in small), or -1 if the key does not exist
   */
  static native int getCopiedIfSmall(
      long store,
      long pinned,
      ByteBuffer view,
      long small,
      int smallCapacity,
      byte[] key,
      ByteBuffer keyBuffer,
      long keyAt,
      int keyOff,
      int keyLen,
      long snapshot,
      int columnFamily,
      int flags);

  /** As get, with the value's address written to the long at address at instead of a view. */
  static native int getAt(
      long store,
      long pinned,
      long at,
      byte[] key,
      ByteBuffer keyBuffer,
      long keyAt,
      int keyOff,
      int keyLen,
      long snapshot,
      int columnFamily,
      int flags);

  static native void release(long pinned, ByteBuffer view);

  /** release, and let go of the store's database too (Decoding's per-thread handles). */
  static native void releaseDetached(long pinned, ByteBuffer view);

  static native boolean pinnedInCache(long pinned);

  static native ByteBuffer viewOf(long pinned);

  static native long newBatch();

  static native void freeBatch(long batch);

  /** Makes views the batch's views (native code keeps weak references to them). */
  static native void setBatchViews(long batch, ByteBuffer[] views);

  static native void releaseBatch(long batch);

  /** releaseBatch, and let go of the store's database too. */
  static native void releaseBatchDetached(long batch);

  static native void multiGet(
      long store,
      long batch,
      int count,
      ByteBuffer keyBytes,
      ByteBuffer slots,
      long snapshot,
      int columnFamily,
      int flags);

  static native ByteBuffer batchViewOf(long batch, int index);

  static native boolean batchPinnedInCache(long batch, int index);
}
