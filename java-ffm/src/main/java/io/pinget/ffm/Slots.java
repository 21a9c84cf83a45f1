// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.nio.ByteBuffer;

/**
 * Out-parameters of one thread's C calls, in native memory that lives as long as the Slots: a
 * size_t (a value's size), a char* (a value C allocated) and a char* (an error message); room for a
 * key; and, made on first use, a pinget_pinned for a pin held only during one call. One per thread
 * for the store's own calls, one per view: no allocation per call. Not thread-safe.
 */
final class Slots {
  private static final ThreadLocal<Slots> PER_THREAD = ThreadLocal.withInitial(Slots::new);

  final MemorySegment size;
  final MemorySegment pointer;
  final MemorySegment message;
  private MemorySegment key = Arena.ofAuto().allocate(256);
  private MemorySegment pinned;

  // The native read options (a pinget_read_options made on first use) and the values last set in
  // them, set again only when other values come: reads with equal options (the same object or not)
  // pay no downcall for them. Values, not the ReadOptions: holding that would keep its snapshot
  // (and its database) alive after the caller dropped it. An address of a freed snapshot that a new
  // one reuses is that new snapshot's, so a hit on it reads the right one.
  private MemorySegment nativeRead;
  private long lastSnapshot;
  private int lastColumnFamily;
  private int lastFlags = -1; // no flags are -1: nothing set yet

  // The per-thread Slots' segment over the destination of its thread's last copy, reused while
  // the same array, or the same buffer with the same position and limit, comes back: a segment
  // made per call is an allocation that the JIT does not always remove (MemorySegment.ofBuffer's
  // it never removed: docs/benchmarks.md). Both held weakly: a destination the caller dropped is
  // not kept alive here, and a collection clears the segment, which the next call makes again. A
  // caller alternating two destinations misses every time and pays two WeakReferences per call.
  private static final WeakReference<Object> NO_DST = new WeakReference<>(null);
  private static final WeakReference<MemorySegment> NO_SEGMENT = new WeakReference<>(null);
  private WeakReference<Object> lastDst = NO_DST;
  private WeakReference<MemorySegment> lastDstSegment = NO_SEGMENT;
  private int lastDstPosition;
  private int lastDstLimit;

  Slots() {
    MemorySegment all = Arena.ofAuto().allocate(24, 8);
    size = all.asSlice(0, 8);
    pointer = all.asSlice(8, 8);
    message = all.asSlice(16, 8);
  }

  static Slots ofThisThread() {
    return PER_THREAD.get();
  }

  long size() {
    return size.get(JAVA_LONG, 0);
  }

  /**
   * key copied into native memory, for a call that allocates afterwards (see {@link
   * Native.Access#CRITICAL_HEAP}), and for the copies: a heap segment over the key would cost 72
   * bytes (the segment and its session) on every call until C2 compiles the caller. Pass
   * key.length with it. This copy is not counted in the key copies of io.pinget.CopyStats: counting
   * it takes a downcall of its own, measured at about 100 ns per get at the hot key (1.45 against
   * 1.77 million pinned-view gets per second).
   */
  MemorySegment key(byte[] bytes) {
    if (bytes.length > key.byteSize()) {
      key = Arena.ofAuto().allocate(Math.max(bytes.length, 2 * key.byteSize()));
    }
    MemorySegment.copy(bytes, 0, key, JAVA_BYTE, 0, bytes.length);
    return key;
  }

  /** A segment over all of dst, a heap array checked by the caller. */
  MemorySegment dst(byte[] dst) {
    MemorySegment last = lastDstSegment.get();
    if (last == null || lastDst.get() != dst) {
      last = remember(dst, MemorySegment.ofArray(dst));
    }
    return last;
  }

  /**
   * A segment over dst from its position to its limit, a direct buffer checked by the caller, who
   * then asks the segment's scope whether the buffer's Arena is open and this thread's.
   */
  MemorySegment dst(ByteBuffer dst) {
    int position = dst.position(); // read once: a segment is kept only for the range it covers
    int limit = dst.limit();
    MemorySegment last = lastDstSegment.get();
    if (last == null
        || lastDst.get() != dst
        || lastDstPosition != position
        || lastDstLimit != limit) {
      last = remember(dst, MemorySegment.ofBuffer(dst.duplicate().limit(limit).position(position)));
      lastDstPosition = position;
      lastDstLimit = limit;
    }
    return last;
  }

  private MemorySegment remember(Object dst, MemorySegment segment) {
    WeakReference<Object> ofDst = new WeakReference<>(dst); // both made before either is kept
    WeakReference<MemorySegment> ofSegment = new WeakReference<>(segment);
    lastDst = ofDst;
    lastDstSegment = ofSegment;
    return segment;
  }

  /**
   * This thread's native read options set to flags (io.pinget's wire form: pinget/c.h's
   * PINGET_READ_* bits), column family id idInStore and snapshot (the native pinget_snapshot* or
   * 0), all checked by the caller and held for the read.
   */
  MemorySegment readOptions(int flags, int idInStore, long snapshot) {
    if (flags != lastFlags || snapshot != lastSnapshot || idInStore != lastColumnFamily) {
      if (nativeRead == null) {
        nativeRead = Native.create(Native.READ_OPTIONS_CREATE, this);
        Native.destroyWhenUnreachable(this, Native.READ_OPTIONS_DESTROY, nativeRead);
      }
      lastFlags = -1; // until the setter has run
      try {
        Native.check(
            (int)
                Native.READ_OPTIONS_SET.invokeExact(
                    nativeRead, MemorySegment.ofAddress(snapshot), idInStore, flags, message),
            message);
      } catch (Throwable t) {
        throw Native.rethrow(t);
      }
      lastSnapshot = snapshot;
      lastColumnFamily = idInStore;
      lastFlags = flags;
    }
    return nativeRead;
  }

  /**
   * pinget_pinned_view of key into pinned, through the store's handle and the read options ro.
   *
   * @return the C code; on OK, {@link #address()} and {@link #size()} are the pinned value's until
   *     pinned is released or pins again
   */
  int pin(MemorySegment store, MemorySegment ro, byte[] key, MemorySegment pinned)
      throws Throwable {
    return (int)
        Native.PINNED_VIEW.invokeExact(
            store, ro, key(key), (long) key.length, pinned, pointer, size, message);
  }

  /**
   * pinget_pinned_view_or_copy of key: a value of at most small.byteSize() bytes copied into small
   * (pinned left holding nothing), a larger one pinned in pinned.
   *
   * @return the C code; on OK, {@link #address()} and {@link #size()} are the value's: small's
   *     address if it was copied
   */
  int pinOrCopy(
      MemorySegment store, MemorySegment ro, byte[] key, MemorySegment pinned, MemorySegment small)
      throws Throwable {
    return (int)
        Native.PINNED_VIEW_OR_COPY.invokeExact(
            store,
            ro,
            key(key),
            (long) key.length,
            pinned,
            small,
            small.byteSize(),
            pointer,
            size,
            message);
  }

  /** The char* out-parameter: the address of the value the last call lent. */
  long address() {
    return pointer.get(JAVA_LONG, 0);
  }

  /** This thread's pinget_pinned, destroyed once the Slots are unreachable. */
  MemorySegment pinned() {
    if (pinned == null) {
      pinned = Native.create(Native.PINNED_CREATE, this);
      Native.destroyWhenUnreachable(this, Native.PINNED_DESTROY, pinned);
    }
    return pinned;
  }
}
