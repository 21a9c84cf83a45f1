// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import io.pinget.PingetException;
import io.pinget.ReadOptions;
import io.pinget.internal.CallSlot;
import io.pinget.internal.Checks;
import io.pinget.internal.DecodedBatch;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Decode on read for {@link FfmStore}: one pinget_pinned and one 1 KiB native buffer per thread (a
 * {@link Slot}), not bound to a store. A decoded get makes one downcall ({@code
 * pinget_pinned_view_or_copy}): a value of at most {@link CallSlot#SMALL} bytes is copied into the
 * slot's buffer (P + 1 copies) and nothing stays held; a larger one is pinned (P copies). The value
 * is lent to the decoder as a read-only segment in a confined Arena local to the call, which is
 * closed after it (every segment, slice and buffer of it throws from then on); a pinned value is
 * then released with the store's database ({@code pinget_pinned_release_detached}: a second
 * downcall), so that a slot keeps no database open between calls. A decoder that reads on the same
 * thread gets a slot of its own, which pins every value.
 */
final class FfmDecoding {
  private FfmDecoding() {}

  private static final ThreadLocal<Slot> SLOTS = ThreadLocal.withInitial(() -> new Slot(false));

  /** Checks in the contract's order: the store, options, key, decoder, options' content. */
  private static void check(FfmStore store, ReadOptions options, byte[] key, Object decoder) {
    store.checkRead(options, key);
    Checks.decoder(decoder);
  }

  static <T> T get(FfmStore store, ReadOptions options, byte[] key, SegmentDecoder<T> decoder) {
    check(store, options, key, decoder);
    // bytes() makes its own copy: its value is pinned, not copied into the slot first.
    Slot s = Slot.read(store, options, key, decoder != SegmentDecoders.bytes());
    if (s == null) {
      return null;
    }
    try {
      Arena scope = Arena.ofConfined(); // local: see Slot.lend
      try {
        return decoder.decode(s.lend(scope));
      } finally {
        s.endLoan(scope);
      }
    } finally {
      s.done(store);
    }
  }

  static long getLong(
      FfmStore store, ReadOptions options, byte[] key, LongSegmentDecoder decoder, long missing) {
    check(store, options, key, decoder);
    Slot s = Slot.read(store, options, key, true);
    if (s == null) {
      return missing;
    }
    try {
      Arena scope = Arena.ofConfined(); // local: see Slot.lend
      try {
        return decoder.decode(s.lend(scope));
      } finally {
        s.endLoan(scope);
      }
    } finally {
      s.done(store);
    }
  }

  /**
   * One thread's batch for batched decoded gets, bound to a store for one call at a time (nested
   * calls take a temporary one); between calls it holds no pin, database or store.
   */
  static final class BatchSlot extends DecodedBatch<MemorySegment> {
    private static final ThreadLocal<BatchSlot> SLOTS =
        ThreadLocal.withInitial(() -> new BatchSlot(false));

    private final FfmPinnedBatch batch = new FfmPinnedBatch(null);

    private BatchSlot(boolean temporary) {
      super(temporary);
      freesWith(batch::close);
    }

    /**
     * Begins a batched decoded read: checks in the contract's order (the store, options, keys,
     * decoder, out, then the options' content); empties out's first keys.length elements (null, or
     * missing in a long[]: all of out if refused) and pins every key's value of store. A per-key
     * error, raised after every key was read, is kept for {@link #throwFailure}.
     *
     * @param out an Object[] of the decoded type, or a long[]
     * @return this thread's batch (a temporary one if it is in use), busy until {@link #done}
     */
    static BatchSlot read(
        FfmStore store,
        ReadOptions options,
        byte[][] keys,
        Object decoder,
        Object out,
        long missing) {
      try {
        store.checkOpen();
        Checks.options(options);
        Checks.decodedBatch(keys, decoder, out);
      } catch (RuntimeException | Error e) {
        Checks.refused(out, missing);
        throw e;
      }
      Checks.emptied(out, keys.length, missing);
      BatchSlot b = take(SLOTS, () -> new BatchSlot(true));
      try {
        b.pin(store, options, keys);
      } catch (RuntimeException | Error e) {
        b.done(store);
        throw e;
      }
      return b;
    }

