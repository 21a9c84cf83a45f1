// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.internal;

import java.util.function.BiFunction;
import java.util.function.ToLongBiFunction;

/**
 * A thread's slot for batched decoded reads, in either door: the values one read pinned, each lent
 * to the decoder once, in key order. The loop, the per-key error and the end of the call are
 * written here once; a door gives a value's form (a ByteBuffer view, a MemorySegment) and how its
 * pins are released. Confined, as {@link CallSlot}.
 *
 * @param <V> the form in which a value is lent to the decoder
 */
public abstract class DecodedBatch<V> extends CallSlot {
  /**
   * For pinget's slots only.
   *
   * @param temporary made for one call: its native memory is freed when that call ends
   */
  protected DecodedBatch(boolean temporary) {
    super(temporary);
  }

  /**
   * The values the read reached.
   *
   * @return the number of keys whose values the read reached
   */
  protected abstract int count();

  /**
   * A value, lent until the call ends.
   *
   * @param i a key's index, below {@link #count()}
   * @return value i, or null if key i has none
   */
  protected abstract V value(int i);

  /** Releases every pin the read holds; nothing if it holds none. */
  protected abstract void release();

  /**
   * Ends the read: releases the pins, then frees the slot (keeping store reachable until then).
   *
   * @param store what the call read
   */
  protected final void done(Object store) {
    try {
      release();
    } finally {
      free(store);
    }
  }

  /**
   * Decodes each value into out at its key's index (a key without a value keeps what the read put
   * there), throws the per-key error the read kept, and ends the read. The decoder comes with a
   * function that applies it (the door's {@code ValueDecoder::decode}, say): a method reference
   * that captures nothing is one object for every call, where {@code decoder::decode} would be a
   * new one per call.
   *
   * @param decoder the caller's decoder
   * @param decode applies a decoder to a lent value
   * @param out the outputs, at least {@link #count()} long
   * @param store what the call read
   * @param <D> the decoder's type
   * @param <T> what it returns
   */
  public final <D, T> void decodeAll(
      D decoder, BiFunction<? super D, ? super V, ? extends T> decode, T[] out, Object store) {
    try {
      for (int i = 0, n = count(); i < n; i++) {
        V v = value(i);
        if (v != null) {
          out[i] = decode.apply(decoder, v);
        }
      }
      throwFailure();
    } finally {
      done(store);
    }
  }

  /**
   * {@link #decodeAll} for a decoder that returns a {@code long}: no value is boxed.
   *
   * @param decoder the caller's decoder
   * @param decode applies a decoder to a lent value
   * @param out the outputs, at least {@link #count()} long
   * @param store what the call read
   * @param <D> the decoder's type
   */
  public final <D> void decodeAllLongs(
      D decoder, ToLongBiFunction<? super D, ? super V> decode, long[] out, Object store) {
    try {
      for (int i = 0, n = count(); i < n; i++) {
        V v = value(i);
        if (v != null) {
          out[i] = decode.applyAsLong(decoder, v);
        }
      }
      throwFailure();
    } finally {
      done(store);
    }
  }
}
