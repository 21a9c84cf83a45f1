// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.Objects;

/** Argument checks made before a native call (the natives check memory ranges again). */
final class Checks {
  private Checks() {}

  static void range(byte[] array, int off, int len, String what) {
    Objects.requireNonNull(array, what);
    Objects.checkFromIndexSize(off, len, array.length);
  }

  static void direct(ByteBuffer buffer, String what) {
    Objects.requireNonNull(buffer, what);
    if (!buffer.isDirect()) {
      throw new IllegalArgumentException(what + " must be a direct ByteBuffer");
    }
  }

  static void writableDirect(ByteBuffer buffer, String what) {
    direct(buffer, what);
    if (buffer.isReadOnly()) {
      throw new ReadOnlyBufferException();
    }
  }
}
