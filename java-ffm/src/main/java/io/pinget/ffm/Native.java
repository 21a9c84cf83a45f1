// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.pinget.PingetException;
import io.pinget.Store;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Cleaner;

/**
 * Downcall handles to pinget's C API (pinget/c.h), which the pinget JAR's native library exports
 * beside its JNI entry point: one library, loaded once, serves both bindings. Reads are {@code
 * critical} downcalls (no thread-state transition), as every C read returns without blocking for
 * long (see {@link Access}). Opening, writes and snapshots go through io.pinget.Store.
 */
final class Native {
  private Native() {}

  static final int OK = 0;
  static final int NOT_FOUND = 1;

  /** libpinget_jni.so, libpinget_jni.dylib or pinget_jni.dll. */
  private static final String LIBRARY = System.mapLibraryName("pinget_jni");

  private static final Linker LINKER = Linker.nativeLinker();
  private static final SymbolLookup LOOKUP = lookup();

  /** pinget's loader loads the library (from its JAR); this finds it again by name. */
  private static SymbolLookup lookup() {
    Store.rocksdbVersion();
    SymbolLookup loader = SymbolLookup.loaderLookup();
    if (loader.find("pinget_pinned_view").isPresent()) {
      return loader;
    }
    // Another class loader loaded it: dlopen (LoadLibrary) finds the loaded library by its name.
    return SymbolLookup.libraryLookup(LIBRARY, Arena.global());
  }

  /** How a downcall is made. */
  enum Access {
    /** May block (I/O, a lock held by a writer): an ordinary downcall. */
    BLOCKING,
    /**
     * Returns soon: no thread-state transition (safepoints wait for the call); native memory only.
     * A read whose block is not in the block cache waits for the file system: from the page cache,
     * microseconds; from a device (direct reads), longer.
     */
    CRITICAL,
    /**
     * CRITICAL, and heap arrays are passed in place (no copy). Measured on JDK 25: a method that
     * allocates after such a call ran about 25% slower at the hot key (the pinned view: 1.29 to
     * 1.40 against 1.77 million gets/s with the key copied into native memory), so only calls after
     * which nothing is allocated use it.
     */
    CRITICAL_HEAP
  }

  private static MethodHandle handle(String name, FunctionDescriptor fd, Access access) {
    MemorySegment symbol =
        LOOKUP.find(name).orElseThrow(() -> new UnsatisfiedLinkError(name + " not in " + LIBRARY));
    return switch (access) {
      case BLOCKING -> LINKER.downcallHandle(symbol, fd);
      case CRITICAL -> LINKER.downcallHandle(symbol, fd, Linker.Option.critical(false));
      case CRITICAL_HEAP -> LINKER.downcallHandle(symbol, fd, Linker.Option.critical(true));
    };
  }

  private static FunctionDescriptor codeOf(java.lang.foreign.MemoryLayout... args) {
    return FunctionDescriptor.of(JAVA_INT, args);
  }

