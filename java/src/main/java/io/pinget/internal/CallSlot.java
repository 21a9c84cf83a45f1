// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.internal;

import java.util.function.Supplier;

/**
 * What each door's decode-on-read slots share (a single get's pin, a batch's pins): a thread's own
 * slot serves one call at a time, and a call made during another on the same thread (a decoder that
 * reads) takes a temporary slot instead. Confined: only the thread that took a slot touches it,
 * until {@link #free}.
 */
public abstract class CallSlot {
  private boolean busy;

  /** For pinget's slots only. */
  protected CallSlot() {}

  /**
   * Takes this thread's own slot, or a new one from temporary if it is in use; in use until {@link
   * #free}.
   *
   * @param own this thread's own slot
   * @param temporary makes a slot for one call
   * @param <S> the slot's type
   * @return the slot, in use
   */
  protected static <S extends CallSlot> S take(ThreadLocal<S> own, Supplier<S> temporary) {
    S s = own.get();
    if (((CallSlot) s).busy) {
      s = temporary.get();
    }
    ((CallSlot) s).busy = true;
    return s;
  }

  /** Ends the call that took this slot: the thread's own serves the next one. */
  protected final void free() {
    busy = false;
  }
}
