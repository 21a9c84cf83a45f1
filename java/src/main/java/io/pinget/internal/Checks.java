// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.internal;

import io.pinget.ColumnFamily;
import io.pinget.Reader;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The argument checks of the {@link Reader} contract, each in one place, for every binding (public
 * for the bindings in other packages: io.pinget.ffm): each throws what the contract says, naming
 * the argument. Called in signature order, each argument wholly (null, range, value, then its
 * elements in index order) before the next; native code checks memory ranges again. Not for
 * applications.
 */
public final class Checks {
  private Checks() {}

  /**
   * A write batch's column family, checked first as its place in the signature says: not null, and
   * of the store the batch already writes to (batchStore, null while it writes only to DEFAULT).
   * The batch makes the family's store its own only once every argument is checked.
   *
   * @param columnFamily the column family
   * @param batchStore the owner of the column families the batch used so far, or null
   */
  public static void batchFamily(ColumnFamily columnFamily, Object batchStore) {
    Objects.requireNonNull(columnFamily, "columnFamily");
    Object of = columnFamily.owner();
    if (of != null && batchStore != null && batchStore != of) {
      throw new IllegalArgumentException(
          "a batch writes to one store: column family "
              + columnFamily.name()
              + " belongs to another");
    }
  }

  /**
   * Read or write options: not null.
   *
   * @param options the options
   */
  public static void options(Object options) {
    Objects.requireNonNull(options, "options");
  }

  /**
   * A key in key[off, off + len): not null, in range, not empty.
   *
   * @param key the array
   * @param off start of the key
   * @param len its length
   */
  public static void key(byte[] key, int off, int len) {
    range(key, off, len, "key");
    if (len == 0) {
      throw new IllegalArgumentException("key is empty");
    }
  }

  /**
   * A key from position to limit of a direct buffer, not empty.
   *
   * @param key the buffer
   */
  public static void key(ByteBuffer key) {
    direct(key, "key");
    if (!key.hasRemaining()) {
      throw new IllegalArgumentException("key is empty");
    }
  }

  /**
   * A batch's keys: not null, then each not null and not empty.
   *
   * @param keys the keys
   */
  public static void keys(byte[][] keys) {
    Objects.requireNonNull(keys, "keys");
    for (int i = 0; i < keys.length; i++) {
      byte[] key = keys[i];
      if (key == null) {
        throw new NullPointerException("keys[" + i + "]");
      }
      if (key.length == 0) {
        throw new IllegalArgumentException("keys[" + i + "] is empty");
      }
    }
  }

  /**
   * The elements of a batch's byte[] destinations (checked by {@link #length}): each not null.
   * Check a copy that native code then reads, which the caller cannot change after the check.
   *
   * @param dsts the destinations
   * @param n how many to check
   * @param what the argument's name
   */
  public static void arrays(byte[][] dsts, int n, String what) {
    for (int i = 0; i < n; i++) {
      if (dsts[i] == null) {
        throw new NullPointerException(what + "[" + i + "]");
      }
    }
  }

  /**
   * As {@link #arrays}, for direct destinations: each direct and writable.
   *
   * @param dsts the destinations
   * @param n how many to check
   * @param what the argument's name
   */
  public static void directs(ByteBuffer[] dsts, int n, String what) {
    for (int i = 0; i < n; i++) {
      ByteBuffer dst = dsts[i];
      // The element's name is made only to throw: made for every element, it cost a batch
      // of 16 about 48 bytes of garbage per get.
      if (dst == null || !dst.isDirect() || dst.isReadOnly() || !BufferScopes.usable(dst)) {
        writableDirect(dst, what + "[" + i + "]");
      }
    }
  }

  /**
   * A batch's array: not null, n elements.
   *
   * @param array the array
   * @param n the keys' count
   * @param what the argument's name
   */
  public static void length(Object[] array, int n, String what) {
    Objects.requireNonNull(array, what);
    if (array.length != n) {
      throw new IllegalArgumentException(
          what + " has " + array.length + " elements; keys has " + n);
    }
  }