  // Library and read options.
  static final MethodHandle FREE =
      handle("pinget_free", FunctionDescriptor.ofVoid(ADDRESS), Access.CRITICAL);
  static final MethodHandle READ_OPTIONS_CREATE =
      handle("pinget_read_options_create", codeOf(ADDRESS, ADDRESS), Access.BLOCKING);
  static final MethodHandle READ_OPTIONS_DESTROY =
      handle("pinget_read_options_destroy", FunctionDescriptor.ofVoid(ADDRESS), Access.BLOCKING);
  static final MethodHandle READ_OPTIONS_SET =
      handle(
          "pinget_read_options_set",
          codeOf(ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS),
          Access.BLOCKING);
  // Reads.
  static final MethodHandle STRING_COPY =
      handle(
          "pinget_string_copy",
          codeOf(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS),
          Access.CRITICAL);
  static final MethodHandle BUFFER_COPY =
      handle(
          "pinget_buffer_copy",
          codeOf(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS),
          Access.CRITICAL_HEAP); // a heap destination in place; nothing is allocated after it
  static final MethodHandle COLUMN_FAMILY_ID =
      handle(
          "pinget_column_family_id",
          codeOf(ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS),
          Access.BLOCKING);
  static final MethodHandle PINNED_CREATE =
      handle("pinget_pinned_create", codeOf(ADDRESS, ADDRESS), Access.BLOCKING);
  static final MethodHandle PINNED_DESTROY =
      handle("pinget_pinned_destroy", FunctionDescriptor.ofVoid(ADDRESS), Access.CRITICAL);
  static final MethodHandle PINNED_RELEASE =
      handle("pinget_pinned_release", FunctionDescriptor.ofVoid(ADDRESS), Access.CRITICAL);
  static final MethodHandle PINNED_RELEASE_DETACHED =
      handle("pinget_pinned_release_detached", FunctionDescriptor.ofVoid(ADDRESS), Access.CRITICAL);
  static final MethodHandle PINNED_VIEW =
      handle(
          "pinget_pinned_view",
          codeOf(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, ADDRESS),
          Access.CRITICAL);
  static final MethodHandle PINNED_VIEW_OR_COPY =
      handle(
          "pinget_pinned_view_or_copy",
          codeOf(
              ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS,
              ADDRESS),
          Access.CRITICAL);
  static final MethodHandle PINNED_BATCH_CREATE =
      handle("pinget_pinned_batch_create", codeOf(ADDRESS, ADDRESS), Access.BLOCKING);
  static final MethodHandle PINNED_BATCH_DESTROY =
      handle("pinget_pinned_batch_destroy", FunctionDescriptor.ofVoid(ADDRESS), Access.CRITICAL);
  static final MethodHandle PINNED_BATCH_RELEASE =
      handle("pinget_pinned_batch_release", FunctionDescriptor.ofVoid(ADDRESS), Access.CRITICAL);
  static final MethodHandle PINNED_BATCH_RELEASE_DETACHED =
      handle(
          "pinget_pinned_batch_release_detached",
          FunctionDescriptor.ofVoid(ADDRESS),
          Access.CRITICAL);
  private static final FunctionDescriptor MULTI_PINNED_VIEW_FD =
      codeOf(
          ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS,
          ADDRESS);

  /**
   * Batches of up to this many keys are critical downcalls; larger ones are ordinary, since a
   * critical call holds off the JVM's safepoints (and so every thread's GC) until it returns.
   */
  static final int CRITICAL_BATCH_KEYS = 64;

  static final MethodHandle MULTI_PINNED_VIEW =
      handle("pinget_multi_pinned_view", MULTI_PINNED_VIEW_FD, Access.CRITICAL);
  static final MethodHandle MULTI_GET_PINNED_LARGE =
      handle("pinget_multi_pinned_view", MULTI_PINNED_VIEW_FD, Access.BLOCKING);
  // Cursors.
  static final MethodHandle CURSOR_CREATE =
      handle(
          "pinget_cursor_create",
          codeOf(
              ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS,
              ADDRESS),
          Access.BLOCKING);
  static final MethodHandle CURSOR_DESTROY =
      handle("pinget_cursor_destroy", FunctionDescriptor.ofVoid(ADDRESS), Access.BLOCKING);
  static final MethodHandle CURSOR_SEEK_TO_FIRST =
      handle("pinget_cursor_seek_to_first", codeOf(ADDRESS, ADDRESS), Access.CRITICAL);
  static final MethodHandle CURSOR_SEEK_TO_LAST =
      handle("pinget_cursor_seek_to_last", codeOf(ADDRESS, ADDRESS), Access.CRITICAL);
  static final MethodHandle CURSOR_SEEK =
      handle("pinget_cursor_seek", codeOf(ADDRESS, ADDRESS, JAVA_LONG, ADDRESS), Access.CRITICAL);
  static final MethodHandle CURSOR_SEEK_FOR_PREV =
      handle(
          "pinget_cursor_seek_for_prev",
          codeOf(ADDRESS, ADDRESS, JAVA_LONG, ADDRESS),
          Access.CRITICAL);
  private static final FunctionDescriptor CURSOR_LEND_FD =
      codeOf(ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS);

