// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams;

import io.pinget.ValueDecoder;
import io.pinget.kafka.KafkaDecoders;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.ProcessorContextUtils;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.internals.WrappedStateStore;

/**
 * A typed key-value store for the Processor API ({@link PingetStores#keyValueStoreBuilder}) whose
 * reads decode values straight from pinget's pinned memory.
 *
 * <p><b>Layers.</b> Writes and everything Kafka manages go through Kafka's own stack, built by
 * {@code Stores.keyValueStoreBuilder} over a {@link PingetBytesStore} with caching off: metering,
 * then change-logging (so restoration, standby replicas and exactly-once behave as with Kafka's own
 * store), then pinget. Reads ({@code get}, ranges, {@code all}, prefix scans) skip Kafka's metered
 * layer: the key is serialized as Kafka would (same serializer, same topic), and the value is
 * decoded by the {@link ValueDecoder} from the pinned block (get: no value array; iterators: the
 * cursor's view of the value, read in place; each key is copied into one new array for its
 * deserializer). They are therefore not counted in Kafka's store metrics. With no record cache
 * beneath it, every read sees every write made before it.
 *
 * <p>The default decoder is the value serde's deserializer in its ByteBuffer form ({@link
 * KafkaDecoders}): Kafka's Long, Integer, Double, UUID deserializers read in place; its String
 * deserializer copies (Kafka's code). Thread-safe as Kafka's stores are: the stream thread writes,
 * interactive queries read from other threads.
 *
 * @param <K> keys
 * @param <V> values
 */
public final class PingetKeyValueStore<K, V> implements KeyValueStore<K, V> {
  private final KeyValueStore<K, V> kafka;
  private final PingetBytesStore bytes;
  private final Serde<K> keySerde;
  private final Serde<V> valueSerde;
  private final ValueDecoder<V> givenDecoder;
  // Set by init, read by other threads' queries after Kafka publishes the store.
  private volatile String topic;
  private volatile Serializer<K> keySerializer;
  private volatile ValueDecoder<V> decoder;
  private volatile Function<ByteBuffer, K> keyOf;
  private volatile Function<ByteBuffer, V> valueOf;

  PingetKeyValueStore(
      KeyValueStore<K, V> kafka,
      PingetBytesStore bytes,
      Serde<K> keySerde,
      Serde<V> valueSerde,
      ValueDecoder<V> decoder) {
    this.kafka = kafka;
    this.bytes = bytes;
    this.keySerde = keySerde;
    this.valueSerde = valueSerde;
    this.givenDecoder = decoder;
  }

