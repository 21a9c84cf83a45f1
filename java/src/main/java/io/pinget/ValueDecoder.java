// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;

/**
 * Turns a value into what the program reads, straight from pinned memory: the decode step of {@link
 * Reader#get(ReadOptions, byte[], int, int, ValueDecoder)} and {@link Reader#multiGet}. {@link
 * Decoders} has the common ones; {@code io.pinget.kafka.KafkaDecoders} adapts a Kafka {@code
 * Deserializer}; any {@code Function<ByteBuffer, T>} is one ({@code function::apply}).
 *
 * <p>What the decoder is given, and for how long: {@code value} is a read-only direct ByteBuffer
 * over the value's pinned bytes (RocksDB's block-cache memory, or its copy of a memtable value;
 * through the JNI API on JDK 17 to 23, a single get's value of up to 1,024 bytes is a copy in a
 * per-thread buffer), position 0, limit and capacity the value's size, big-endian. It is valid
 * during this call only: the pin is released as the call returns or throws. What a decoder may do
 * with it: read it (absolute or relative gets, a different byte order, slices and duplicates to
 * read from) and return anything that does not refer to its memory. What it must not do: keep
 * {@code value}, a slice, a duplicate or a view of it past the call. Through the JNI API (Store,
 * RocksJavaReader) {@code value} itself is emptied after the call (capacity 0: reading it throws),
 * but a slice or duplicate taken during the call keeps the old address: reading it later reads
 * memory that may have been freed and reused, which is undefined (wrong bytes, or a crash of the
 * JVM). The FFM binding ({@code io.pinget.ffm.FfmStore}) revokes them all: any later read throws
 * IllegalStateException.
 *
 * <p>Errors: whatever the decoder throws reaches the caller unchanged, after the pin is released. A
 * decoder may read through any reader, this one included (a nested read uses a pin of its own).
 *
 * @param <T> what the value becomes
 */
@FunctionalInterface
public interface ValueDecoder<T> {
  /**
   * Decodes a value.
   *
   * @param value the value's bytes, read-only, valid only during this call (see above)
   * @return the decoded value (null is passed through; a caller cannot then tell it from a missing
   *     key)
   */
  T decode(ByteBuffer value);
}