  /** A batch of up to CRITICAL_BATCH_KEYS entries is a critical call; a larger one is not. */
  static final MethodHandle CURSOR_NEXT =
      handle("pinget_cursor_next", CURSOR_LEND_FD, Access.CRITICAL);

  static final MethodHandle CURSOR_NEXT_LARGE =
      handle("pinget_cursor_next", CURSOR_LEND_FD, Access.BLOCKING);
  static final MethodHandle CURSOR_PREV =
      handle("pinget_cursor_prev", CURSOR_LEND_FD, Access.CRITICAL);
  static final MethodHandle CURSOR_PREV_LARGE =
      handle("pinget_cursor_prev", CURSOR_LEND_FD, Access.BLOCKING);

  static final MethodHandle RECORD_VALUE_COPY =
      handle("pinget_record_value_copy", FunctionDescriptor.ofVoid(JAVA_LONG), Access.CRITICAL);
  static final MethodHandle RECORD_ALLOCATION =
      handle("pinget_record_allocation", FunctionDescriptor.ofVoid(), Access.CRITICAL);

  /**
   * The exception for a failed call's code, with the message the call left in messageSlot (a
   * pointer that this frees).
   */
  static RuntimeException error(int code, MemorySegment messageSlot) {
    MemorySegment p = messageSlot.get(ADDRESS, 0);
    String message;
    if (p.equals(MemorySegment.NULL)) {
      message = "pinget error " + code;
    } else {
      message = p.reinterpret(Long.MAX_VALUE).getString(0);
      free(p);
    }
    return PingetException.of(code, message);
  }

  /** Throws for any code but OK. */
  static void check(int code, MemorySegment messageSlot) {
    if (code != OK) {
      throw error(code, messageSlot);
    }
  }

  static void free(MemorySegment p) {
    call(FREE, p);
  }

  /** Calls a {@code void f(T*)} of the C API (a destructor, a release). */
  static void call(MethodHandle voidOfPointer, MemorySegment p) {
    try {
      voidOfPointer.invokeExact(p);
    } catch (Throwable t) {
      throw rethrow(t);
    }
  }

  /**
   * A new native object from a {@code pinget_code create(T** out, char** message)} of the C API,
   * made through slots' out-parameters.
   */
  static MemorySegment create(MethodHandle create, Slots slots) {
    try {
      check((int) create.invokeExact(slots.pointer, slots.message), slots.message);
    } catch (Throwable t) {
      throw rethrow(t);
    }
    return slots.pointer.get(ADDRESS, 0);
  }

  /** The one Cleaner (one thread) of this binding. */
  private static final Cleaner CLEANER = Cleaner.create();

  /**
   * Frees owner's native object with destroy (a {@code void destroy(T*)}) when the returned
   * Cleanable is cleaned or owner becomes unreachable, whichever comes first, and only once. The
   * action does not refer to owner.
   */
  static Cleaner.Cleanable destroyWhenUnreachable(
      Object owner, MethodHandle destroy, MemorySegment handle) {
    return CLEANER.register(owner, () -> call(destroy, handle));
  }

  /**
   * Runs action when the returned Cleanable is cleaned or owner becomes unreachable, whichever
   * comes first, and only once. REQUIRES: action does not refer to owner.
   */
  static Cleaner.Cleanable cleanWhenUnreachable(Object owner, Runnable action) {
    return CLEANER.register(owner, action);
  }

  /** A Throwable from invokeExact: the C API throws nothing, so only errors reach here. */
  static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IllegalStateException(t);
  }
}
