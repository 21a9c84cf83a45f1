// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.pinget.ReadOptions;
import io.pinget.WriteOptions;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

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

  // The last read and write options' native twins (a pinget_read_options and a
  // pinget_write_options made on first use), set again only when other options come: a caller
  // that reuses its options pays no downcall for them.
  private ReadOptions lastRead;
  private MemorySegment nativeRead;
  private WriteOptions lastWrite;
  private MemorySegment nativeWrite;

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
   * Native.Access#CRITICAL_HEAP}). Pass key.length with it. This copy is not counted in the key
   * copies of io.pinget.CopyStats: counting it takes a downcall of its own, measured at about 100
   * ns per get at the hot key (1.45 against 1.77 million pinned-view gets per second).
   */
  MemorySegment key(byte[] bytes) {
    if (bytes.length > key.byteSize()) {
      key = Arena.ofAuto().allocate(Math.max(bytes.length, 2 * key.byteSize()));
    }
    MemorySegment.copy(bytes, 0, key, JAVA_BYTE, 0, bytes.length);
    return key;
  }

  /**
   * The native read options for options, whose content the caller has checked (column family id
   * idInStore, snapshot the native pinget_snapshot* or NULL, held for the read): NULL for {@link
   * ReadOptions#DEFAULT} (C's defaults).
   */
  MemorySegment readOptions(ReadOptions options, int idInStore, MemorySegment snapshot) {
    if (options == ReadOptions.DEFAULT) {
      return MemorySegment.NULL;
    }
    if (options != lastRead) {
      if (nativeRead == null) {
        nativeRead = Native.create(Native.READ_OPTIONS_CREATE, this);
        Native.destroyWhenUnreachable(this, Native.READ_OPTIONS_DESTROY, nativeRead);
      }
      lastRead = null; // until every setter has run
      try {
        Native.check(
            (int) Native.READ_OPTIONS_SET_SNAPSHOT.invokeExact(nativeRead, snapshot, message),
            message);
        Native.check(
            (int) Native.READ_OPTIONS_SET_COLUMN_FAMILY.invokeExact(nativeRead, idInStore, message),
            message);
        Native.check(
            (int)
                Native.READ_OPTIONS_SET_FILL_CACHE.invokeExact(
                    nativeRead, options.fillCache() ? 1 : 0, message),
            message);
        Native.check(
            (int)
                Native.READ_OPTIONS_SET_VERIFY_CHECKSUMS.invokeExact(
                    nativeRead, options.verifyChecksums() ? 1 : 0, message),
            message);
        Native.check(
            (int)
                Native.READ_OPTIONS_SET_PIN_MEMTABLE.invokeExact(
                    nativeRead, options.pinMemtable() ? 1 : 0, message),
            message);
      } catch (Throwable t) {
        throw Native.rethrow(t);
      }
      lastRead = options;
    }
    return nativeRead;
  }

  /** The native write options for options (their column family is passed with each call). */
  MemorySegment writeOptions(WriteOptions options) {
    if (options != lastWrite) {
      if (nativeWrite == null) {
        nativeWrite = Native.create(Native.WRITE_OPTIONS_CREATE, this);
        Native.destroyWhenUnreachable(this, Native.WRITE_OPTIONS_DESTROY, nativeWrite);
      }
      lastWrite = null;
      try {
        Native.check(
            (int)
                Native.WRITE_OPTIONS_SET_SYNC.invokeExact(
                    nativeWrite, options.sync() ? 1 : 0, message),
            message);
        Native.check(
            (int)
                Native.WRITE_OPTIONS_SET_DISABLE_WAL.invokeExact(
                    nativeWrite, options.disableWal() ? 1 : 0, message),
            message);
      } catch (Throwable t) {
        throw Native.rethrow(t);
      }
      lastWrite = options;
    }
    return nativeWrite;
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
