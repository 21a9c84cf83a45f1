// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;

/**
 * Where a direct buffer's bytes are, read in Java, where {@link Views} does not read it through
 * Unsafe (JDK 24 and later; or views not re-pointed from Java, or Unsafe out of reach). Java 17 to
 * 21 have no public way: 0, and native code finds it. On Java 22+ the JAR holds another version of
 * this class (META-INF/versions/22), which asks the buffer's memory segment.
 */
final class BufferAddress {
  private BufferAddress() {}

  /** REQUIRES: buffer is direct. The address of its byte off, or 0 if unknown here. */
  static long of(ByteBuffer buffer, int off) {
    return 0;
  }
}
