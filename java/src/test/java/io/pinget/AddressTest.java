// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/**
 * The addresses Java hands native code instead of arrays and buffers ({@link Views#address},
 * {@link KeyCopy}): never one for a range that native code could read or write past the buffer,
 * whatever the range's off and len were read as (another thread may move a buffer between two
 * reads of its position); and a thread's key copy only from its second read.
 */
class AddressTest {
  @Test
  void noAddressForARangeOutsideTheBuffer() {
    ByteBuffer direct = ByteBuffer.allocateDirect(64);
    assertEquals(0, Views.address(direct, 60, 8), "past the capacity");
    assertEquals(0, Views.address(direct, 0, 65), "longer than the capacity");
    assertEquals(0, Views.address(direct, -1, 4), "before byte 0");
    assertEquals(0, Views.address(direct, 4, -1), "a negative length");
    assertEquals(0, Views.address(direct, Integer.MAX_VALUE, 1), "an int overflow");
    assertEquals(0, Views.address(ByteBuffer.allocate(64), 0, 8), "a heap buffer");
    long start = Views.address(direct, 0, 64);
    if (start != 0) { // resolved in Java on this JDK (else native code checks the range)
      assertEquals(start + 8, Views.address(direct, 8, 56), "byte 8");
      assertEquals(start + 8, Views.address(direct.position(5), 8, 8), "byte 8, not the position");
      assertEquals(start + 64, Views.address(direct, 64, 0), "the empty range at the end");
    }
  }

  @Test
  void aThreadCopiesKeysFromItsSecondRead() throws InterruptedException {
    byte[] key = {1, 2, 3};
    AtomicLongArray at = new AtomicLongArray(4);
    Thread t =
        new Thread(
            () -> {
              for (int i = 0; i < 3; i++) {
                at.set(i, KeyCopy.ofThisThread(key, null, 0, key.length));
              }
              byte[] longKey = new byte[KeyCopy.BYTES + 1];
              at.set(3, KeyCopy.ofThisThread(longKey, null, 0, longKey.length));
            });
    t.start();
    t.join();
    assertEquals(0, at.get(0), "the first read: native code reads the array");
    assertNotEquals(0, at.get(1), "then the thread's copy");
    assertEquals(at.get(1), at.get(2), "the same copy each time");
    assertEquals(0, at.get(3), "a key longer than KeyCopy.BYTES: the array");
  }
}
