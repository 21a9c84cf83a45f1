// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.internal;

import java.nio.ByteBuffer;

/**
 * Whether the memory behind a direct buffer is still there, and this thread's to touch, asked
 * before native code reads or writes it. Java 17 has no memory scopes and cannot tell: every buffer
 * passes. On Java 22+ the JAR holds another version of this class (META-INF/versions/22), which
 * asks the buffer's scope.
 */
final class BufferScopes {
  private BufferScopes() {}

  /** REQUIRES: buffer is a direct buffer. */
  static void checkAlive(ByteBuffer buffer, String what) {}

  /** REQUIRES: buffer is a direct buffer. Whether checkAlive passes. */
  static boolean usable(ByteBuffer buffer) {
    return true;
  }
}
