// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;

/**
 * Native memory that a byte[] key is copied into just before a read's native call, which reads it
 * there in place. Reading the array from native code takes two calls into the VM
 * (GetArrayLength, GetByteArrayRegion), about 27 ns of a 1 µs get here (docs/benchmarks.md, "Keys
 * copied in Java"); this copy takes a few. It is the key copy that native code made before, and
 * native code still counts it (one key copy per read). Keys longer than {@link #BYTES} are passed
 * as arrays, as before.
 *
 * <p>Not thread-safe: each one belongs to one thread at a time (a pinned view's own, or a thread's:
 * {@link #ofThisThread}). The key is read only during the native call that takes the returned
 * address, and nothing runs between the copy and that call, so a nested read on the same thread
 * (a decoder that reads) cannot overwrite it while it is in use.
 */
final class KeyCopy {
  /** The longest key copied (the native side's stack buffer for array keys is as large). */
  static final int BYTES = 256;

  private static final ThreadLocal<KeyCopy> THREADS = ThreadLocal.withInitial(KeyCopy::new);

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
   * Where native code reads a read's key: key[off, off + len) copied here ({@link #at(byte[], int,
   * int)}), or a direct keyBuffer's own bytes at off, read in place ({@link Views#address}); 0
   * where native code must find it.
   */
  long at(byte[] key, ByteBuffer keyBuffer, int off, int len) {
    return key != null ? at(key, off, len) : Views.address(keyBuffer, off);
  }

  /** This thread's KeyCopy, which the thread keeps reachable; use it on this thread only. */
  static KeyCopy ofThisThread() {
    return THREADS.get();
  }
}
