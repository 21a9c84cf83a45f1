// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.util.function.Consumer;

/**
 * The scope of the values a pinned handle ({@link FfmPinnedView}, {@link FfmPinnedBatch}) returns
 * from one get: a confined Arena, closed before the pin goes, so that every segment over the pinned
 * bytes, and every slice or buffer of one, throws from then on. A confined Arena closes without the
 * thread handshake a shared one needs; its values are read on the thread that got them. While open,
 * it keeps its owner (and so the owner's native pin) reachable from those segments, so that the
 * owner's Cleaner cannot free a pin a live segment shows. Not thread-safe.
 */
final class ValueScope {
  /** The cleanup action of every segment: does nothing when run, but refers to the owner. */
  private final Consumer<MemorySegment> keepAlive;

  private Arena arena; // open, or null

  ValueScope(Object owner) {
    keepAlive = s -> Reference.reachabilityFence(owner);
  }

  /** Opens the scope of the next get's values. REQUIRES: closed. */
  void open() {
    arena = Arena.ofConfined();
  }

  /** A read-only segment of size bytes at address, in the open scope. */
  MemorySegment wrap(MemorySegment address, long size) {
    return address.reinterpret(size, arena, keepAlive).asReadOnly();
  }

  /**
   * Closes the scope, if open: its segments throw from now on. On a thread other than the one that
   * opened it, throws WrongThreadException and changes nothing.
   */
  void close() {
    Arena a = arena;
    if (a != null) {
      a.close();
      arena = null;
    }
  }
}
