// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.decode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * One thread's Avro decoding of Event records, as a service would write it: one datum reader, and
 * the decoder and record reused from read to read (Avro's own reuse), from a byte[] or from a
 * ByteBuffer. Not thread-safe.
 */
public final class AvroReads {
  private final GenericDatumReader<GenericRecord> reader = new GenericDatumReader<>(Shape.EVENT);
  private final BufferStream stream = new BufferStream();
  private BinaryDecoder decoder;
  private GenericRecord record;
  private byte[] scratch = new byte[1024];

  /** The record of bytes (the reused record, refilled). */
  public GenericRecord read(byte[] bytes, int off, int len) {
    decoder = DecoderFactory.get().binaryDecoder(bytes, off, len, decoder);
    return read();
  }

  /**
   * The record of value's bytes from its position to its limit, through Avro's array decoder: a
   * direct buffer's bytes are copied once into this thread's reused array (Avro's fast decoder
   * reads arrays; its InputStream decoder allocates an 8 KiB buffer per record, measured 8,968 B
   * per read). Keeps no reference to value.
   */
  public GenericRecord read(ByteBuffer value) {
    int n = value.remaining();
    if (value.hasArray()) {
      return read(value.array(), value.arrayOffset() + value.position(), n);
    }
    if (scratch.length < n) {
      scratch = new byte[n];
    }
    value.get(value.position(), scratch, 0, n);
    return read(scratch, 0, n);
  }

  /**
   * The record of value's bytes read in place, through Avro's unbuffered decoder over an
   * InputStream on the buffer: no copy of the record, but a virtual call per varint byte. Keeps no
   * reference to value.
   */
  public GenericRecord readInPlace(ByteBuffer value) {
    stream.buffer = value;
    try {
      decoder = DecoderFactory.get().directBinaryDecoder(stream, decoder);
      return read();
    } finally {
      stream.buffer = null;
    }
  }

  private GenericRecord read() {
    try {
      record = reader.read(record, decoder);
      return record;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** An InputStream over a ByteBuffer, re-pointed per read. */
  private static final class BufferStream extends InputStream {
    ByteBuffer buffer;

    @Override
    public int read() {
      return buffer.hasRemaining() ? buffer.get() & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      int n = Math.min(len, buffer.remaining());
      if (n == 0) {
        return len == 0 ? 0 : -1;
      }
      buffer.get(b, off, n);
      return n;
    }

    @Override
    public int available() {
      return buffer == null ? 0 : buffer.remaining();
    }
  }
}
