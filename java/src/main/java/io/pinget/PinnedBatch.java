// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * Batched pinned_view through a reused handle ({@link Store#newPinnedBatch}): each get releases the
 * previous pins and pins one value per key over RocksDB's MultiGet, in one native call. Value i is
 * shown by the same read-only view each time; P copies per key, no Java allocation once the batch
 * has held as many keys.
 *
 * <p>Views are valid until the next get, release() or close(); then they have capacity 0. Not
 * thread-safe. A batch never closed is released by a Cleaner and counted in {@link
 * PinnedValue#releasedByCleaner()}.
 */
public final class PinnedBatch implements AutoCloseable {
  private static final ByteBuffer[] NO_VIEWS = new ByteBuffer[0];

  private final Store store;
  private final Cleaners.PinHandle pin;
  private ByteBuffer[] views = NO_VIEWS; // attached to this; grown, never shrunk
  private int[] sizes = new int[0];
  private int count;

  PinnedBatch(Store store) {
    this.store = store;
    this.pin = new Cleaners.PinHandle(this, NativePinned.newBatch(), true);
  }

  public int get(byte[][] keys) {
    return get(ReadOptions.DEFAULT, keys);
  }

  /** Pins the values of keys; returns keys.length. Per key: {@link #value}, {@link #size}. */
  public int get(ReadOptions options, byte[][] keys) {
    long h = checkOpen();
    Objects.requireNonNull(keys, "keys");
    grow(keys.length);
    store.checkOwner(options.columnFamily);
    long snapshot = options.acquire();
    try {
      count = 0;
      NativePinned.multiGet(
          store.handle, h, views, sizes, keys, snapshot, options.columnFamily, options.flags);
      count = keys.length;
      return count;
    } catch (RuntimeException | Error e) {
      NativePinned.releaseBatch(h, views);
      throw e;
    } finally {
      options.release();
      Reference.reachabilityFence(store);
      Reference.reachabilityFence(this);
    }
  }

  /** Keys of the last get (0 after release()). */
  public int count() {
    return count;
  }

  /** Value i of the last get, or null if its key does not exist. */
  public ByteBuffer value(int i) {
    checkOpen();
    Objects.checkIndex(i, count);
    if (sizes[i] < 0) {
      return null;
    }
    if (Views.REPOINTED) {
      return views[i];
    }
    try {
      return Views.readOnly(NativePinned.batchViewOf(checkOpen(), i));
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** The size of value i, or -1 if its key does not exist. */
  public int size(int i) {
    checkOpen();
    Objects.checkIndex(i, count);
    return sizes[i];
  }

  /** True if value i is RocksDB's block-cache memory (P = 0). */
  public boolean pinnedInCache(int i) {
    long h = checkOpen();
    Objects.checkIndex(i, count);
    try {
      return NativePinned.batchPinnedInCache(h, i);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Drops every pin; views then show nothing. The batch stays usable. */
  public void release() {
    try {
      NativePinned.releaseBatch(checkOpen(), views);
      count = 0;
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** Idempotent. */
  @Override
  public void close() {
    if (!pin.isOpen()) {
      return;
    }
    try {
      NativePinned.releaseBatch(checkOpen(), views);
      count = 0;
      pin.free();
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private void grow(int n) {
    if (n <= views.length) {
      return;
    }
    int old = views.length;
    views = Arrays.copyOf(views, n);
    sizes = Arrays.copyOf(sizes, n);
    for (int i = old; i < n; i++) {
      ByteBuffer view = Views.attachedTo(this);
      views[i] = view != null ? view : NativePinned.emptyView();
    }
  }

  private long checkOpen() {
    return pin.checkOpen("PinnedBatch");
  }
}
