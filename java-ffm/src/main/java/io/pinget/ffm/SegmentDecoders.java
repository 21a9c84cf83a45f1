// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import io.pinget.DecodeException;
import io.pinget.Decoders;
import io.pinget.LongDecoder;
import io.pinget.ValueDecoder;
import io.pinget.internal.DecodeRules;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The JNI API's {@link Decoders} over segments, with the same rules and messages: numbers need
 * their exact size (a long of 3 bytes is a {@link DecodeException} naming the size), {@link
 * #utf8()} replaces malformed input as {@code new String(bytes, UTF_8)} does, {@link #utf8Strict()}
 * refuses it, {@link #bytes()} copies (counted). {@link #of(ValueDecoder)} and {@link
 * #ofLong(LongDecoder)} run any ByteBuffer decoder over {@code value.asByteBuffer()} (one buffer
 * object per call), which throws, like the segment, once the call is over. All are thread-safe.
 */
public final class SegmentDecoders {
  private SegmentDecoders() {}

  private static final ValueLayout.OfLong BE_LONG =
      JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
  private static final ValueLayout.OfLong LE_LONG =
      JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
  private static final ValueLayout.OfInt BE_INT =
      JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
  private static final ValueLayout.OfInt LE_INT =
      JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

  private static final LongSegmentDecoder LONG_BE = v -> v.get(BE_LONG, sized(v, 8, "longBE"));
  private static final LongSegmentDecoder LONG_LE = v -> v.get(LE_LONG, sized(v, 8, "longLE"));
  private static final LongSegmentDecoder INT_BE = v -> v.get(BE_INT, sized(v, 4, "intBE"));
  private static final LongSegmentDecoder INT_LE = v -> v.get(LE_INT, sized(v, 4, "intLE"));
  private static final SegmentDecoder<String> UTF8 = SegmentDecoders::lenientUtf8;
  private static final SegmentDecoder<String> UTF8_STRICT = of(Decoders.utf8Strict());
  private static final SegmentDecoder<byte[]> BYTES = SegmentDecoders::copy;

  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[64]);

  /** {@return {@link Decoders#longBE()} over a segment} */
  public static LongSegmentDecoder longBE() {
    return LONG_BE;
  }

  /** {@return {@link Decoders#longLE()} over a segment} */
  public static LongSegmentDecoder longLE() {
    return LONG_LE;
  }

  /** {@return {@link Decoders#intBE()} over a segment} */
  public static LongSegmentDecoder intBE() {
    return INT_BE;
  }

  /** {@return {@link Decoders#intLE()} over a segment} */
  public static LongSegmentDecoder intLE() {
    return INT_LE;
  }

  /** {@return {@link Decoders#utf8()} over a segment} */
  public static SegmentDecoder<String> utf8() {
    return UTF8;
  }

  /** {@return {@link Decoders#utf8Strict()} over a segment} */
  public static SegmentDecoder<String> utf8Strict() {
    return UTF8_STRICT;
  }

  /** {@return {@link Decoders#bytes()} over a segment (its copy counted the same way)} */
  public static SegmentDecoder<byte[]> bytes() {
    return BYTES;
  }

  /**
   * A ByteBuffer decoder over {@code value.asByteBuffer()} (read-only, big-endian, position 0).
   *
   * @param decoder not null
   * @param <T> what it returns
   * @return the decoder
   */
  public static <T> SegmentDecoder<T> of(ValueDecoder<T> decoder) {
    Objects.requireNonNull(decoder, "decoder");
    return v -> decoder.decode(v.asByteBuffer());
  }

  /**
   * A ByteBuffer long decoder over {@code value.asByteBuffer()}.
   *
   * @param decoder not null
   * @return the decoder
   */
  public static LongSegmentDecoder ofLong(LongDecoder decoder) {
    Objects.requireNonNull(decoder, "decoder");
    return v -> decoder.decode(v.asByteBuffer());
  }

  /** Offset 0, once v is known to hold exactly size bytes. */
  private static long sized(MemorySegment v, int size, String decoder) {
    DecodeRules.exactSize(decoder, v.byteSize(), size);
    return 0;
  }

  private static int intSize(MemorySegment v, String decoder) {
    if (v.byteSize() > Integer.MAX_VALUE - 8) {
      throw new DecodeException(
          decoder + ": a value of " + v.byteSize() + " bytes does not fit a Java array");
    }
    return (int) v.byteSize();
  }

  private static String lenientUtf8(MemorySegment v) {
    int n = intSize(v, "utf8");
    byte[] scratch = SCRATCH.get();
    if (scratch.length < n) {
      scratch = DecodeRules.grownStaging(SCRATCH, scratch, n);
    }
    MemorySegment.copy(v, JAVA_BYTE, 0, scratch, 0, n);
    return new String(scratch, 0, n, StandardCharsets.UTF_8);
  }

  private static byte[] copy(MemorySegment v) {
    intSize(v, "bytes");
    try {
      return FfmStore.toArray(v);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }
}
