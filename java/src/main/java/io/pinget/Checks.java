// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
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
    BufferScopes.checkAlive(buffer, what);
  }

  static void writableDirect(ByteBuffer buffer, String what) {
    direct(buffer, what);
    if (buffer.isReadOnly()) {
      throw new ReadOnlyBufferException();
    }
  }

  /** s in UTF-8; an unpaired surrogate (which String.getBytes would replace) is refused. */
  static byte[] utf8(String s, String what) {
    try {
      ByteBuffer bytes =
          StandardCharsets.UTF_8
              .newEncoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .encode(CharBuffer.wrap(s));
      byte[] out = new byte[bytes.remaining()];
      bytes.get(out);
      return out;
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(what + " is not valid UTF-16 (unpaired surrogate)", e);
    }
  }
}
