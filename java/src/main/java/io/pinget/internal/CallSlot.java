// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.internal;

import io.pinget.PingetException;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.function.Supplier;

/**
 * What each door's decode-on-read slots share (a single get's pin, a batch's pins): a thread's own
 * slot serves one call at a time, and a call made during another on the same thread (a decoder that
 * reads) takes a temporary slot instead, whose native memory is freed when that call ends (unless
 * the slot is kept, never freed, because a value it lent could not be closed). Confined: only the
 * thread that took a slot touches it, until {@link #free}.
 */
public abstract class CallSlot {
  /**
   * Values up to this size are copied into a thread's own slot in the read's one crossing (JNI:
   * where Java re-points views, JDK 17 to 23; FFM: for every decoder but SegmentDecoders.bytes(),
   * which copies the pinned value itself); larger ones (and every value of a temporary slot) stay
   * pinned until the call ends, which costs a second crossing. Measured (docs/benchmarks.md, "One
   * crossing up to 1 KiB"): the one crossing gains 4% at 8 and 64 bytes and 2% for a 1 KiB Avro
   * record read whole (in pairs); in Kafka's store stack, 3% to 5% at 256 B and 1 KiB read whole,
   * 5% to 10% for a decoder that reads the first 8 bytes. An earlier paired run (2026-12-02) had
   * that 8-byte decoder lose 5% at 1 KiB.
   */
  public static final int SMALL = 1024;

  private final boolean temporary;
  private Cleaner.Cleanable nativeMemory; // run at the end of a temporary slot's call
  private boolean busy;
  private PingetException failed; // a batch's per-key error, until thrown or the call ends

  /**
   * For pinget's slots only.
   *
   * @param temporary made for one call: its native memory is freed when that call ends
   */
  protected CallSlot(boolean temporary) {
    this.temporary = temporary;
  }

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

  /**
   * The slot's native memory, freed once: at the end of its call if temporary, else by the Cleaner
   * that made it.
   *
   * @param cleanable frees it
   */
  protected final void freesWith(Cleaner.Cleanable cleanable) {
    nativeMemory = cleanable;
  }

  /**
   * Keeps a batch's per-key error, raised after every key was read, for {@link #throwFailure}.
   *
   * @param e the error
   */
  protected final void keepFailure(PingetException e) {
    failed = e;
  }

  /** Throws the per-key error the call kept, if any; call once the values are decoded. */
  public final void throwFailure() {
    PingetException e = failed;
    failed = null;
    if (e != null) {
      throw e;
    }
  }

  /**
   * Ends the call that took this slot, last (after the pin's release, or its failure): the
   * thread's own serves the next one, a temporary one frees its native memory (with any pin left).
   * Keeps this slot and store reachable until then: a native handle read or released in the call
   * stays alive through it.
   *
   * @param store what the call read (any object, or null)
   */
  protected final void free(Object store) {
    busy = false;
    failed = null;
    try {
      if (temporary && nativeMemory != null) {
        nativeMemory.clean();
      }
    } finally {
      Reference.reachabilityFence(this);
      Reference.reachabilityFence(store);
    }
  }
}
