// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import io.pinget.internal.CallSlot;
import io.pinget.internal.Checks;
import io.pinget.internal.DecodedBatch;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Decode on read for {@link Store} (RocksJavaReader's too): {@link Reader#get(ReadOptions, byte[],
 * int, int, ValueDecoder)}, {@link Reader#getLong} and their batched forms, without an allocation
 * of pinget's. Each thread has one native pin and one view (a {@link Slot}) and one native batch
 * with its views (a {@link BatchSlot}), neither bound to a store. Where Java re-points views
 * ({@link Views#JAVA_REPOINTED}: JDK 17 to 23), a decoded get of a value up to {@link
 * CallSlot#SMALL} bytes copies it into this thread's slot in its one JNI crossing (P + 1 copies),
 * where nothing stays held, and lends it through the slot's view pointed at the copy; a larger
 * value (any value on JDK 24+, and in a nested read) is pinned (P copies), lent through the view,
 * then released with a second crossing. Between calls a slot holds no pin, so it keeps no database
 * open. A decoder that reads through a reader on the same thread gets a slot of its own for that
 * read (made and freed around it).
 *
 * <p>Checks, in the contract's order: the store (closed; for a RocksJava database, its owner's
 * objects), the options (null), the key, the decoder (null), the batch's output array, then the
 * options' content.
 */
final class Decoding {
  private Decoding() {}

  private static final ThreadLocal<Slot> SLOTS = ThreadLocal.withInitial(Slot::new);
  private static final ThreadLocal<BatchSlot> BATCH_SLOTS = ThreadLocal.withInitial(BatchSlot::new);

  static <T> T get(
      Store store, ReadOptions options, byte[] key, int off, int len, ValueDecoder<T> decoder) {
    check(store, options);
    Checks.key(key, off, len);
    Checks.decoder(decoder);
    if (decoder == Decoders.bytes()) {
      return asT(store.pinnableCopy(options, key, off, len));
    }
    Slot s = Slot.take();
    try {
      return s.pin(store, options, key, null, off, len) ? decoder.decode(s.view()) : null;
    } finally {
      s.done(store);
    }
  }

  static <T> T get(Store store, ReadOptions options, ByteBuffer key, ValueDecoder<T> decoder) {
    check(store, options);
    Checks.key(key);
    Checks.decoder(decoder);
    if (decoder == Decoders.bytes()) {
      return asT(store.pinnableCopy(options, key));
    }
    Slot s = Slot.take();
    try {
      return s.pin(store, options, key) ? decoder.decode(s.view()) : null;
    } finally {
      s.done(store);
    }
  }

  /**
   * Decoders.bytes() read as pinnable_copy: its one copy and array, in one crossing (through the
   * slot, a small value would be copied twice). T is byte[] whenever the decoder is bytes().
   */
  @SuppressWarnings("unchecked")
  private static <T> T asT(byte[] value) {
    return (T) value;
  }

  // The long forms: the object forms above without the value's box (and without bytes()'s copy).

  static long getLong(
      Store store,
      ReadOptions options,
      byte[] key,
      int off,
      int len,
      LongDecoder decoder,
      long missing) {
    check(store, options);
    Checks.key(key, off, len);
    Checks.decoder(decoder);
    Slot s = Slot.take();
    try {
      return s.pin(store, options, key, null, off, len) ? decoder.decode(s.view()) : missing;
    } finally {
      s.done(store);
    }
  }

  static long getLong(
      Store store, ReadOptions options, ByteBuffer key, LongDecoder decoder, long missing) {
    check(store, options);
    Checks.key(key);
    Checks.decoder(decoder);
    Slot s = Slot.take();
    try {
      return s.pin(store, options, key) ? decoder.decode(s.view()) : missing;
    } finally {
      s.done(store);
    }
  }

  /** The first checks of every decoded read: the store (for the options' column family). */
  private static void check(Store store, ReadOptions options) {
    store.checkOpen(options == null ? null : options.columnFamily);
    Checks.options(options);
  }

  /** Frees a native handle once; does not count as a forgotten pin (a slot never holds one). */
  private static Cleaner.Cleanable freeWhenUnreachable(Object owner, long handle, boolean batch) {
    return Cleaners.CLEANER.register(
        owner,
        () -> {
          if (batch) {
            NativePinned.freeBatch(handle);
          } else {
            NativePinned.freePinned(handle);
          }
        });
  }

  /**
   * One thread's pin and view for single decoded gets. Used by one call at a time: a nested call (a
   * decoder that reads) takes a temporary slot. Not thread-safe.
   */
  static final class Slot extends CallSlot {
    private final long pinned;
    private final ByteBuffer view; // attached to this; null when views are not re-pointed
    // Where small values are copied: SMALL bytes for a thread's own slot where Java re-points views
    // (the view is pointed at the copy, capacity its size); none for a temporary slot or where
    // native code re-points (smallCapacity 0: every value is pinned).
    private final int smallCapacity;
    private final ByteBuffer small; // kept reachable: native code writes smallAddress
    private final long smallAddress;
    private boolean held; // a large value pinned, or a read in flight
    private int size = -1;

    private Slot() {
      this(false);
    }

    private Slot(boolean temporary) {
      super(temporary);
      this.smallCapacity = temporary || !Views.JAVA_REPOINTED ? 0 : SMALL;
      this.small = smallCapacity == 0 ? null : ByteBuffer.allocateDirect(smallCapacity);
      this.smallAddress = small == null ? 0 : NativePinned.addressOf(small);
      this.pinned = NativePinned.newPinned();
      freesWith(freeWhenUnreachable(this, pinned, false));
      this.view = Views.attachedTo(this);
    }

    /** This thread's slot, or a temporary one if it is in use; marked in use. */
    static Slot take() {
      return take(SLOTS, () -> new Slot(true));
    }

    /**
     * Checks the options' content and reads the value: copied into the slot if small, else pinned.
     *
     * @return false if the key does not exist
     */
    boolean pin(
        Store store, ReadOptions options, byte[] key, ByteBuffer keyBuffer, int off, int len) {
      long snapshot = options.acquire(store);
      try {
        held = true; // until the call says what it left held
        size =
            NativePinned.getCopiedIfSmall(
                store.handle,
                pinned,
                view,
                smallAddress,
                smallCapacity,
                key,
                keyBuffer,
                KeyCopy.ofThisThread(key, keyBuffer, off, len),
                off,
                len,
                snapshot,
                options.columnFamily.id(),
                options.flags);
        held = size >= 0 && !copied();
        return size >= 0;
      } finally {
        options.release();
      }
    }

    /** As the array form, for a key read from a direct buffer's position to its limit. */
    boolean pin(Store store, ReadOptions options, ByteBuffer key) {
      return pin(store, options, null, key, key.position(), key.remaining());
    }

    private boolean copied() {
      return smallCapacity > 0 && size >= 0 && size <= smallCapacity;
    }

    /**
     * The value for the decoder: position 0, limit = capacity = its size, read-only, big-endian.
     */
    ByteBuffer view() {
      if (copied()) {
        Views.point(view, size == 0 ? Views.NOTHING : smallAddress, size);
        return view.order(ByteOrder.BIG_ENDIAN);
      }
      if (view == null) {
        return Views.readOnly(NativePinned.viewOf(pinned));
      }
      view.clear();
      return view.order(ByteOrder.BIG_ENDIAN);
    }

    /**
     * Empties the view (capacity 0) and releases a large value's pin, and frees the slot for the
     * next call; keeps store reachable until then.
     */
    void done(Store store) {
      try {
        if (copied()) {
          Views.pointAtNothing(view);
        }
        if (held) {
          held = false;
          NativePinned.releaseDetached(pinned, view);
          Views.reset(view);
        }
      } finally {
        size = -1;
        free(store);
      }
    }
  }

  /** One thread's native batch and views for batched decoded gets; as {@link Slot}. */
  static final class BatchSlot extends DecodedBatch<ByteBuffer> {
    private static final ByteBuffer[] NO_VIEWS = new ByteBuffer[0];

    private final long batch;
    private final PackedKeys packed = new PackedKeys(); // slot i: key i's length, then its size
    private ByteBuffer[] views = NO_VIEWS; // attached to this; grown, never shrunk
    private boolean held;
    private int count; // the keys of the read in flight

    private BatchSlot() {
      this(false);
    }

    private BatchSlot(boolean temporary) {
      super(temporary);
      this.batch = NativePinned.newBatch();
      freesWith(freeWhenUnreachable(this, batch, true));
    }

    /**
     * Begins a batched decoded read: checks in the contract's order (the store, options, keys,
     * decoder, out, then the options' content); empties out's first keys.length elements (null, or
     * missing in a long[]: all of out if refused) and pins every key's value over MultiGet. A
     * per-key error, raised after every key was read, is kept for {@link #throwFailure}.
     *
     * @param out an Object[] of the decoded type, or a long[]
     * @return this thread's batch (a temporary one if it is in use), busy until {@link #done}
     */
    static BatchSlot read(
        Store store, ReadOptions options, byte[][] keys, Object decoder, Object out, long missing) {
      long snapshot;
      try {
        check(store, options);
        Checks.decodedBatch(keys, decoder, out);
        snapshot = options.acquire(store);
      } catch (RuntimeException | Error e) {
        Checks.refused(out, missing);
        throw e;
      }
      Checks.emptied(out, keys.length, missing);
      BatchSlot b = take(options);
      try {
        b.pin(store, options, snapshot, keys);
      } catch (RuntimeException | Error e) {
        b.done(store);
        throw e;
      }
      return b;
    }

    /** As Slot.take; if that fails, ends the read that options.acquire began. */
    private static BatchSlot take(ReadOptions acquired) {
      try {
        return take(BATCH_SLOTS, () -> new BatchSlot(true));
      } catch (RuntimeException | Error e) {
        acquired.release();
        throw e;
      }
    }

    /** Pins every key's value (snapshot acquired by the caller, released here). */
    private void pin(Store store, ReadOptions options, long snapshot, byte[][] keys) {
      int n = keys.length;
      try {
        grow(n);
        count = n;
        packed.pack(keys);
        held = true;
        NativePinned.multiGet(
            store.handle,
            batch,
            n,
            packed.bytes(),
            packed.slots(),
            snapshot,
            options.columnFamily.id(),
            options.flags);
      } catch (PingetException e) {
        keepFailure(e); // a per-key error, after every key was read: the sizes are set
      } finally {
        for (int i = 0, shown = Math.min(n, views.length); i < shown; i++) {
          Views.reset(views[i]);
        }
        options.release();
      }
    }

    @Override
    protected int count() {
      return count;
    }

    /** Value i (position 0, big-endian), or null. REQUIRES: this batch came from read(). */
    @Override
    protected ByteBuffer value(int i) {
      if (packed.slot(i) < 0) {
        return null;
      }
      if (!Views.REPOINTED) {
        return Views.readOnly(NativePinned.batchViewOf(batch, i));
      }
      ByteBuffer v = views[i];
      v.clear();
      return v.order(ByteOrder.BIG_ENDIAN);
    }

    @Override
    protected void release() {
      if (held) {
        held = false;
        NativePinned.releaseBatchDetached(batch);
        for (ByteBuffer v : views) {
          Views.reset(v);
        }
      }
    }

    private void grow(int n) {
      if (n <= views.length) {
        return;
      }
      ByteBuffer[] grown = Arrays.copyOf(views, n);
      for (int i = views.length; i < n; i++) {
        ByteBuffer view = Views.attachedTo(this);
        grown[i] = view != null ? view : NativePinned.emptyView();
      }
      NativePinned.setBatchViews(batch, grown);
      views = grown;
    }
  }
}
