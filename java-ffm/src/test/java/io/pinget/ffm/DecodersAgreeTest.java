// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pinget.Decoders;
import io.pinget.ValueDecoder;
import io.pinget.internal.DecodeRules;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two doors' built-in decoders give the same result, or throw the same exception with the same
 * message, for the same bytes: each {@link SegmentDecoders} decoder against its {@link Decoders}
 * twin, over values of every size rule (empty, 3, 4, 8 and 9 bytes), text (ASCII, multi-byte,
 * malformed) and text larger than the kept staging array.
 */
class DecodersAgreeTest {
  private static List<byte[]> values() {
    List<byte[]> v = new ArrayList<>();
    for (int n : new int[] {0, 3, 4, 8, 9}) {
      byte[] b = new byte[n];
      for (int i = 0; i < n; i++) {
        b[i] = (byte) (0x81 + 17 * i); // high bits set: sign and byte order both show
      }
      v.add(b);
    }
    v.add("plain ascii".getBytes(StandardCharsets.US_ASCII));
    v.add("décodé à la lecture, 読み取り時に".getBytes(StandardCharsets.UTF_8));
    v.add(new byte[] {'a', (byte) 0x80, 'b'}); // a stray continuation byte
    v.add(new byte[] {'a', (byte) 0xE2, (byte) 0x82}); // a truncated sequence
    v.add(new byte[] {(byte) 0xC0, (byte) 0xAF}); // an overlong form
    v.add("ä".repeat(DecodeRules.KEPT_STAGING_BYTES).getBytes(StandardCharsets.UTF_8));
    return v;
  }

  private record Twin(String name, ValueDecoder<?> jni, SegmentDecoder<?> ffm) {}

  private static List<Twin> twins() {
    return List.of(
        new Twin("longBE", Decoders.longBE()::decode, SegmentDecoders.longBE()::decode),
        new Twin("longLE", Decoders.longLE()::decode, SegmentDecoders.longLE()::decode),
        new Twin("intBE", Decoders.intBE()::decode, SegmentDecoders.intBE()::decode),
        new Twin("intLE", Decoders.intLE()::decode, SegmentDecoders.intLE()::decode),
        new Twin("utf8", Decoders.utf8(), SegmentDecoders.utf8()),
        new Twin("utf8Strict", Decoders.utf8Strict(), SegmentDecoders.utf8Strict()),
        new Twin("bytes", Decoders.bytes(), SegmentDecoders.bytes()));
  }

  /** What a decode gave: its value, or its exception's class and message. */
  private static Object outcome(Decode decode) {
    try {
      Object value = decode.run();
      return value instanceof byte[] b ? Arrays.toString(b) : value;
    } catch (RuntimeException e) {
      return e.getClass().getName() + ": " + e.getMessage();
    }
  }

  private interface Decode {
    Object run();
  }

  @Test
  void eachSegmentDecoderAgreesWithItsByteBufferTwin() {
    try (Arena arena = Arena.ofConfined()) {
      for (byte[] value : values()) {
        ByteBuffer direct = ByteBuffer.allocateDirect(value.length).put(0, value);
        ByteBuffer heap = ByteBuffer.wrap(value);
        MemorySegment segment = arena.allocate(Math.max(1, value.length)).asSlice(0, value.length);
        segment.copyFrom(MemorySegment.ofArray(value));
        MemorySegment readOnly = segment.asReadOnly(); // as the doors lend a value
        for (Twin t : twins()) {
          String what = t.name() + " of " + value.length + " bytes";
          Object want = outcome(() -> t.jni().decode(direct));
          assertEquals(want, outcome(() -> t.jni().decode(heap)), what + ", heap buffer");
          assertEquals(want, outcome(() -> t.ffm().decode(readOnly)), what + ", segment");
        }
      }
    }
    // The comparison can tell the doors apart: a wrong size is refused, and the text decoded.
    assertEquals(
        "io.pinget.DecodeException: longBE: the value has 3 bytes; it needs exactly 8",
        outcome(() -> SegmentDecoders.longBE().decode(MemorySegment.ofArray(new byte[3]))));
    MemorySegment stray = MemorySegment.ofArray(new byte[] {'a', (byte) 0x80, 'b'});
    assertEquals("a\uFFFDb", outcome(() -> SegmentDecoders.utf8().decode(stray)));
  }
}
