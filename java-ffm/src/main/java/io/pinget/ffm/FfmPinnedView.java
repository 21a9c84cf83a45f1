// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;


import io.pinget.ReadOptions;
import io.pinget.internal.Checks;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;

/**
 * pinned_view, enforced: {@link #get} pins key's value (P copies: 0 from the block cache) and
 * returns it as a read-only {@link MemorySegment} over RocksDB's own memory. The segment's scope
 * closes when the pin goes, that is at this view's next {@code get}, {@link #release()} or {@link
 * #close()}: from then on any access through the segment, any slice of it, or any {@code
 * ByteBuffer} made from it ({@code asByteBuffer()}) throws IllegalStateException ("Already
 * closed"), where a JNI view's slice would read freed memory.
 *
 * <p>Threads: one thread at a time, as every pinned handle. Each value's scope is confined to the
 * thread that got it (a confined Arena, which costs one small allocation per get and closes without
 * a handshake): that thread reads it, and makes the view's next {@code get}, {@code release()} or
 * {@code close()}; another thread doing so throws WrongThreadException. To hand a view to another
 * thread, release it first. A forgotten view is freed by a Cleaner once neither it nor a segment it
 * returned is reachable.
 */
public final class FfmPinnedView implements AutoCloseable {
  private final FfmStore store;
  private final Slots slots = new Slots();
  private final MemorySegment pinned;
  private final Cleaner.Cleanable cleanable;

  private final ValueScope scope = new ValueScope(this);

  private boolean closed;

  FfmPinnedView(FfmStore store) {
    this.store = store;
    pinned = Native.create(Native.PINNED_CREATE, slots);
    cleanable = Native.destroyWhenUnreachable(this, Native.PINNED_DESTROY, pinned);
  }

  /**
   * Releases what the view held (its segment's scope closes first), then pins key's value.
   *
   * @param key not null, not empty
   * @return the value, read-only, valid until this view's next get, release or close; null if key
   *     has no value
   * @throws IllegalStateException if this view is closed
   * @throws io.pinget.StoreClosedException if the store is closed
   */
  public MemorySegment get(byte[] key) {
    return get(ReadOptions.DEFAULT, key);
  }

  /**
   * As {@link #get(byte[])}, with read options. Checks this view, its store (closed: the last value
   * goes), then the arguments, then the options' content (refused by them: nothing changes).
   *
   * @param options not null
   * @param key not null, not empty
   * @return the value, or null if key has no value
   */
  public MemorySegment get(ReadOptions options, byte[] key) {
    if (closed) {
      throw new IllegalStateException("view is closed");
    }
    try {
      store.checkOpen();
    } catch (io.pinget.StoreClosedException e) {
      release(); // nothing can be read any more: the last value goes
      throw e;
    }
    // A get refused by its arguments or options reads and releases nothing.
    Checks.options(options);
    Checks.key(key, 0, key == null ? 0 : key.length);
    MemorySegment ro = scope.begin(store, options, slots);
    try {
      int code = slots.pin(store.handle(), ro, key, pinned);
      if (code != Native.OK) {
        if (code == Native.NOT_FOUND) {
          return null;
        }
        throw Native.error(code, slots.message);
      }
      scope.open();
      return scope.wrap(slots.address(), slots.size());
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      FfmStore.end(options);
      Reference.reachabilityFence(this); // its Cleaner must not free the pin during the call
    }
  }

  /** Drops the pin; the last value's segment throws from now on. Idempotent. */
  public void release() {
    if (closed) {
      return;
    }
    scope.close();
    Native.call(Native.PINNED_RELEASE, pinned);
    Reference.reachabilityFence(this);
  }

  /** Releases and frees the view. Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      scope.close();
      closed = true;
      cleanable.clean();
    }
  }
}
