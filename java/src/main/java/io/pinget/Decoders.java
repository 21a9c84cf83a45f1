// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import io.pinget.internal.DecodeRules;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Function;

/**
 * The decoders programs use most, for {@link Reader#get(ReadOptions, byte[], int, int,
 * ValueDecoder)}, {@link Reader#getLong} and their batched forms. Each reads the bytes from the
 * buffer's position to its limit with absolute gets (the position does not move), whatever the
 * buffer's byte order, and keeps nothing. All are thread-safe singletons.
 *
 * <p>Numbers need their exact size: a long of 3 bytes (or 9) is a {@link DecodeException} naming
 * the size, never a guess. Strings: {@link #utf8()} replaces malformed input as {@code new
 * String(bytes, UTF_8)} does, {@link #utf8Strict()} refuses it. {@link #bytes()} copies.
 *
 * <p>Copies and allocations, beyond the get's own (P copies through a pinned read): the number
 * decoders none; {@link #utf8()} and {@link #utf8Strict()} stage the bytes in a per-thread array
 * (one copy, not counted: the String copies them again, as any String made from a byte[] does) and
 * allocate the String; {@link #bytes()} makes the one copy and the one array a program that needs a
 * byte[] cannot avoid, both counted in {@link CopyStats} (as pinnable_copy's).
 */
public final class Decoders {
  private Decoders() {}

  private static final LongDecoder LONG_BE = v -> readLong(v, false);
  private static final LongDecoder LONG_LE = v -> readLong(v, true);
  private static final LongDecoder INT_BE = v -> readInt(v, false);
  private static final LongDecoder INT_LE = v -> readInt(v, true);
  private static final ValueDecoder<String> UTF8 = Decoders::lenientUtf8;
  private static final ValueDecoder<String> UTF8_STRICT = Decoders::strictUtf8;
  private static final ValueDecoder<byte[]> BYTES = Decoders::copy;

  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[64]);

  /**
   * A big-endian (network order) 8-byte signed long, the layout of Guava's {@code
   * Longs.fromByteArray} and {@code ByteBuffer.getLong}.
   *
   * @return the decoder; a value of any size but 8 throws {@link DecodeException}
   */
  public static LongDecoder longBE() {
    return LONG_BE;
  }

  /**
   * A little-endian 8-byte signed long (the layout RocksDB's own fixed64 and most C structs use on
   * x86 and ARM).
   *
   * @return the decoder; a value of any size but 8 throws {@link DecodeException}
   */
  public static LongDecoder longLE() {
    return LONG_LE;
  }

  /**
   * A big-endian 4-byte signed int, widened to long ({@code (int) reader.getLong(...)} gives it
   * back).
   *
   * @return the decoder; a value of any size but 4 throws {@link DecodeException}
   */
  public static LongDecoder intBE() {
    return INT_BE;
  }

  /**
   * A little-endian 4-byte signed int, widened to long.
   *
   * @return the decoder; a value of any size but 4 throws {@link DecodeException}
   */
  public static LongDecoder intLE() {
    return INT_LE;
  }

  /**
   * The value as UTF-8 text. Malformed input (a stray continuation byte, a truncated sequence, an
   * overlong form, a surrogate) becomes U+FFFD, one per malformed sequence, exactly as {@code new
   * String(bytes, StandardCharsets.UTF_8)} and Kafka's {@code StringDeserializer} do. An empty
   * value is "".
   *
   * @return the decoder
   */
  public static ValueDecoder<String> utf8() {
    return UTF8;
  }

  /**
   * The value as UTF-8 text, refusing malformed input with a {@link DecodeException} that names the
   * byte offset of the first malformed sequence and the value's size.
   *
   * @return the decoder
   */
  public static ValueDecoder<String> utf8Strict() {
    return UTF8_STRICT;
  }

  /**
   * A copy of the value in a new array, for code that must have a byte[] (and keep it). One value
   * copy and one allocation, counted in {@link CopyStats}: with a get, P + 1 copies and 1
   * allocation, the counts of pinnable_copy.
   *
   * @return the decoder
   */
  public static ValueDecoder<byte[]> bytes() {
    return BYTES;
  }

  /**
   * A function of ByteBuffer as a decoder (the same rules apply: it must not keep the buffer).
   *
   * @param function not null
   * @param <T> what it returns
   * @return the decoder
   */
  public static <T> ValueDecoder<T> of(Function<? super ByteBuffer, ? extends T> function) {
    Objects.requireNonNull(function, "function");
    return function::apply;
  }

  private static long readLong(ByteBuffer v, boolean littleEndian) {
    DecodeRules.exactSize(littleEndian ? "longLE" : "longBE", v.remaining(), Long.BYTES);
    long x = v.getLong(v.position());
    return littleEndian == (v.order() == ByteOrder.BIG_ENDIAN) ? Long.reverseBytes(x) : x;
  }

  private static long readInt(ByteBuffer v, boolean littleEndian) {
    DecodeRules.exactSize(littleEndian ? "intLE" : "intBE", v.remaining(), Integer.BYTES);
    int x = v.getInt(v.position());
    return littleEndian == (v.order() == ByteOrder.BIG_ENDIAN) ? Integer.reverseBytes(x) : x;
  }

  /** The value's bytes in this thread's staging array (or, above the kept size, a new one). */
  private static byte[] staged(ByteBuffer v, int n) {
    byte[] scratch = SCRATCH.get();
    if (scratch.length < n) {
      scratch = DecodeRules.grownStaging(SCRATCH, scratch, n);
    }
    v.get(v.position(), scratch, 0, n);
    return scratch;
  }

  private static String lenientUtf8(ByteBuffer v) {
    int n = v.remaining();
    if (v.hasArray()) {
      return new String(v.array(), v.arrayOffset() + v.position(), n, StandardCharsets.UTF_8);
    }
    return new String(staged(v, n), 0, n, StandardCharsets.UTF_8);
  }

  private static String strictUtf8(ByteBuffer v) {
    int n = v.remaining();
    byte[] bytes = staged(v, n);
    int i = 0;
    while (i < n && bytes[i] >= 0) {
      i++;
    }
    if (i == n) { // ASCII: valid as it is
      return new String(bytes, 0, n, StandardCharsets.UTF_8);
    }
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes, 0, n);
    CharBuffer out = CharBuffer.allocate(n);
    CoderResult r = decoder.decode(in, out, true);
    if (!r.isError()) {
      r = decoder.flush(out);
    }
    if (r.isError()) {
      throw new DecodeException(
          "utf8Strict: malformed UTF-8 at byte "
              + in.position()
              + " ("
              + r.length()
              + " bytes) of a value of "
              + n
              + " bytes");
    }
    return out.flip().toString();
  }

  private static byte[] copy(ByteBuffer v) {
    int n = v.remaining();
    byte[] out = new byte[n];
    v.get(v.position(), out, 0, n);
    NativeStats.record(n, true);
    return out;
  }
}
