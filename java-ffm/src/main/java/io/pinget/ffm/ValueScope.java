// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import io.pinget.ReadOptions;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.util.function.Consumer;

/**
 * The scope of the values a pinned handle ({@link FfmPinnedView}, {@link FfmPinnedBatch}, {@link
 * FfmCursor}) returns from one get or batch: a confined Arena, closed before the pin goes, so that
 * every segment over the pinned bytes, and every slice or buffer of one, throws from then on. A
 * confined Arena closes without the thread handshake a shared one needs; its values are read on the
 * thread that got them. While open, a scope keeps its owner (and so its native pin) reachable from
 * those segments, so that the owner's Cleaner cannot free a pin a live segment shows. (Decode on
 * read needs none of this: its scope is a local Arena of the call, see FfmDecoding.)
 *
 * <p>Two ways to make a value: {@link #wrap} (a single get: its one value made alone) and {@link
 * #slice} (batches and cursors: every value a slice of one read-only segment over the address
 * space, made once per scope, so one allocation site that the JIT can scalar-replace). Not
 * thread-safe.
 */
final class ValueScope {
  /** The cleanup action of the scope: does nothing when run, but refers to the owner. */
  private final Consumer<MemorySegment> keepAlive;

  private Arena arena; // open, or null
  private MemorySegment all; // the address space, read-only, in arena; null until first needed

  ValueScope(Object owner) {
    keepAlive = s -> Reference.reachabilityFence(owner);
  }

  /**
   * Begins a get of the owner's: the options' content ({@link FfmStore#begin}: the native options
   * returned), then the last get's values closed; on another thread, WrongThreadException, with
   * the options ended and nothing changed.
   */
  MemorySegment begin(FfmStore store, ReadOptions options, Slots slots) {
    MemorySegment ro = store.begin(options, slots);
    try {
      close();
    } catch (RuntimeException | Error e) {
      FfmStore.end(options);
      throw e;
    }
    return ro;
  }

  /** Opens the scope of the next get's values. REQUIRES: closed. */
  void open() {
    arena = Arena.ofConfined();
  }

  /**
   * A read-only segment of size bytes at address, in the open scope, made alone: for a scope of one
   * value (a single get). A scope of many values takes {@link #slice}.
   */
  MemorySegment wrap(long address, long size) {
    return MemorySegment.ofAddress(address).reinterpret(size, arena, keepAlive).asReadOnly();
  }

  /**
   * A read-only segment of size bytes at address, in the open scope: always a slice of the address
   * space's segment, made at the scope's first slice. One allocation site, so that the JIT can
   * scalar-replace a slice that does not escape (a cursor entry read in place allocates nothing).
   */
  MemorySegment slice(long address, long size) {
    MemorySegment a = all;
    if (a == null) {
      a = MemorySegment.NULL.reinterpret(Long.MAX_VALUE, arena, keepAlive).asReadOnly();
      all = a;
    }
    return a.asSlice(address, size);
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
      all = null;
    }
  }
}
