// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.ReadOptions.DEFAULT;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The ways to read a value, each with its token (the row of docs/strategies.md that holds its copy
 * counts, which the tests read) and its read through a {@link Reader}, with a {@code byte[]} key
 * and with a direct {@code ByteBuffer} key. A strategy added here is read, counted and compared
 * with the table by every test that iterates {@link #values()}; the FFM door's tests read each one
 * that does not lend a view through FfmStore's method of the same name and parameters.
 */
public enum Strategy {
  /** {@link Store#stringCopy}. */
  STRING_COPY(
      "string_copy",
      (s, into, key) -> into.array(s.stringCopy(key)),
      (s, into, key) -> into.array(s.stringCopy(DEFAULT, key))),
  /** {@link Store#pinnableCopy}. */
  PINNABLE_COPY(
      "pinnable_copy",
      (s, into, key) -> into.array(s.pinnableCopy(key)),
      (s, into, key) -> into.array(s.pinnableCopy(DEFAULT, key))),
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
      (s, into, key) -> into.view(into.view.get(key)),
      (s, into, key) -> into.view(into.view.get(DEFAULT, key)));

  /** A read of one key: the value's size, or -1 if the key does not exist. */
  @FunctionalInterface
  interface Read<K> {
    int read(Reader reader, Into into, K key);
  }

  /**
   * What reads read into: the reusable view and the copies' destinations, each able to hold the
   * value. It keeps where the last read put its value, for {@link Strategy#bytes}. A read allocates
   * nothing here beyond what its strategy allocates. One thread at a time.
   */
  public static final class Into {
    final PinnedView view;
    final byte[] dst;
    final ByteBuffer directDst;
    // Where the last read left its value: its own array, dst, a view or directDst.
    private Object last;

    /**
     * @param view reused by pinned_view
     * @param dst buffer_copy's destination
     * @param directDst direct_copy's destination
     */
    public Into(PinnedView view, byte[] dst, ByteBuffer directDst) {
      this.view = view;
      this.dst = dst;
      this.directDst = directDst;
    }

    private int array(byte[] value) {
      last = value;
      return value == null ? -1 : value.length;
    }

    private int dst(int size) {
      last = dst;
      return size;
    }

    private int directDst(int size) {
      last = directDst;
      return size;
    }

    private int view(ByteBuffer value) {
      last = value;
      return value == null ? -1 : value.remaining();
    }

    /** The last read's value as an array (a copy of the test's, not counted as pinget's). */
    private byte[] bytes(int size) {
      if (last instanceof byte[] array) {
        return array == dst ? Arrays.copyOf(dst, size) : array;
      }
      ByteBuffer value = (ByteBuffer) last; // from its position: a copy leaves dst's alone
      byte[] out = new byte[size];
      value.get(value.position(), out);
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
   * Reads key's value with the default read options into into.
   *
   * @return the value's size, or -1 if the key does not exist
   */
  public int read(Reader reader, Into into, byte[] key) {
    return arrayKey.read(reader, into, key);
  }

  /** As {@link #read(Reader, Into, byte[])}, for a key from a direct buffer's position to limit. */
  public int read(Reader reader, Into into, ByteBuffer key) {
    return directKey.read(reader, into, key);
  }

  /**
   * Reads key's value and returns its bytes (copied here in Java where the strategy leaves them in
   * a buffer: a copy that pinget's counters do not see).
   *
   * @return the value, or null if the key does not exist
   */
  public byte[] bytes(Reader reader, Into into, byte[] key) {
    int size = read(reader, into, key);
    return size < 0 ? null : into.bytes(size);
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
