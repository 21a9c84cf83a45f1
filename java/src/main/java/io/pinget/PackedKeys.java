// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A batch's keys packed for native code (native/jni/jni_args.h, PackedKeys): their bytes back to
 * back in one direct buffer, which native code reads in place, and one native-order int slot per
 * key that carries the key's length in and may carry a result out. Java's copy into it is the
 * batch's one key copy per key (counted natively). Grown, never shrunk, except that more than 1 MiB
 * of key bytes gets a buffer for that call only. Not thread-safe.
 */
final class PackedKeys {
  private static final int KEPT_BYTES = 1 << 20;

  private ByteBuffer kept = direct(0);
  private ByteBuffer bytes = kept; // the last pack's: kept, or a larger one for that call
  private ByteBuffer slots = direct(0);

  /**
   * Packs keys (checked: not null, no element null).
   *
   * @throws IllegalArgumentException if the keys or their bytes number 2 GiB or more
   */
  void pack(byte[][] keys) {
    int n = keys.length;
    long total = 0;
    for (byte[] key : keys) {
      total += key.length;
    }
    if (total > Integer.MAX_VALUE || n > Integer.MAX_VALUE / Integer.BYTES) {
      throw new IllegalArgumentException(
          "batch too large: " + n + " keys of " + total + " bytes (at most 2 GiB - 1 of either)");
    }
    if (n * Integer.BYTES > slots.capacity()) {
      slots = direct(n * Integer.BYTES);
    }
    bytes = kept;
    if (total > kept.capacity()) {
      bytes = direct((int) total);
      if (total <= KEPT_BYTES) {
        kept = bytes;
      }
    }
    int off = 0;
    for (int i = 0; i < n; i++) {
      byte[] key = keys[i];
      slots.putInt(i * Integer.BYTES, key.length);
      bytes.put(off, key);
      off += key.length;
    }
  }

  /** The last pack's key bytes. */
  ByteBuffer bytes() {
    return bytes;
  }

  /** The slots: at least as many as the last pack's keys. */
  ByteBuffer slots() {
    return slots;
  }

  /** Slot i, as native code left it. */
  int slot(int i) {
    return slots.getInt(i * Integer.BYTES);
  }

  private static ByteBuffer direct(int capacity) {
    return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
  }
}
