// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.pinget.PingetException;
import io.pinget.Store;
import io.pinget.StoreClosedException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * Downcall handles to pinget's C API (pinget/c.h), which the pinget JAR's native library exports
 * beside its JNI entry point: one library, loaded once, serves both bindings. Reads are {@code
 * critical} downcalls (no thread-state transition; heap arrays are passed in place, with GC held
 * off for the call), as every C read returns without blocking on I/O for long; writes, flushes,
 * compactions and open are not.
 */
final class Native {
  private Native() {}

  static final int OK = 0;
  static final int NOT_FOUND = 1;
  static final int INVALID_ARGUMENT = 4;
  static final int CLOSED = 6;

  private static final Linker LINKER = Linker.nativeLinker();
  private static final SymbolLookup LOOKUP = lookup();

  /** pinget's loader loads the library (from its JAR); this finds it again by name. */
  private static SymbolLookup lookup() {
    Store.rocksdbVersion();
    SymbolLookup loader = SymbolLookup.loaderLookup();
    if (loader.find("pinget_get_pinned").isPresent()) {
      return loader;
    }
    // Another class loader loaded it: dlopen finds the loaded library by its soname.
    return SymbolLookup.libraryLookup("libpinget_jni.so", Arena.global());
  }

  private static MethodHandle handle(String name, FunctionDescriptor fd, boolean critical) {
    MemorySegment symbol =
        LOOKUP
            .find(name)
            .orElseThrow(() -> new UnsatisfiedLinkError(name + " not in libpinget_jni.so"));
    return critical
        ? LINKER.downcallHandle(symbol, fd, Linker.Option.critical(true))
        : LINKER.downcallHandle(symbol, fd);
  }

  private static FunctionDescriptor codeOf(java.lang.foreign.MemoryLayout... args) {
    return FunctionDescriptor.of(JAVA_INT, args);
  }

  // Library and options.
  static final MethodHandle FREE = handle("pinget_free", FunctionDescriptor.ofVoid(ADDRESS), true);
  static final MethodHandle OPTIONS_CREATE =
      handle("pinget_options_create", codeOf(ADDRESS, ADDRESS), false);
  static final MethodHandle OPTIONS_DESTROY =
      handle("pinget_options_destroy", FunctionDescriptor.ofVoid(ADDRESS), false);
  static final MethodHandle SET_BOOL_CREATE_IF_MISSING =
      handle("pinget_options_set_create_if_missing", codeOf(ADDRESS, JAVA_INT, ADDRESS), false);
  static final MethodHandle SET_BOOL_ALLOW_MMAP_READS =
      handle("pinget_options_set_allow_mmap_reads", codeOf(ADDRESS, JAVA_INT, ADDRESS), false);
  static final MethodHandle SET_SIZE_BLOCK_CACHE_BYTES =
      handle("pinget_options_set_block_cache_bytes", codeOf(ADDRESS, JAVA_LONG, ADDRESS), false);
  static final MethodHandle SET_SIZE_BLOCK_SIZE =
      handle("pinget_options_set_block_size", codeOf(ADDRESS, JAVA_LONG, ADDRESS), false);
  static final MethodHandle SET_SIZE_WRITE_BUFFER_BYTES =
      handle("pinget_options_set_write_buffer_bytes", codeOf(ADDRESS, JAVA_LONG, ADDRESS), false);
  static final MethodHandle SET_INT_COMPRESSION =
      handle("pinget_options_set_compression", codeOf(ADDRESS, JAVA_INT, ADDRESS), false);
  static final MethodHandle SET_DOUBLE_BLOOM_BITS_PER_KEY =
      handle("pinget_options_set_bloom_bits_per_key", codeOf(ADDRESS, JAVA_DOUBLE, ADDRESS), false);

  // Store.
  static final MethodHandle OPEN =
      handle("pinget_open", codeOf(ADDRESS, ADDRESS, ADDRESS, ADDRESS), false);
  static final MethodHandle CLOSE = handle("pinget_close", codeOf(ADDRESS, ADDRESS), false);
  static final MethodHandle STORE_DESTROY =
      handle("pinget_store_destroy", FunctionDescriptor.ofVoid(ADDRESS), false);
  static final MethodHandle PUT =
      handle(
          "pinget_put",
          codeOf(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS),
          false);
  static final MethodHandle DELETE =
      handle(
          "pinget_delete", codeOf(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS), false);
  static final MethodHandle FLUSH =
      handle("pinget_flush", codeOf(ADDRESS, JAVA_INT, ADDRESS), false);
  static final MethodHandle COMPACT =
      handle("pinget_compact", codeOf(ADDRESS, JAVA_INT, ADDRESS), false);

  // Reads.
  static final MethodHandle GET =
      handle(
          "pinget_get",
          codeOf(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS),
          true);
  static final MethodHandle GET_INTO =
      handle(
          "pinget_get_into",
          codeOf(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS),
          true);
  static final MethodHandle PINNED_CREATE =
      handle("pinget_pinned_create", codeOf(ADDRESS, ADDRESS), false);
  static final MethodHandle PINNED_DESTROY =
      handle("pinget_pinned_destroy", FunctionDescriptor.ofVoid(ADDRESS), true);
  static final MethodHandle PINNED_RELEASE =
      handle("pinget_pinned_release", FunctionDescriptor.ofVoid(ADDRESS), true);
  static final MethodHandle GET_PINNED =
      handle(
          "pinget_get_pinned",
          codeOf(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS),
          true);
  static final MethodHandle PINNED_VALUE =
      handle("pinget_pinned_value", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS), true);
  static final MethodHandle RECORD_VALUE_COPY =
      handle("pinget_record_value_copy", FunctionDescriptor.ofVoid(JAVA_LONG), true);
  static final MethodHandle RECORD_ALLOCATION =
      handle("pinget_record_allocation", FunctionDescriptor.ofVoid(), true);

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
    return switch (code) {
      case INVALID_ARGUMENT -> new IllegalArgumentException(message);
      case CLOSED -> new StoreClosedException(message);
      default -> {
        PingetException.Code[] codes = PingetException.Code.values();
        yield new PingetException(
            code >= 0 && code < codes.length ? codes[code] : PingetException.Code.UNKNOWN, message);
      }
    };
  }

  /** Throws for any code but OK. */
  static void check(int code, MemorySegment messageSlot) {
    if (code != OK) {
      throw error(code, messageSlot);
    }
  }

  static void free(MemorySegment p) {
    try {
      FREE.invokeExact(p);
    } catch (Throwable t) {
      throw rethrow(t);
    }
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
