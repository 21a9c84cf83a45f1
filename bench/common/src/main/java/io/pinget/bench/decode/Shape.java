// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.decode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * The values the decode benchmarks read, as programs store them: a counter (8 bytes, big-endian), a
 * name (64 bytes of UTF-8, ASCII with one 2-byte character), and an event record (Avro binary,
 * exactly 1,024 bytes). Value i of a shape is the same in every run and every binding.
 */
public enum Shape {
  LONG(8),
  UTF8(64),
  AVRO(1024);

  /** The value's size in bytes. */
  public final int size;

  Shape(int size) {
    this.size = size;
  }

  /** The Avro schema of the AVRO shape's records. */
  public static final Schema EVENT =
      new Schema.Parser()
          .parse(
              "{\"type\":\"record\",\"name\":\"Event\",\"namespace\":\"io.pinget.bench\","
                  + "\"fields\":["
                  + "{\"name\":\"id\",\"type\":\"long\"},"
                  + "{\"name\":\"timestamp\",\"type\":\"long\"},"
                  + "{\"name\":\"user\",\"type\":\"string\"},"
                  + "{\"name\":\"kind\",\"type\":\"int\"},"
                  + "{\"name\":\"score\",\"type\":\"double\"},"
                  + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},"
                  + "{\"name\":\"payload\",\"type\":\"bytes\"}]}");

  /** Value i of this shape. */
  public byte[] value(int i) {
    Random r = new Random(i * 31L + ordinal());
    switch (this) {
      case LONG:
        return ByteBuffer.allocate(8).putLong(r.nextLong()).array();
      case UTF8:
        {
          StringBuilder s = new StringBuilder(String.format("name-%06d café ", i));
          while (s.toString().getBytes(StandardCharsets.UTF_8).length < size) {
            s.append((char) ('a' + r.nextInt(26)));
          }
          byte[] b = s.toString().getBytes(StandardCharsets.UTF_8);
          if (b.length != size) {
            throw new IllegalStateException("utf8 value of " + b.length + " bytes");
          }
          return b;
        }
      default:
        return event(i, r);
    }
  }

  /** An Event record of exactly 1,024 bytes: the payload is sized to make it so. */
  private static byte[] event(int i, Random r) {
    GenericRecord e = new GenericData.Record(EVENT);
    e.put("id", (long) i * 7919);
    e.put("timestamp", 1_764_000_000_000L + i);
    e.put("user", String.format("user-%08d@example.com", i));
    e.put("kind", i % 17);
    e.put("score", r.nextDouble());
    List<CharSequence> tags = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      tags.add("tag-" + r.nextInt(1000));
    }
    e.put("tags", tags);
    int payload = 900;
    for (int attempt = 0; attempt < 8; attempt++) {
      byte[] bytes = new byte[payload];
      r.nextBytes(bytes);
      e.put("payload", ByteBuffer.wrap(bytes));
      byte[] encoded = encode(e);
      if (encoded.length == 1024) {
        return encoded;
      }
      payload += 1024 - encoded.length;
    }
    throw new IllegalStateException("no payload size makes a 1,024-byte record");
  }

  private static byte[] encode(GenericRecord e) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
      new GenericDatumWriter<GenericRecord>(EVENT).write(e, encoder);
      encoder.flush();
      return out.toByteArray();
    } catch (IOException x) {
      throw new UncheckedIOException(x);
    }
  }

  /** The shape of a size (the benchmarks' valueSize parameter). */
  public static Shape ofSize(int size) {
    for (Shape s : values()) {
      if (s.size == size) {
        return s;
      }
    }
    throw new IllegalArgumentException("no decode shape of " + size + " bytes: 8, 64 or 1024");
  }

  /**
   * A counter's big-endian long from its 8 bytes, with shifts and masks (as hand-written code
   * does).
   *
   * @param b 8 bytes
   * @return the long
   * @throws IllegalArgumentException if b does not hold 8 bytes
   */
  public static long shifts(byte[] b) {
    if (b.length != 8) {
      throw new IllegalArgumentException("a long needs 8 bytes, not " + b.length);
    }
    return (b[0] & 0xFFL) << 56
        | (b[1] & 0xFFL) << 48
        | (b[2] & 0xFFL) << 40
        | (b[3] & 0xFFL) << 32
        | (b[4] & 0xFFL) << 24
        | (b[5] & 0xFFL) << 16
        | (b[6] & 0xFFL) << 8
        | (b[7] & 0xFFL);
  }
}
