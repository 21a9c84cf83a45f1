// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.internal;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * Java 22+: a direct buffer made from a {@link MemorySegment} ({@code segment.asByteBuffer()})
 * belongs to that segment's scope. Once its Arena is closed, Java code reading the buffer throws
 * {@code IllegalStateException}, but native code would read or write freed memory: this check makes
 * pinget throw as Java does, before the call crosses; and a buffer of another thread's confined
 * Arena, which only that thread may touch, throws {@code WrongThreadException} as Java's own access
 * would. A buffer from {@code ByteBuffer.allocateDirect} or a mapping passes. An Arena closed by
 * another thread while the native call runs is not detected.
 */
final class BufferScopes {
  private BufferScopes() {}

  /** REQUIRES: buffer is a direct buffer. Whether checkAlive passes. */
  static boolean usable(ByteBuffer buffer) {
    MemorySegment segment = MemorySegment.ofBuffer(buffer);
    return segment.scope().isAlive() && segment.isAccessibleBy(Thread.currentThread());
  }

  /** REQUIRES: buffer is a direct buffer. */
  static void checkAlive(ByteBuffer buffer, String what) {
    MemorySegment segment = MemorySegment.ofBuffer(buffer);
    if (!segment.scope().isAlive()) {
      throw new IllegalStateException(what + ": already closed (the Arena behind it is closed)");
    }
    if (!segment.isAccessibleBy(Thread.currentThread())) {
      throw new WrongThreadException(what + ": its confined Arena belongs to another thread");
    }
  }
}
