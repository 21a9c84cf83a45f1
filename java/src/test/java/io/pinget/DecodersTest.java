// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinget.internal.DecodeRules;
import io.pinget.kafka.KafkaDecoders;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/** The built-in decoders on their own (no store): sizes, byte orders, text, copies, adapters. */
class DecodersTest {
  private static final byte[] EIGHT = {1, 2, 3, 4, 5, 6, 7, (byte) 0xF8};

  /** The same bytes as a heap buffer, a direct one, a read-only one, and at an offset. */
  private static List<ByteBuffer> shapes(byte[] bytes) {
    ByteBuffer offset = ByteBuffer.allocate(bytes.length + 3).position(3);
    offset.put(bytes).position(3);
    return List.of(
        ByteBuffer.wrap(bytes),
        TestSupport.direct(bytes),
        TestSupport.direct(bytes).asReadOnlyBuffer(),
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN),
        TestSupport.direct(bytes).order(ByteOrder.LITTLE_ENDIAN),
        offset);
  }

  @Test
  void numbersReadTheirEndiannessWhateverTheBuffersOrder() {
    long be = 0x01020304050607F8L;
    long le = 0xF807060504030201L;
    for (ByteBuffer b : shapes(EIGHT)) {
      int position = b.position();
      assertEquals(be, Decoders.longBE().decode(b), b.toString());
      assertEquals(le, Decoders.longLE().decode(b), b.toString());
      assertEquals(position, b.position(), "absolute reads: the position does not move");
    }
    byte[] four = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFE};
    for (ByteBuffer b : shapes(four)) {
      assertEquals(-2L, Decoders.intBE().decode(b), b.toString());
      assertEquals(0xFEFFFFFF, (int) Decoders.intLE().decode(b), b.toString());
    }
    assertEquals(
        Long.MIN_VALUE,
        Decoders.longBE().decode(ByteBuffer.allocate(8).putLong(0, Long.MIN_VALUE)));
  }

  @Test
  void aNumberOfTheWrongSizeIsAnErrorNamingTheSize() {
    for (int size : new int[] {0, 1, 3, 7, 9, 16}) {
      for (ByteBuffer b : shapes(new byte[size])) {
        DecodeException e = assertThrows(DecodeException.class, () -> Decoders.longBE().decode(b));
        assertTrue(e.getMessage().contains("has " + size + " bytes"), e.getMessage());
        assertTrue(e.getMessage().contains("exactly 8"), e.getMessage());
        assertThrows(DecodeException.class, () -> Decoders.longLE().decode(b));
      }
    }
    for (int size : new int[] {0, 3, 5, 8}) {
      DecodeException e =
          assertThrows(
              DecodeException.class, () -> Decoders.intBE().decode(ByteBuffer.allocate(size)));
      assertTrue(
          e.getMessage().startsWith("intBE: the value has " + size + " bytes"), e.getMessage());
      assertThrows(DecodeException.class, () -> Decoders.intLE().decode(ByteBuffer.allocate(size)));
    }
  }

  @Test
  void utf8DecodesTextAndReplacesMalformedInputAsNewStringDoes() {
    String text = "héllo, wörld — 日本語 🎉";
    for (ByteBuffer b : shapes(text.getBytes(StandardCharsets.UTF_8))) {
      assertEquals(text, Decoders.utf8().decode(b));
      assertEquals(text, Decoders.utf8Strict().decode(b));
    }
    assertEquals("", Decoders.utf8().decode(ByteBuffer.allocateDirect(0)));
    assertEquals("", Decoders.utf8Strict().decode(ByteBuffer.allocateDirect(0)));
    // Larger than the kept staging array: still right.
    String big = "ä".repeat(DecodeRules.KEPT_STAGING_BYTES);
    assertEquals(
        big, Decoders.utf8().decode(TestSupport.direct(big.getBytes(StandardCharsets.UTF_8))));
    for (byte[] bad : malformed()) {
      String want = new String(bad, StandardCharsets.UTF_8);
      assertTrue(want.contains("\uFFFD"), "the case is malformed");
      for (ByteBuffer b : shapes(bad)) {
        assertEquals(want, Decoders.utf8().decode(b), "replacement as new String(bytes, UTF_8)");
      }
    }
  }

  private static List<byte[]> malformed() {
    return List.of(
        new byte[] {'a', (byte) 0x80, 'b'}, // a stray continuation byte
        new byte[] {'a', (byte) 0xE6, (byte) 0x97}, // a truncated sequence at the end
        new byte[] {(byte) 0xC0, (byte) 0xAF}, // an overlong '/'
        new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // a surrogate
        new byte[] {(byte) 0xFF});
  }

  @Test
  void utf8StrictRefusesMalformedInputNamingWhere() {
    int[] offsets = {1, 1, 0, 0, 0};
    List<byte[]> bad = malformed();
    for (int i = 0; i < bad.size(); i++) {
      byte[] bytes = bad.get(i);
      for (ByteBuffer b : shapes(bytes)) {
        DecodeException e =
            assertThrows(DecodeException.class, () -> Decoders.utf8Strict().decode(b));
        assertTrue(
            e.getMessage().contains("at byte " + offsets[i])
                && e.getMessage().contains("of a value of " + bytes.length + " bytes"),
            e.getMessage());
      }
    }
  }

  @Test
  void bytesCopiesOnceAndCountsTheCopyAndTheArray() {
    for (ByteBuffer b : shapes(EIGHT)) {
      CopyStats before = CopyStats.current();
      byte[] copy = Decoders.bytes().decode(b);
      CopyStats counted = CopyStats.current().minus(before);
      assertArrayEquals(EIGHT, copy);
      assertEquals(1, counted.valueCopies());
      assertEquals(EIGHT.length, counted.valueBytesCopied());
      assertEquals(1, counted.allocations());
    }
    assertNotSame(Decoders.bytes().decode(ByteBuffer.wrap(EIGHT)), EIGHT);
  }

  @Test
  void aFunctionOfByteBufferIsADecoder() {
    ValueDecoder<Integer> size = Decoders.of(ByteBuffer::remaining);
    assertEquals(8, size.decode(ByteBuffer.wrap(EIGHT)));
    assertThrows(NullPointerException.class, () -> Decoders.of(null));
  }

  @Test
  void recordingCountsOnThisThreadAndRefusesNegativeSizes() {
    CopyStats before = CopyStats.current();
    CopyStats.recordValueCopy(100);
    CopyStats.recordAllocation();
    CopyStats d = CopyStats.current().minus(before);
    assertEquals(1, d.valueCopies());
    assertEquals(100, d.valueBytesCopied());
    assertEquals(1, d.allocations());
    assertThrows(IllegalArgumentException.class, () -> CopyStats.recordValueCopy(-1));
  }

  @Test
  void kafkaDeserializersReadTheBufferThroughTheAdapter() {
    try (LongDeserializer longs = new LongDeserializer();
        StringDeserializer strings = new StringDeserializer()) {
      for (ByteBuffer b : shapes(EIGHT)) {
        if (b.order() == ByteOrder.BIG_ENDIAN) { // Kafka reads in the buffer's order
          assertEquals(0x01020304050607F8L, KafkaDecoders.of(longs, "t").decode(b));
        }
      }
      String text = "kafka ✓";
      for (ByteBuffer b : shapes(text.getBytes(StandardCharsets.UTF_8))) {
        assertEquals(text, KafkaDecoders.of(strings, "t", new RecordHeaders()).decode(b));
      }
      ByteBuffer seen = ByteBuffer.wrap(EIGHT);
      RecordHeaders headers = new RecordHeaders();
      headers.add("h", new byte[] {1});
      Object[] got = new Object[2];
      ValueDecoder<String> spy =
          KafkaDecoders.of(
              (org.apache.kafka.common.serialization.Deserializer<String>)
                  new org.apache.kafka.common.serialization.Deserializer<String>() {
                    @Override
                    public String deserialize(String topic, byte[] data) {
                      throw new AssertionError("the ByteBuffer form is called");
                    }

                    @Override
                    public String deserialize(
                        String topic, org.apache.kafka.common.header.Headers h, ByteBuffer data) {
                      got[0] = h;
                      got[1] = data;
                      return topic;
                    }
                  },
              "the-topic",
              headers);
      assertEquals("the-topic", spy.decode(seen));
      assertSame(headers, got[0]);
      assertSame(seen, got[1], "the buffer itself, not a copy");
      assertThrows(NullPointerException.class, () -> KafkaDecoders.of(null, "t"));
    }
  }

  /**
   * pinget runs without kafka-clients: no class but io.pinget.kafka's refers to it, and Decoders
   * loads and decodes in a class loader that has pinget's classes and not Kafka's, where the
   * adapter itself cannot load (so the check can fail).
   */
  @Test
  void decodersNeedNoKafkaOnTheClassPath() throws Exception {
    Path classes =
        Path.of(Decoders.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
        String name = classes.relativize(f).toString();
        boolean refers =
            new String(read(f), StandardCharsets.ISO_8859_1).contains("org/apache/kafka");
        if (name.startsWith("io/pinget/kafka/KafkaDecoders")) {
          assertTrue(refers, f + " is the adapter: the check can see a reference");
        } else {
          assertFalse(refers, f + " refers to Kafka");
        }
      }
    }
    try (URLClassLoader isolated =
        new URLClassLoader(
            new URL[] {classes.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
      Class<?> decoders = Class.forName("io.pinget.Decoders", true, isolated);
      assertFalse(decoders == Decoders.class);
      Object longBE = decoders.getMethod("longBE").invoke(null);
      Object got =
          Class.forName("io.pinget.LongDecoder", false, isolated)
              .getMethod("decode", ByteBuffer.class)
              .invoke(longBE, ByteBuffer.wrap(EIGHT));
      assertEquals(0x01020304050607F8L, got);
      Class<?> adapter = Class.forName("io.pinget.kafka.KafkaDecoders", false, isolated);
      assertThrows(NoClassDefFoundError.class, () -> adapter.getMethods());
    }
  }

  private static byte[] read(Path f) {
    try {
      return Files.readAllBytes(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
