// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import java.lang.foreign.MemorySegment;

/**
 * Turns a pinned value into what the program reads: the decode step of {@link
 * FfmStore#get(io.pinget.ReadOptions, byte[], SegmentDecoder)}. {@link SegmentDecoders} has the
 * common ones, and adapts any {@code io.pinget.ValueDecoder} (Kafka's through {@code
 * io.pinget.kafka.KafkaDecoders} included) to read the segment as a ByteBuffer.
 *
 * <p>{@code value} is a read-only segment over the value's pinned bytes (RocksDB's block-cache
 * memory, or its copy of a memtable value), of the value's size, in a scope confined to the calling
 * thread that closes when the call returns or throws, just before the pin goes. A decoder may read
 * it and anything made from it (slices, {@code asByteBuffer()}) during the call. Kept past the
 * call, the segment, its slices and its buffers throw IllegalStateException when read: they never
 * read freed memory. Handed to another thread, they throw WrongThreadException. Whatever the
 * decoder throws reaches the caller unchanged, after the pin is released.
 *
 * @param <T> what the value becomes
 */
@FunctionalInterface
public interface SegmentDecoder<T> {
  /**
   * Decodes a value.
   *
   * @param value the value's bytes, read-only, valid only during this call
   * @return the decoded value
   */
  T decode(MemorySegment value);
}