  /**
   * The typed store behind what {@code ProcessorContext.getStateStore} returns: Kafka hands a
   * processor its stores wrapped (so that it cannot init or close them), and the wrapper offers
   * only KeyValueStore's methods; this reaches the decoder-taking ones.
   *
   * @param store a store of the processor's, not null
   * @param <K> keys
   * @param <V> values
   * @return the pinget typed store it is or wraps
   * @throws IllegalArgumentException if it neither is nor wraps one
   */
  @SuppressWarnings("unchecked")
  public static <K, V> PingetKeyValueStore<K, V> of(StateStore store) {
    StateStore s = Objects.requireNonNull(store, "store");
    while (!(s instanceof PingetKeyValueStore)) {
      if (!(s instanceof WrappedStateStore)) {
        throw new IllegalArgumentException(
            "store "
                + store.name()
                + " is not a pinget typed store (PingetStores.keyValueStoreBuilder)");
      }
      s = ((WrappedStateStore<?, ?, ?>) s).wrapped();
    }
    return (PingetKeyValueStore<K, V>) s;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void init(StateStoreContext context, StateStore root) {
    // The topic Kafka's metered layer hands its serdes (its changelog topic, as Kafka names it),
    // so that a topic-aware serializer (a schema registry's) writes and reads keys alike.
    String t = ProcessorContextUtils.changelogFor(context, name(), Boolean.FALSE);
    Serde<K> ks = keySerde != null ? keySerde : (Serde<K>) context.keySerde();
    Serde<V> vs = valueSerde != null ? valueSerde : (Serde<V>) context.valueSerde();
    Deserializer<K> keyDeserializer = ks.deserializer();
    ValueDecoder<V> d =
        givenDecoder != null ? givenDecoder : KafkaDecoders.of(vs.deserializer(), t);
    kafka.init(context, root);
    topic = t;
    keySerializer = ks.serializer();
    decoder = d;
    keyOf = k -> keyDeserializer.deserialize(t, Keys.kafkaKey(k));
    valueOf = d::decode;
  }

  private byte[] rawKey(K key) {
    return key == null ? null : keySerializer.serialize(topic, key);
  }

  /** The value decoded from pinned memory by the store's decoder; null if absent. */
  @Override
  public V get(K key) {
    Objects.requireNonNull(key, "key cannot be null");
    return bytes.decode(rawKey(key), decoder);
  }

  /**
   * The value decoded from pinned memory by another decoder (a field of a record, say).
   *
   * @param key not null
   * @param decoder not null; the rules of {@link ValueDecoder} apply
   * @param <T> what it returns
   * @return what decoder returned, or null if the key is absent
   */
  public <T> T get(K key, ValueDecoder<T> decoder) {
    Objects.requireNonNull(key, "key cannot be null");
    return bytes.decode(rawKey(key), decoder);
  }

  @Override
  public KeyValueIterator<K, V> range(K from, K to) {
    return bytes.range(rawKey(from), rawKey(to), true, keyOf, valueOf);
  }

  /**
   * As {@link #range(Object, Object)}, each value decoded by another decoder (a field of a record,
   * say) from the cursor's view of it, valid during the call only.
   *
   * @param from null: from the first key
   * @param to null: to the last key
   * @param decoder not null; the rules of {@link ValueDecoder} apply
   * @param <T> what each value becomes
   * @return an iterator; close it
   */
  public <T> KeyValueIterator<K, T> range(K from, K to, ValueDecoder<T> decoder) {
    Objects.requireNonNull(decoder, "decoder");
    return bytes.range(rawKey(from), rawKey(to), true, keyOf, decoder::decode);
  }

  @Override
  public KeyValueIterator<K, V> reverseRange(K from, K to) {
    return bytes.range(rawKey(from), rawKey(to), false, keyOf, valueOf);
  }

  @Override
  public KeyValueIterator<K, V> all() {
    return bytes.range(null, null, true, keyOf, valueOf);
  }

  @Override
  public KeyValueIterator<K, V> reverseAll() {
    return bytes.range(null, null, false, keyOf, valueOf);
  }

  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<K, V> prefixScan(
      P prefix, PS prefixKeySerializer) {
    Objects.requireNonNull(prefix, "prefix cannot be null");
    Objects.requireNonNull(prefixKeySerializer, "prefixKeySerializer cannot be null");
    return bytes.prefixScan(prefixKeySerializer.serialize(null, prefix), keyOf, valueOf);
  }

  @Override
  public long approximateNumEntries() {
    return kafka.approximateNumEntries();
  }

  @Override
  public void put(K key, V value) {
    kafka.put(key, value);
  }

  @Override
  public V putIfAbsent(K key, V value) {
    return kafka.putIfAbsent(key, value);
  }

  @Override
  public void putAll(List<KeyValue<K, V>> entries) {
    kafka.putAll(entries);
  }

  @Override
  public V delete(K key) {
    return kafka.delete(key);
  }

  @Override
  public String name() {
    return kafka.name();
  }

  @Override
  @SuppressWarnings("deprecation") // Kafka 4.3 calls it; 4.4 calls commit
  public void flush() {
    kafka.flush();
  }

  @Override
  public void commit(Map<TopicPartition, Long> changelogOffsets) {
    kafka.commit(changelogOffsets);
  }

  @Override
  public Long committedOffset(TopicPartition partition) {
    return kafka.committedOffset(partition);
  }

  @Override
  @SuppressWarnings("deprecation")
  public boolean managesOffsets() {
    return kafka.managesOffsets();
  }

  @Override
  public void close() {
    kafka.close();
  }

  @Override
  public boolean persistent() {
    return kafka.persistent();
  }

  @Override
  public boolean isOpen() {
    return kafka.isOpen();
  }

  @Override
  public <R> QueryResult<R> query(Query<R> query, PositionBound bound, QueryConfig config) {
    return kafka.query(query, bound, config);
  }

  @Override
  public Position getPosition() {
    return kafka.getPosition();
  }
}
