// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import io.pinget.internal.Checks;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;

/**
 * Batched pinned_view through a reused handle ({@link Store#newPinnedBatch}): each get releases the
 * previous pins and pins one value per key over RocksDB's MultiGet, in one native call. Value i is
 * shown by the same read-only view each time; P copies per key, no Java allocation once the batch
 * has held as many keys (and, up to 1 MiB, as many key bytes).
 *
 * <p>The keys are copied once, here in Java, into a direct buffer that native code reads in place
 * (one counted key copy per key, as for every byte[] key), and the sizes come back in a second one:
 * per key, the crossing costs two JNI field writes (the view's address and capacity; its limit is
 * read, and written only when it must drop).
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
  // Slot i: key i's length on the way in, value i's size (or -1) on the way out.
  private final PackedKeys packed = new PackedKeys();
  private int count;

  PinnedBatch(Store store) {
    this.store = store;
    this.pin = new Cleaners.PinHandle(this, NativePinned.newBatch(), true);
  }

  /**
   * Batched pinned_view with {@link ReadOptions#DEFAULT}: see {@link #get(ReadOptions, byte[][])}.
   *
   * @param keys not null, no element null or empty
   * @return keys.length
   */
  public int get(byte[][] keys) {
    return get(ReadOptions.DEFAULT, keys);
  }

  /**
   * Releases the previous pins and pins the values of keys over RocksDB's MultiGet, in one native
   * call: P copies per key, no Java allocation once the batch has held as many keys. Every key is
   * read and every key's result set ({@link #value}, {@link #size}: null and -1 when not found or
   * failed); then the first per-key error other than not-found, if any, is thrown (the results stay
   * readable).
   *
   * @param options not null
   * @param keys not null, no element null or empty
   * @return keys.length
   * @throws IllegalStateException if this batch is closed
   */
  public int get(ReadOptions options, byte[][] keys) {
    long h = checkOpen();
    try {
      store.checkOpen(options == null ? null : options.columnFamily);
    } catch (StoreClosedException e) {
      count = 0;
      releaseAll(h); // nothing can be read any more: the last views go
      throw e;
    }
    // A get refused by its arguments or options reads and releases nothing.
    Checks.options(options);
    Checks.keys(keys);
    long snapshot = options.acquire(store);
    int shown = count; // views that may show a value
    count = 0;
    try {
      grow(h, keys.length);
      packed.pack(keys);
      count = keys.length;
      NativePinned.multiGet(
          store.handle,
          h,
          keys.length,
          packed.bytes(),
          packed.slots(),
          snapshot,
          options.columnFamily.id(),
          options.flags);
      return count;
    } catch (PingetException e) {
      throw e; // a per-key error, thrown after every key was read: the results stay readable
    } catch (RuntimeException | Error e) {
      count = 0;
      releaseAll(h);
      throw e;
    } finally {
      for (int i = 0, n = Math.max(shown, keys.length); i < n; i++) {
        Views.reset(views[i]);
      }
      options.release();
      Reference.reachabilityFence(store);
      Reference.reachabilityFence(this);
    }
  }

  /**
   * How many keys the last get read.
   *
   * @return that count; 0 after release() or close()
   */
  public int count() {
    return count;
  }

  /**
   * Value i of the last get.
   *
   * @param i from 0 to count() - 1
   * @return a read-only view of it (valid until the next get, release() or close()), or null if its
   *     key does not exist or its read failed
   * @throws IllegalStateException if closed
   * @throws IndexOutOfBoundsException if i is not below count()
   */
  public ByteBuffer value(int i) {
    checkOpen();
    Objects.checkIndex(i, count);
    if (sizeOf(i) < 0) {
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

  /**
   * The size of value i of the last get.
   *
   * @param i from 0 to count() - 1
   * @return its size, or -1 if its key does not exist or its read failed
   * @throws IllegalStateException if closed
   * @throws IndexOutOfBoundsException if i is not below count()
   */
  public int size(int i) {
    checkOpen();
    Objects.checkIndex(i, count);
    return sizeOf(i);
  }

  /**
   * Where value i's bytes are.
   *
   * @param i from 0 to count() - 1
   * @return true if they are RocksDB's block-cache memory (P = 0)
   * @throws IllegalStateException if closed
   * @throws IndexOutOfBoundsException if i is not below count()
   */
  public boolean pinnedInCache(int i) {
    long h = checkOpen();
    Objects.checkIndex(i, count);
    try {
      return NativePinned.batchPinnedInCache(h, i);
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Drops every pin; views then show nothing (capacity 0). The batch stays usable.
   *
   * @throws IllegalStateException if closed
   */
  public void release() {
    try {
      releaseAll(checkOpen());
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
      releaseAll(checkOpen());
      count = 0;
      pin.free();
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  private void grow(long h, int n) {
    if (n <= views.length) {
      return;
    }
    ByteBuffer[] grown = Arrays.copyOf(views, n);
    for (int i = views.length; i < n; i++) {
      ByteBuffer view = Views.attachedTo(this);
      grown[i] = view != null ? view : NativePinned.emptyView();
    }
    NativePinned.setBatchViews(h, grown);
    views = grown;
  }

  private int sizeOf(int i) {
    return packed.slot(i);
  }

  /** Drops every pin and resets every view to show nothing. */
  private void releaseAll(long h) {
    NativePinned.releaseBatch(h);
    for (ByteBuffer view : views) {
      Views.reset(view);
    }
  }

  private long checkOpen() {
    return pin.checkOpen("PinnedBatch");
  }
}
