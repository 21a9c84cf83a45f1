// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;

/**
 * Native memory that a byte[] key is copied into just before a read's native call, which reads it
 * there in place. Reading the array from native code takes two calls into the VM
 * (GetArrayLength, GetByteArrayRegion), about 27 ns of a 1 µs get here (docs/benchmarks.md, "Keys
 * and buffers addressed from Java"); this copy takes a few. It is the key copy that native code
 * made before, and native code still counts it (one key copy per read). Keys longer than {@link
 * #BYTES} are passed as arrays, as before.
 *
 * <p>Not thread-safe: each one belongs to one thread at a time (a pinned view's own, or a thread's,
 * which the thread keeps reachable: {@link #ofThisThread}). The key is read only during the native
 * call that takes the returned address, and nothing runs between the copy and that call, so a
 * nested read on the same thread (a decoder that reads) cannot overwrite it while it is in use.
 */
final class KeyCopy {
  /** The longest key copied (the native side's stack buffer for array keys is as large). */
  static final int BYTES = 256;

  // This thread's KeyCopy, made on its second single-key read: a thread that reads once (a
  // virtual thread per task) allocates no direct buffer. FIRST_READ marks the first.
  private static final ThreadLocal<Object> THREADS = new ThreadLocal<>();
  private static final Object FIRST_READ = new Object();

  private final ByteBuffer buffer = ByteBuffer.allocateDirect(BYTES); // kept: native reads address
  private final long address = NativePinned.addressOf(buffer);

  /**
   * Copies key[off, off + len) here and returns where it is, or 0 for a key longer than {@link
   * #BYTES} (pass the array itself). REQUIRES: the range is checked; this object stays reachable
   * until the native call that reads the address returns.
   */
  long at(byte[] key, int off, int len) {
    if (len > BYTES) {
      return 0;
    }
    buffer.put(0, key, off, len);
    return address;
  }

  /**
   * Where native code reads a read's key, given as key (an array) or keyBuffer (a direct buffer)
   * at [off, off + len): the array's bytes copied here, or the buffer's own ({@link
   * Views#address}); 0 where native code must find it. Pass native code the same off and len.
   */
  long at(byte[] key, ByteBuffer keyBuffer, int off, int len) {
    return key != null ? at(key, off, len) : Views.address(keyBuffer, off, len);
  }

  /** As {@link #at(byte[], ByteBuffer, int, int)}, with this thread's KeyCopy (none at first). */
  static long ofThisThread(byte[] key, ByteBuffer keyBuffer, int off, int len) {
    if (key == null) {
      return Views.address(keyBuffer, off, len);
    }
    Object held = THREADS.get();
    if (held == null) {
      THREADS.set(FIRST_READ);
      return 0; // the thread's first read: native code reads the array, as before
    }
    if (held == FIRST_READ) {
      held = new KeyCopy();
      THREADS.set(held);
    }
    return ((KeyCopy) held).at(key, off, len);
  }
}