  /**
   * A batch's sizes: not null, at least n of them.
   *
   * @param sizes the sizes
   * @param n the keys' count
   */
  public static void sizes(int[] sizes, int n) {
    Objects.requireNonNull(sizes, "sizes");
    if (sizes.length < n) {
      throw new IllegalArgumentException("sizes has " + sizes.length + " elements; keys has " + n);
    }
  }

  /**
   * After a batch's checks failed: every size is -1 (nothing was read).
   *
   * @param sizes the sizes, or null
   */
  public static void refused(int[] sizes) {
    if (sizes != null) {
      java.util.Arrays.fill(sizes, Reader.NOT_FOUND);
    }
  }

  /**
   * A range of an array: array not null, [off, off + len) inside it.
   *
   * @param array the array
   * @param off the range's start
   * @param len its length
   * @param what the argument's name
   */
  public static void range(byte[] array, int off, int len, String what) {
    Objects.requireNonNull(array, what);
    Objects.checkFromIndexSize(off, len, array.length);
  }

  /**
   * A direct buffer whose memory is there (Java 22+: its Arena is open, and this thread's to
   * touch).
   *
   * @param buffer the buffer
   * @param what the argument's name
   */
  public static void direct(ByteBuffer buffer, String what) {
    directOfAnyScope(buffer, what);
    BufferScopes.checkAlive(buffer, what);
  }

  /**
   * As {@link #direct} without asking the buffer's scope (whether its Arena is open, and this
   * thread's), which the caller must then ask itself, before any later check: the FFM door, which
   * asks the segment it keeps over the buffer.
   *
   * @param buffer the buffer
   * @param what the argument's name
   */
  public static void directOfAnyScope(ByteBuffer buffer, String what) {
    Objects.requireNonNull(buffer, what);
    if (!buffer.isDirect()) {
      throw new IllegalArgumentException(what + " must be a direct ByteBuffer");
    }
  }

  /**
   * As {@link #direct}, and writable.
   *
   * @param buffer the buffer
   * @param what the argument's name
   */
  public static void writableDirect(ByteBuffer buffer, String what) {
    direct(buffer, what);
    if (buffer.isReadOnly()) {
      throw new ReadOnlyBufferException();
    }
  }

  /**
   * s in UTF-8; an unpaired surrogate (which String.getBytes would replace) is refused.
   *
   * @param s the string, not null
   * @param what the argument's name
   * @return its UTF-8 bytes
   */
  public static byte[] utf8(String s, String what) {
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

  /**
   * A decoder (of a decoded read): not null.
   *
   * @param decoder the decoder
   */
  public static void decoder(Object decoder) {
    Objects.requireNonNull(decoder, "decoder");
  }

  /**
   * A batched decoded read's arguments after its options: the keys, the decoder (not null), then
   * the output array (not null, at least as long as keys).
   *
   * @param keys the keys
   * @param decoder the decoder
   * @param out the output array: an Object[] of the decoded type, or a long[]
   */
  public static void decodedBatch(byte[][] keys, Object decoder, Object out) {
    keys(keys);
    decoder(decoder);
    Objects.requireNonNull(out, "out");
    outputLength(Array.getLength(out), keys.length);
  }

  /**
   * A batched decoded read refused by its checks: nothing was read, so every element of out is
   * emptied; a null out is left alone.
   *
   * @param out the output array: an Object[] or a long[], or null
   * @param missing what a long[] gets
   */
  public static void refused(Object out, long missing) {
    if (out != null) {
      emptied(out, Array.getLength(out), missing);
    }
  }

  /**
   * Empties a batched decoded read's first n outputs before it reads: null, or missing in a long[].
   *
   * @param out the output array: an Object[] or a long[]
   * @param n how many
   * @param missing what a long[] gets
   */
  public static void emptied(Object out, int n, long missing) {
    if (out instanceof long[] longs) {
      java.util.Arrays.fill(longs, 0, n, missing);
    } else {
      java.util.Arrays.fill((Object[]) out, 0, n, null);
    }
  }

  private static void outputLength(int length, int n) {
    if (length < n) {
      throw new IllegalArgumentException("out has " + length + " elements; keys has " + n);
    }
  }
}
