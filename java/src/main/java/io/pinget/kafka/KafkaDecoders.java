// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka;

import io.pinget.ValueDecoder;
import java.util.Objects;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A Kafka {@link Deserializer} as a {@link ValueDecoder}: a value read through {@code
 * Reader.get(options, key, ..., decoder)} goes to the deserializer's ByteBuffer form, {@code
 * deserialize(String topic, Headers headers, ByteBuffer data)} (KIP-863, kafka-clients 3.6 and
 * later), with no copy of pinget's. Kafka's own deserializers of fixed-size types (Long, Integer,
 * Double, UUID, ...) read the buffer in place; its StringDeserializer copies a direct buffer into a
 * new array first (Kafka's code); a deserializer that only implements the byte[] forms gets the
 * value copied into a new array by Kafka's default method. {@code io.pinget.Decoders.utf8()} reads
 * text without that array.
 *
 * <p>kafka-clients is an optional dependency of pinget: bring it yourself. This class is the only
 * one in pinget that refers to it, and nothing else refers to this class, so a program without
 * kafka-clients never loads it.
 *
 * <p>The rule of {@link ValueDecoder} applies to the deserializer: it must not keep the buffer or a
 * view of it. Kafka's {@code ByteBufferDeserializer} returns the buffer it was given and so breaks
 * it: copy instead ({@code io.pinget.Decoders.bytes()}).
 */
public final class KafkaDecoders {
  private KafkaDecoders() {}

  /**
   * The deserializer over topic, with no record headers (an empty, read-only {@code Headers}).
   *
   * @param deserializer not null, configured; thread-safe if the decoder is used from several
   *     threads (Kafka's own are)
   * @param topic the topic passed to it (may be null where the deserializer allows it)
   * @param <T> what it returns
   * @return a decoder calling {@code deserializer.deserialize(topic, headers, value)}
   */
  public static <T> ValueDecoder<T> of(Deserializer<T> deserializer, String topic) {
    RecordHeaders none = new RecordHeaders();
    none.setReadOnly();
    return of(deserializer, topic, none);
  }

  /**
   * The deserializer over topic with these headers, passed to every call.
   *
   * @param deserializer not null, configured
   * @param topic the topic passed to it
   * @param headers not null (Kafka's consumers never pass null); read-only if shared between
   *     threads
   * @param <T> what it returns
   * @return a decoder calling {@code deserializer.deserialize(topic, headers, value)}
   */
  public static <T> ValueDecoder<T> of(
      Deserializer<T> deserializer, String topic, Headers headers) {
    Objects.requireNonNull(deserializer, "deserializer");
    Objects.requireNonNull(headers, "headers");
    return value -> deserializer.deserialize(topic, headers, value);
  }
}
