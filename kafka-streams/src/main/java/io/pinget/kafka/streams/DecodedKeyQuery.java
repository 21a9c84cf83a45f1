// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams;

import io.pinget.ValueDecoder;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.query.Query;

/**
 * An interactive query (IQv2) of one key whose value a {@link ValueDecoder} decodes from pinget's
 * pinned memory: the typed read for a DSL application, whose stores Kafka's layers wrap. Kafka's
 * metered and caching layers pass it through to the {@link PingetBytesStore} beneath them, so it
 * reads what the store holds: with the record cache on (the DSL's default), writes still in the
 * cache are not seen until they are flushed (at the next commit); with caching off, every write.
 *
 * <pre>
 *   StateQueryResult&lt;Long&gt; r = streams.query(StateQueryRequest.inStore("counts")
 *       .withQuery(DecodedKeyQuery.timestamped(Bytes.wrap(key), Decoders.of(b -&gt; b.getLong(0)))));
 * </pre>
 *
 * @param <T> what the value becomes
 */
public final class DecodedKeyQuery<T> implements Query<T> {
  private final Bytes key;
  private final ValueDecoder<T> decoder;

  private DecodedKeyQuery(Bytes key, ValueDecoder<T> decoder) {
    this.key = Objects.requireNonNull(key, "key");
    this.decoder = Objects.requireNonNull(decoder, "decoder");
  }

  /**
   * The stored value of key, as it is stored (a plain store's value).
   *
   * @param key the serialized key, not null
   * @param decoder not null; the rules of {@link ValueDecoder} apply
   * @param <T> what it returns
   * @return the query
   */
  public static <T> DecodedKeyQuery<T> withKey(Bytes key, ValueDecoder<T> decoder) {
    return new DecodedKeyQuery<>(key, decoder);
  }

  /**
   * As {@link #withKey(Bytes, ValueDecoder)}, the key serialized by serializer (with a null topic).
   *
   * @param key not null
   * @param serializer not null
   * @param decoder not null
   * @param <K> the key's type
   * @param <T> what it returns
   * @return the query
   */
  public static <K, T> DecodedKeyQuery<T> withKey(
      K key, Serializer<K> serializer, ValueDecoder<T> decoder) {
    return new DecodedKeyQuery<>(Bytes.wrap(serializer.serialize(null, key)), decoder);
  }

  /**
   * The value of key in a timestamped store (the DSL's tables and aggregations), whose stored value
   * is an 8-byte timestamp and then the value: decoder reads the value after it.
   *
   * @param key the serialized key, not null
   * @param decoder not null
   * @param <T> what it returns
   * @return the query
   */
  public static <T> DecodedKeyQuery<T> timestamped(Bytes key, ValueDecoder<T> decoder) {
    Objects.requireNonNull(decoder, "decoder");
    return new DecodedKeyQuery<>(
        key, v -> decoder.decode(v.slice(Long.BYTES, v.remaining() - Long.BYTES)));
  }

  /** The serialized key. */
  public Bytes key() {
    return key;
  }

  ValueDecoder<T> decoder() {
    return decoder;
  }
}
