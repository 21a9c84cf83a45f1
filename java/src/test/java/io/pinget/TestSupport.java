// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.stream.Stream;

/** Stores in temporary directories and deterministic values. */
public final class TestSupport {
  public static final int MIB = 1 << 20;

  private TestSupport() {}

  /** A released view: capacity 0, so every read throws instead of reading freed memory. */
  public static void assertStale(ByteBuffer view) {
    assertEquals(0, view.capacity());
    assertThrows(IndexOutOfBoundsException.class, () -> view.get(0));
    assertThrows(BufferUnderflowException.class, view::get);
  }

  /** A fresh directory under target/test-stores (or java.io.tmpdir). */
  public static Path newDir(String name) {
    try {
      Path root =
          Paths.get(System.getProperty("pinget.test.dir", System.getProperty("java.io.tmpdir")));
      Files.createDirectories(root);
      return Files.createTempDirectory(root, name + "-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static void deleteTree(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Bytes determined by (seed, size): xorshift, so every size and seed differ. */
  public static byte[] value(long seed, int size) {
    byte[] out = new byte[size];
    long x = seed * 0x9E3779B97F4A7C15L + size + 1;
    for (int i = 0; i < size; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      out[i] = (byte) x;
    }
    return out;
  }

  public static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static ByteBuffer direct(byte[] bytes) {
    ByteBuffer b = ByteBuffer.allocateDirect(bytes.length);
    b.put(bytes).flip();
    return b;
  }

  public static byte[] toArray(ByteBuffer view) {
    byte[] out = new byte[view.remaining()];
    view.duplicate().get(out);
    return out;
  }

  /** Options whose memtable holds everything a test writes (no automatic flush). */
  static Options bigMemtable() {
    return new Options().writeBufferBytes(512L << 20);
  }
}
