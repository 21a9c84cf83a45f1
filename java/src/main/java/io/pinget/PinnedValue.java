// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;

/**
 * pinned_view, one value per object ({@link Store#pinnedValue}): holds the value pinned in RocksDB
 * (P copies) and shows it as a read-only direct ByteBuffer. The pin, and the database it came from,
 * stay alive until close(), even if the Store is closed first. A PinnedValue never closed is
 * released by a Cleaner once neither it nor its view is reachable, and counted in {@link
 * #releasedByCleaner()}.
 *
 * <p>Not thread-safe. After close() the view has capacity 0: reading it throws.
 */
public final class PinnedValue implements AutoCloseable {
  private ByteBuffer view; // attached to this: the view keeps its owner reachable
  private Cleaners.PinHandle pin;

  private PinnedValue() {
    view = Views.attachedTo(this);
  }

  /**
   * One native call: pins the value and shows it in a new view; null if the key is missing. The
   * caller has checked the store and the arguments; the options' content is checked here.
   */
  static PinnedValue pin(
      Store store, ReadOptions options, byte[] key, ByteBuffer keyBuffer, int off, int len) {
    long snapshot = options.acquire(store);
    int cf = options.columnFamily.id();
    PinnedValue value;
    try {
      value = new PinnedValue();
    } catch (RuntimeException | Error e) {
      options.release();
      throw e;
    }
    long handle;
    try {
      handle =
          NativePinned.pin(
              store.handle,
              value.view,
              key,
              keyBuffer,
              KeyCopy.ofThisThread(key, keyBuffer, off, len),
              off,
              len,
              snapshot,
              cf,
              options.flags);
    } finally {
      options.release();
      Views.reset(value.view); // native code re-pointed it
      Reference.reachabilityFence(store);
    }
    if (handle == 0) {
      return null;
    }
    value.pin = new Cleaners.PinHandle(value, handle, false);
    if (value.view == null) {
      value.view = Views.readOnly(NativePinned.viewOf(handle));
    }
    return value;
  }

  /**
   * The value's bytes.
   *
   * @return a read-only view, position 0, limit = size; valid until close()
   * @throws IllegalStateException if closed
   */
  public ByteBuffer view() {
    checkOpen();
    return view;
  }

  /**
   * The value's size.
   *
   * @return its size in bytes
   * @throws IllegalStateException if closed
   */
  public int size() {
    checkOpen();
    return view.capacity();
  }

  /**
   * Where the bytes are.
   *
   * @return true if they are RocksDB's block-cache memory (P = 0), false if RocksDB copied them
   * @throws IllegalStateException if closed
   */
  public boolean pinnedInCache() {
    try {
      return NativePinned.pinnedInCache(checkOpen());
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Pin holders the program forgot to close.
   *
   * @return how many PinnedValue, PinnedView and PinnedBatch objects the Cleaner released, in this
   *     JVM
   */
  public static long releasedByCleaner() {
    return Cleaners.PINS_RELEASED_BY_CLEANER.get();
  }

  /** Releases the pin (the last pin of a closed store closes its database). Idempotent. */
  @Override
  public void close() {
    if (!pin.isOpen()) {
      return;
    }
    try {
      NativePinned.release(checkOpen(), Views.REPOINTED ? view : null);
      Views.reset(Views.REPOINTED ? view : null);
      pin.free();
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private long checkOpen() {
    return pin.checkOpen("PinnedValue");
  }
}
