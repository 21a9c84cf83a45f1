// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams;

import io.pinget.Options;
import io.pinget.ValueDecoder;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Builds {@link PingetKeyValueStore}s ({@link PingetStores#keyValueStoreBuilder}): change-logging
 * on by default, as Kafka's builders; caching always off, since the store's reads go beneath
 * Kafka's record cache, where a cached write would not yet be (so {@link #withCachingEnabled()}
 * throws rather than let reads miss recent writes). Not thread-safe; {@link #build()} makes a new
 * store each call, as Kafka asks of builders.
 *
 * @param <K> keys
 * @param <V> values
 */
public final class PingetKeyValueStoreBuilder<K, V>
    implements StoreBuilder<PingetKeyValueStore<K, V>> {
  private final String name;
  private final Serde<K> keySerde;
  private final Serde<V> valueSerde;
  private final ValueDecoder<V> decoder;
  private Options options = PingetStores.kafkaOptions();
  private boolean logging = true;
  private Map<String, String> logConfig = new HashMap<>();

  PingetKeyValueStoreBuilder(
      String name, Serde<K> keySerde, Serde<V> valueSerde, ValueDecoder<V> decoder) {
    this.name = Objects.requireNonNull(name, "name cannot be null");
    this.keySerde = keySerde;
    this.valueSerde = valueSerde;
    this.decoder = decoder;
  }

  /**
   * The options each store opens with (default {@link PingetStores#kafkaOptions()}).
   *
   * @param options not null; not changed afterwards (stores of several tasks open with it)
   * @return this
   */
  public PingetKeyValueStoreBuilder<K, V> withOptions(Options options) {
    this.options = Objects.requireNonNull(options, "options");
    return this;
  }

  /**
   * Refused: see the class comment.
   *
   * @throws UnsupportedOperationException always
   */
  @Override
  public PingetKeyValueStoreBuilder<K, V> withCachingEnabled() {
    throw new UnsupportedOperationException(
        "pinget's typed store "
            + name
            + " reads beneath Kafka's record cache and would miss writes the cache holds: it runs"
            + " with caching off (for a cached store, use PingetStores.persistentKeyValueStore with"
            + " Stores.keyValueStoreBuilder)");
  }

  @Override
  public PingetKeyValueStoreBuilder<K, V> withCachingDisabled() {
    return this;
  }

  @Override
  public PingetKeyValueStoreBuilder<K, V> withLoggingEnabled(Map<String, String> config) {
    Objects.requireNonNull(config, "config can't be null");
    logging = true;
    logConfig = new HashMap<>(config);
    return this;
  }

  @Override
  public PingetKeyValueStoreBuilder<K, V> withLoggingDisabled() {
    logging = false;
    logConfig = new HashMap<>();
    return this;
  }

  @Override
  public PingetKeyValueStore<K, V> build() {
    PingetBytesStore bytes = new PingetBytesStore(name, options);
    StoreBuilder<KeyValueStore<K, V>> kafka =
        Stores.keyValueStoreBuilder(PingetStores.supplierOf(bytes), keySerde, valueSerde)
            .withCachingDisabled();
    kafka = logging ? kafka.withLoggingEnabled(logConfig) : kafka.withLoggingDisabled();
    return new PingetKeyValueStore<>(kafka.build(), bytes, keySerde, valueSerde, decoder);
  }

  @Override
  public Map<String, String> logConfig() {
    return logConfig;
  }

  @Override
  public boolean loggingEnabled() {
    return logging;
  }

  @Override
  public String name() {
    return name;
  }
}
