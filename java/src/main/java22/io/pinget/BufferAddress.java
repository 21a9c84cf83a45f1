// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Java 22+: where a direct buffer's bytes are, from its memory segment ({@code
 * MemorySegment.ofBuffer}, which starts at the buffer's position), where {@link Views} does not
 * read it through Unsafe (JDK 24 and later; or views not re-pointed from Java, or Unsafe out of
 * reach).
 */
final class BufferAddress {
  private BufferAddress() {}

  /** REQUIRES: buffer is direct. The address of its byte off. */
  static long of(ByteBuffer buffer, int off) {
    return MemorySegment.ofBuffer(buffer).address() + (off - buffer.position());
  }
}
