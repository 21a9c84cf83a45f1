// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.Objects;
import java.util.function.Consumer;

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
  private static final Cleaner CLEANER = Cleaner.create();

  private final FfmStore store;
  private final Slots slots = new Slots();
  private final MemorySegment pinned;
  private final Cleaner.Cleanable cleanable;

  /**
   * The current value's scope's cleanup action: it does nothing when run, but while the scope is
   * open it keeps this view, and so its pin, reachable from the segment.
   */
  private final Consumer<MemorySegment> keepAlive = s -> Reference.reachabilityFence(this);

  private Arena scope; // the current value's, or null
  private boolean closed;

  FfmPinnedView(FfmStore store) {
    this.store = store;
    try {
      Native.check(
          (int) Native.PINNED_CREATE.invokeExact(slots.pointer, slots.message), slots.message);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
    MemorySegment p = slots.pointer.get(ADDRESS, 0);
    pinned = p;
    cleanable = CLEANER.register(this, () -> destroy(p));
  }

  static void destroy(MemorySegment pinned) {
    try {
      Native.PINNED_DESTROY.invokeExact(pinned);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
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
    return get(FfmReadOptions.DEFAULT, key);
  }

  /**
   * As {@link #get(byte[])}, with read options.
   *
   * @param options not null
   * @param key not null, not empty
   * @return the value, or null if key has no value
   */
  public MemorySegment get(FfmReadOptions options, byte[] key) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(key, "key");
    if (closed) {
      throw new IllegalStateException("view is closed");
    }
    revoke();
    MemorySegment ro = options.acquire(store);
    try {
      int code =
          (int)
              Native.GET_PINNED.invokeExact(
                  store.handle(),
                  ro,
                  slots.key(key),
                  (long) key.length,
                  pinned,
                  slots.pointer,
                  slots.size,
                  slots.message);
      if (code != Native.OK) {
        if (code == Native.NOT_FOUND) {
          return null;
        }
        throw Native.error(code, slots.message);
      }
      Arena arena = Arena.ofConfined();
      scope = arena;
      return slots.pointer.get(ADDRESS, 0).reinterpret(slots.size(), arena, keepAlive).asReadOnly();
    } catch (Throwable t) {
      throw Native.rethrow(t);
    } finally {
      options.release();
    }
  }

  /** Closes the current value's scope (every segment of it throws from now on). */
  private void revoke() {
    Arena s = scope;
    if (s != null) {
      s.close(); // WrongThreadException on another thread: then nothing changes
      scope = null;
    }
  }

  /** Drops the pin; the last value's segment throws from now on. Idempotent. */
  public void release() {
    if (closed) {
      return;
    }
    revoke();
    try {
      Native.PINNED_RELEASE.invokeExact(pinned);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** Releases and frees the view. Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      revoke();
      closed = true;
      cleanable.clean();
    }
  }
}
