// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.ReadOptions.DEFAULT;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The ways to read a value, each with its token (the row of docs/strategies.md that holds its copy
 * counts, which the tests read) and its read through the JNI API, with a {@code byte[]} key and
 * with a direct {@code ByteBuffer} key. A strategy added here is read, counted and compared with
 * the table by every test that iterates {@link #values()}.
 */
public enum Strategy {
  /** {@link Store#stringCopy}. */
  STRING_COPY(
      "string_copy",
      (s, into, key) -> s.stringCopy(key),
      (s, into, key) -> s.stringCopy(DEFAULT, key)),
  /** {@link Store#pinnableCopy}. */
  PINNABLE_COPY(
      "pinnable_copy",
      (s, into, key) -> s.pinnableCopy(key),
      (s, into, key) -> s.pinnableCopy(DEFAULT, key)),
  /** {@link Store#bufferCopy}: into the caller's byte[]. */
  BUFFER_COPY(
      "buffer_copy",
      (s, into, key) -> into.dst(s.bufferCopy(key, into.dst, 0, into.dst.length)),
      (s, into, key) -> into.dst(s.bufferCopy(DEFAULT, key, into.dst, 0, into.dst.length))),
  /** {@link Store#directCopy}: into the caller's direct ByteBuffer. */
  DIRECT_COPY(
      "direct_copy",
      (s, into, key) -> into.directDst(s.directCopy(key, into.directDst)),
      (s, into, key) -> into.directDst(s.directCopy(DEFAULT, key, into.directDst))),
  /** {@link PinnedView#get} (and {@link Store#pinnedValue}): a view of pinned memory. */
  PINNED_VIEW(
      "pinned_view",
      (s, into, key) -> Into.bytes(into.view.get(key)),
      (s, into, key) -> Into.bytes(into.view.get(DEFAULT, key)));

  /** A read of one key. */
  @FunctionalInterface
  interface Read<K> {
    byte[] read(Store store, Into into, K key);
  }

  /**
   * What a read reads into: the reusable view and the copies' destinations, each able to hold the
   * value. The bytes a read returns from them are copied here in Java, outside pinget's counters.
   */
  public record Into(PinnedView view, byte[] dst, ByteBuffer directDst) {
    byte[] dst(int size) {
      return size < 0 ? null : Arrays.copyOf(dst, size);
    }

    byte[] directDst(int size) {
      if (size < 0) {
        return null;
      }
      byte[] out = new byte[size];
      directDst.get(0, out);
      return out;
    }

    static byte[] bytes(ByteBuffer view) {
      if (view == null) {
        return null;
      }
      byte[] out = new byte[view.remaining()];
      view.get(view.position(), out);
      return out;
    }
  }

  private final String token;
  private final Read<byte[]> arrayKey;
  private final Read<ByteBuffer> directKey;

  Strategy(String token, Read<byte[]> arrayKey, Read<ByteBuffer> directKey) {
    this.token = token;
    this.arrayKey = arrayKey;
    this.directKey = directKey;
  }

  /**
   * The token that names it in the design, the benchmarks and the report.
   *
   * @return "string_copy", "pinnable_copy", ...
   */
  public String token() {
    return token;
  }

  /**
   * Reads key's value with the default read options.
   *
   * @return the value's bytes, or null if the key does not exist
   */
  public byte[] read(Store store, Into into, byte[] key) {
    return arrayKey.read(store, into, key);
  }

  /** As {@link #read(Store, Into, byte[])}, for a key from a direct buffer's position to limit. */
  public byte[] read(Store store, Into into, ByteBuffer key) {
    return directKey.read(store, into, key);
  }

  /**
   * The strategy of a token.
   *
   * @param token not null, as {@link #token()} gives it
   * @return the strategy
   * @throws IllegalArgumentException for an unknown token
   */
  public static Strategy fromToken(String token) {
    java.util.Objects.requireNonNull(token, "token");
    for (Strategy s : values()) {
      if (s.token.equals(token)) {
        return s;
      }
    }
    throw new IllegalArgumentException("unknown strategy: " + token);
  }
}
