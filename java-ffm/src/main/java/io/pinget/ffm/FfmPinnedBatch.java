// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.pinget.ReadOptions;
import io.pinget.internal.Checks;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.Objects;

/**
 * Batched pinned_view over RocksDB's MultiGet, enforced as {@link FfmPinnedView} is: {@link #get}
 * pins every key's value (P copies each) in one call, and {@link #value(int)} returns key i's value
 * as a read-only segment whose scope closes at the batch's next get, {@link #release()} or {@link
 * #close()}. The keys are copied into the batch's native memory for the call (not counted, as in
 * {@link Slots#key}). No allocation of native memory once the batch has held that many keys of that
 * total size; each {@code get} makes one confined Arena, each {@code value(i)} one segment.
 * Threads: as {@link FfmPinnedView}.
 */
public final class FfmPinnedBatch implements AutoCloseable {
  private FfmStore store; // changed only by FfmDecoding, between its calls
  private final Slots slots = new Slots();
  private final MemorySegment batch;
  private final Cleaner.Cleanable cleanable;
  private final ValueScope scope = new ValueScope(this);

  // Per key, in native memory: the key's address and size, the value's address and size, the code.
  private MemorySegment keyAddresses = MemorySegment.NULL;
  private MemorySegment keySizes = MemorySegment.NULL;
  private MemorySegment values = MemorySegment.NULL;
  private MemorySegment valueSizes = MemorySegment.NULL;
  private MemorySegment codes = MemorySegment.NULL;
  private MemorySegment keyBytes = MemorySegment.NULL;
  private int capacity;

  private int count;
  private boolean closed;

  FfmPinnedBatch(FfmStore store) {
    this.store = store;
    batch = Native.create(Native.PINNED_BATCH_CREATE, slots);
    cleanable = Native.destroyWhenUnreachable(this, Native.PINNED_BATCH_DESTROY, batch);
  }

  /**
   * Releases what the batch held (its values' scope closes first), then pins every key's value.
   *
   * @param keys not null; no key null or empty
   * @return keys.length: read values with {@link #value(int)}
   * @throws IllegalStateException if this batch is closed
   * @throws io.pinget.StoreClosedException if the store is closed
   */
  public int get(byte[][] keys) {
    return get(ReadOptions.DEFAULT, keys);
  }

  /**
   * As {@link #get(byte[][])}, with read options. Checks this batch, its store (closed: the last
   * values go), then the arguments, then the options' content (refused by them: nothing changes).
   *
   * @param options not null
   * @param keys not null; no key null or empty
   * @return keys.length
   */
  public int get(ReadOptions options, byte[][] keys) {
    if (closed) {
      throw new IllegalStateException("batch is closed");
    }
    try {
      store.checkOpen();
    } catch (io.pinget.StoreClosedException e) {
      release(); // nothing can be read any more: the last values go
      throw e;
    }
    // A get refused by its arguments or options reads and releases nothing.
    Checks.options(options);
    Checks.keys(keys);
    MemorySegment ro = scope.begin(store, options, slots);
    count = 0;
    int n = keys.length;
    try {
      long total = 0;
      for (byte[] k : keys) {
        total += k.length;
      }
      reserve(n, total);
      long offset = 0;
      for (int i = 0; i < n; i++) {
        byte[] k = keys[i];
        MemorySegment.copy(k, 0, keyBytes, JAVA_BYTE, offset, k.length);
        keyAddresses.setAtIndex(JAVA_LONG, i, keyBytes.address() + offset);
        keySizes.setAtIndex(JAVA_LONG, i, k.length);
        offset += k.length;
      }
      int code =
          (int)
              (n <= Native.CRITICAL_BATCH_KEYS
                      ? Native.MULTI_PINNED_VIEW
                      : Native.MULTI_GET_PINNED_LARGE)
                  .invokeExact(
                      store.handle(),
                      ro,
                      (long) n,
                      keyAddresses,
                      keySizes,
                      batch,
                      values,
                      valueSizes,
                      codes,
                      slots.message);
      scope.open();
      count = n;
      if (code != Native.OK) {
        // A per-key error, after every key was read: the results stay readable.
        throw Native.error(code, slots.message);
      }
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      FfmStore.end(options);
      Reference.reachabilityFence(this); // its Cleaner must not free the batch during the call
    }
    return n;
  }

  /** Room for n keys of total bytes (grown to twice what is needed: no churn). */
  private void reserve(int n, long total) {
    if (n > capacity) {
      int c = Math.max(n, 2 * capacity);
      Arena arena = Arena.ofAuto();
      keyAddresses = arena.allocate(JAVA_LONG, c);
      keySizes = arena.allocate(JAVA_LONG, c);
      values = arena.allocate(JAVA_LONG, c);
      valueSizes = arena.allocate(JAVA_LONG, c);
      codes = arena.allocate(JAVA_INT, c);
      capacity = c;
    }
    if (total > keyBytes.byteSize()) {
      keyBytes = Arena.ofAuto().allocate(Math.max(total, 2 * keyBytes.byteSize()));
    }
  }

  /**
   * Key i's value from the last get.
   *
   * @param i from 0 to the last get's count
   * @return the value, read-only, valid until this batch's next get, release or close; null if key
   *     i has no value
   * @throws IndexOutOfBoundsException for i outside the last get
   */
  public MemorySegment value(int i) {
    Objects.checkIndex(i, count);
    if (codes.getAtIndex(JAVA_INT, i) != Native.OK) {
      return null;
    }
    return scope.slice(values.getAtIndex(JAVA_LONG, i), valueSizes.getAtIndex(JAVA_LONG, i));
  }

  /**
   * Keys of the last get (0 after release or close).
   *
   * @return the count
   */
  public int count() {
    return count;
  }

  /** Drops every pin; the last values' segments throw from now on. Idempotent. */
  public void release() {
    if (closed) {
      return;
    }
    scope.close();
    count = 0;
    Native.call(Native.PINNED_BATCH_RELEASE, batch);
    Reference.reachabilityFence(this);
  }

  /**
   * For FfmDecoding's per-thread batch: binds it to store for one call.
   *
   * @param store the store of the next get
   */
  void bind(FfmStore store) {
    this.store = store;
  }

  /** As release(), and lets go of the store's database and the store (FfmDecoding). */
  void releaseDetached() {
    scope.close();
    count = 0;
    Native.call(Native.PINNED_BATCH_RELEASE_DETACHED, batch);
    Reference.reachabilityFence(this);
    store = null;
  }

  /** Releases and frees the batch. Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      scope.close();
      count = 0;
      closed = true;
      cleanable.clean();
    }
  }
}
