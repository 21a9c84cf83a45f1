// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;

/**
 * pinned_view through a reused handle ({@link Store#newPinnedView}): each get releases the previous
 * pin and pins the next value in the same native call, and returns the same read-only ByteBuffer
 * re-pointed at it. P copies (0 for a block-cache hit), one JNI crossing and no Java allocation per
 * get.
 *
 * <p>The returned view (and anything sliced from it) is valid until the next get, release() or
 * close() on this handle; after release() or close() it has capacity 0, so reading it throws. Not
 * thread-safe: one thread at a time. Keeps its Store's native object alive. A handle never closed
 * is released by a Cleaner and counted in {@link PinnedValue#releasedByCleaner()}.
 */
public final class PinnedView implements AutoCloseable {
  /**
   * True if views are re-pointed in place (no allocation per get). False on a JDK whose buffers
   * lack the expected fields, or with -Dpinget.views.noRepoint=true: each get then returns a new
   * buffer, which does not keep this handle reachable.
   */
  public static final boolean VIEWS_REPOINTED = Views.REPOINTED;

  private final Store store;
  private final ByteBuffer view; // null when !VIEWS_REPOINTED
  private final Cleaners.PinHandle pin;

  PinnedView(Store store) {
    this.store = store;
    this.pin = new Cleaners.PinHandle(this, NativePinned.newPinned(), false);
    this.view = Views.attachedTo(this);
  }

  /** The value for key, or null if it does not exist. */
  public ByteBuffer get(byte[] key) {
    return get(ReadOptions.DEFAULT, key, null, 0, key.length);
  }

  public ByteBuffer get(ReadOptions options, byte[] key, int off, int len) {
    Checks.range(key, off, len, "key");
    return get(options, key, null, off, len);
  }

  /** The key is read from position to limit of a direct buffer, in place. */
  public ByteBuffer get(ReadOptions options, ByteBuffer key) {
    Checks.direct(key, "key");
    return get(options, null, key, key.position(), key.remaining());
  }

  private ByteBuffer get(ReadOptions options, byte[] key, ByteBuffer keyBuffer, int off, int len) {
    long h = checkOpen();
    store.checkOwner(options.columnFamily);
    long snapshot = options.acquire();
    try {
      int size =
          NativePinned.get(
              store.handle,
              h,
              view,
              key,
              keyBuffer,
              off,
              len,
              snapshot,
              options.columnFamily,
              options.flags);
      if (size < 0) {
        return null;
      }
      return view != null ? view : Views.readOnly(NativePinned.viewOf(h));
    } finally {
      options.release();
      Reference.reachabilityFence(store);
      Reference.reachabilityFence(this);
    }
  }

  /** True if the current value is RocksDB's block-cache memory (P = 0). */
  public boolean pinnedInCache() {
    try {
      return NativePinned.pinnedInCache(checkOpen());
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Drops the current pin; the view then shows nothing. The handle stays usable. */
  public void release() {
    try {
      NativePinned.release(checkOpen(), view);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Drops the pin and frees the handle. Idempotent. */
  @Override
  public void close() {
    if (!pin.isOpen()) {
      return;
    }
    try {
      NativePinned.release(checkOpen(), view);
      pin.free();
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private long checkOpen() {
    return pin.checkOpen("PinnedView");
  }
}
