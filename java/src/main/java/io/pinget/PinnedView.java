// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import io.pinget.internal.Checks;
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
  // Where Java points the view (Views.JAVA_REPOINTED): native code writes the value's address here.
  private final ByteBuffer at;
  private final long atAddress;
  private final KeyCopy keys = new KeyCopy(); // its own: no ThreadLocal lookup per get

  PinnedView(Store store) {
    this.store = store;
    this.pin = new Cleaners.PinHandle(this, NativePinned.newPinned(), false);
    this.view = Views.attachedTo(this);
    this.at =
        Views.JAVA_REPOINTED
            ? ByteBuffer.allocateDirect(Long.BYTES).order(java.nio.ByteOrder.nativeOrder())
            : null;
    this.atAddress = at == null ? 0 : NativePinned.addressOf(at);
  }

  /**
   * pinned_view of the whole key with {@link ReadOptions#DEFAULT}: releases the previous pin and
   * pins this value. P copies; no allocation once this handle has held a value that large (a copy
   * from the memtable goes into the handle's own buffer, which grows once).
   *
   * @param key not null, not empty
   * @return the view re-pointed at the value (valid until the next get, release() or close()), or
   *     null if the key does not exist
   * @throws IllegalStateException if this handle is closed
   */
  public ByteBuffer get(byte[] key) {
    return get(ReadOptions.DEFAULT, key, 0, key == null ? 0 : key.length);
  }

  /**
   * pinned_view of key[off, off + len): releases the previous pin and pins this value. P copies, no
   * allocation.
   *
   * @param options not null
   * @param key not null
   * @param off start of the key in key
   * @param len the key's length, more than 0
   * @return the view re-pointed at the value (valid until the next get, release() or close()), or
   *     null if the key does not exist
   * @throws IllegalStateException if this handle is closed
   */
  public ByteBuffer get(ReadOptions options, byte[] key, int off, int len) {
    long h = checkOpen();
    try {
      store.checkOpen(options == null ? null : options.columnFamily);
    } catch (StoreClosedException e) {
      throw released(h, e);
    }
    Checks.options(options);
    Checks.key(key, off, len);

    return get(h, options, key, null, off, len);
  }

  /**
   * pinned_view of a key read in place from position to limit of a direct buffer (a key inside this
   * handle's own view is copied first). P copies; no allocation once this handle has held a value
   * that large.
   *
   * @param options not null
   * @param key a direct buffer, not null, not empty; its position is left unchanged
   * @return the view re-pointed at the value (valid until the next get, release() or close()), or
   *     null if the key does not exist
   * @throws IllegalStateException if this handle is closed
   */
  public ByteBuffer get(ReadOptions options, ByteBuffer key) {
    long h = checkOpen();
    try {
      store.checkOpen(options == null ? null : options.columnFamily);
    } catch (StoreClosedException e) {
      throw released(h, e);
    }
    Checks.options(options);
    Checks.key(key);

    return get(h, options, null, key, key.position(), key.remaining());
  }

  /**
   * A get on a closed store: the pin goes (nothing could be read with it again) and the view shows
   * nothing. A get refused by its arguments or options releases nothing.
   */
  private StoreClosedException released(long h, StoreClosedException e) {
    NativePinned.release(h, view);
    Views.reset(view);
    return e;
  }

  private ByteBuffer get(
      long h, ReadOptions options, byte[] key, ByteBuffer keyBuffer, int off, int len) {
    long snapshot = options.acquire(store);
    if (at != null) {
      int size = -1;
      try {
        size =
            NativePinned.getAt(
                store.handle,
                h,
                atAddress,
                key,
                keyBuffer,
                keys.at(key, keyBuffer, off, len),
                off,
                len,
                snapshot,
                options.columnFamily.id(),
                options.flags);
        return size < 0 ? null : view;
      } finally {
        // The view at the value, or at nothing (missing, or the call threw: a pin refused by its
        // key argument is kept, but shows nothing until the next get).
        if (size >= 0) {
          Views.point(view, at.getLong(0), size);
        } else {
          Views.pointAtNothing(view);
        }
        options.release();
        Reference.reachabilityFence(store);
        Reference.reachabilityFence(this);
      }
    }
    try {
      int size =
          NativePinned.get(
              store.handle,
              h,
              view,
              key,
              keyBuffer,
              keys.at(key, keyBuffer, off, len),
              off,
              len,
              snapshot,
              options.columnFamily.id(),
              options.flags);
      if (size < 0) {
        return null;
      }
      return view != null ? view : Views.readOnly(NativePinned.viewOf(h));
    } finally {
      Views.reset(view);
      options.release();
      Reference.reachabilityFence(store);
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Where the current value's bytes are.
   *
   * @return true if they are RocksDB's block-cache memory (P = 0); false if RocksDB copied them (P
   *     = 1) or nothing is held
   * @throws IllegalStateException if this handle is closed
   */
  public boolean pinnedInCache() {
    try {
      return NativePinned.pinnedInCache(checkOpen());
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Drops the current pin; the view then shows nothing (capacity 0). The handle stays usable.
   *
   * @throws IllegalStateException if this handle is closed
   */
  public void release() {
    try {
      NativePinned.release(checkOpen(), view);
      Views.reset(view);
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
      Views.reset(view);
      pin.free();
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private long checkOpen() {
    return pin.checkOpen("PinnedView");
  }
}