    /** Pins every key's value (the batch checks the options' content). */
    private void pin(FfmStore store, ReadOptions options, byte[][] keys) {
      batch.bind(store);
      try {
        batch.get(options, keys);
      } catch (PingetException e) {
        keepFailure(e); // a per-key error, after every key was read
      }
    }

    @Override
    protected int count() {
      return batch.count();
    }

    @Override
    protected MemorySegment value(int i) {
      return batch.value(i);
    }

    /** Closes the values' scope and releases the pins and the database. */
    @Override
    protected void release() {
      batch.releaseDetached();
    }
  }

  /** One thread's pin and buffer; one call at a time (nested calls take a temporary one). */
  static final class Slot extends CallSlot {
    private final MemorySegment pinned;
    // SMALL bytes; NULL (every value pinned) for a temporary slot.
    private final MemorySegment small;
    private boolean held;
    private boolean lent;
    private long address;
    private long size;

    /**
     * Slots whose value's scope did not close: kept reachable, so that no Cleaner frees the pin.
     */
    private static final Queue<Slot> STRANDED = new ConcurrentLinkedQueue<>();

    private Slot(boolean temporary) {
      super(temporary);
      small = temporary ? MemorySegment.NULL : Arena.ofAuto().allocate(SMALL, 8);
      pinned = Native.create(Native.PINNED_CREATE, Slots.ofThisThread());
      freesWith(Native.destroyWhenUnreachable(this, Native.PINNED_DESTROY, pinned));
    }

    /**
     * Checks the options' content and reads key's value into this thread's slot (a temporary one if
     * it is in use): copied into the slot's buffer if it fits and copy is true, else pinned.
     *
     * @return the slot, busy until {@link #done}; null (the slot freed) if the key does not exist
     */
    static Slot read(FfmStore store, ReadOptions options, byte[] key, boolean copy) {
      Slot s = take(SLOTS, () -> new Slot(true));
      boolean found = false;
      try {
        found = s.fill(store, options, key, copy);
        return found ? s : null;
      } finally {
        if (!found) {
          s.done(store);
        }
      }
    }

    /** read()'s call: true if the key has a value. */
    private boolean fill(FfmStore store, ReadOptions options, byte[] key, boolean copy) {
      Slots slots = Slots.ofThisThread();
      MemorySegment ro = store.begin(options, slots);
      try {
        held = true; // until the call has said what it holds
        int code =
            slots.pinOrCopy(store.handle(), ro, key, pinned, copy ? small : MemorySegment.NULL);
        address = slots.address();
        size = slots.size();
        // Copied, not found or failed: the pinget_pinned holds nothing, detached.
        held = code == Native.OK && address != small.address();
        if (code == Native.NOT_FOUND) {
          return false;
        }
        Native.check(code, slots.message);
        return true;
      } catch (Throwable t) {
        throw Native.rethrow(t);
      } finally {
        FfmStore.end(options);
      }
    }

    /**
     * The value read, read-only, in scope, lent until {@link #endLoan} closes scope. The scope is a
     * confined Arena local to the read, so that the JIT can scalar-replace it and the segment (0 B
     * per read when the decoder inlines); a segment kept past the call throws. REQUIRES: this slot
     * came from read().
     */
    MemorySegment lend(Arena scope) {
      lent = true;
      return MemorySegment.ofAddress(address).reinterpret(size, scope, null).asReadOnly();
    }

    /** Closes the lent value's scope: its segment throws from now on. */
    void endLoan(Arena scope) {
      scope.close();
      lent = false; // not reached if close() failed: done() then keeps the pin
    }

    /**
     * Ends a read that read() began: releases the pin (if the value was pinned) and the database,
     * frees the slot, and keeps store reachable until then (nothing else keeps the pin alive for a
     * lent segment). A value still lent (its scope's close failed, with an Error) keeps the pin,
     * held by this slot forever, never reused.
     */
    void done(FfmStore store) {
      if (lent) {
        STRANDED.add(this);
        return;
      }
      try {
        if (held) {
          held = false;
          // Called on the constant handle itself: through Native.call's parameter it is not a
          // constant to the JIT, and the downcall is not inlined.
          Native.PINNED_RELEASE_DETACHED.invokeExact(pinned);
        }
      } catch (Throwable t) {
        throw Native.rethrow(t);
      } finally {
        free(store);
      }
    }
  }
}
