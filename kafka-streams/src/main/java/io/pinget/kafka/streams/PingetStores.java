// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams;

import io.pinget.Compression;
import io.pinget.Options;
import io.pinget.ValueDecoder;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.DslStoreFormat;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * pinget's stores for Kafka Streams, as {@code org.apache.kafka.streams.state.Stores} makes
 * Kafka's: bytes-store suppliers that Kafka's own builders wrap (the drop-in: metering, logging and
 * caching as Kafka's), and a typed store for the Processor API whose reads decode from pinned
 * memory. For the DSL, {@link PingetDslStoreSuppliers} switches every key-value store with one
 * config line.
 */
public final class PingetStores {
  private PingetStores() {}

  /**
   * Options as Kafka's RocksDB store sets them: a 50 MiB LRU block cache of 4 KiB blocks per store,
   * a Bloom filter of 10 bits per key, a 16 MiB write buffer, no compression. (Kafka's store also
   * compacts in RocksDB's universal style with up to 3 write buffers; pinget has no option for
   * either and keeps RocksDB's defaults: level compaction, 2 write buffers.)
   *
   * @return new options, to change as for any pinget store
   */
  public static Options kafkaOptions() {
    return new Options()
        .blockCacheBytes(50L << 20)
        .blockSize(4096)
        .bloomBitsPerKey(10)
        .writeBufferBytes(16L << 20)
        .compression(Compression.NONE);
  }

  /**
   * A key-value bytes store on pinget, for {@code Stores.keyValueStoreBuilder} or a DSL {@code
   * Materialized.as}: Kafka's layers (metering, logging, caching) wrap it as they wrap its RocksDB
   * store.
   *
   * @param name the store's name, not null
   * @return a supplier making a new {@link PingetBytesStore} per task
   */
  public static KeyValueBytesStoreSupplier persistentKeyValueStore(String name) {
    return persistentKeyValueStore(name, kafkaOptions());
  }

  /**
   * As {@link #persistentKeyValueStore(String)}, opened with options.
   *
   * @param name not null
   * @param options not null; not changed afterwards
   * @return a supplier
   */
  public static KeyValueBytesStoreSupplier persistentKeyValueStore(String name, Options options) {
    return new Supplier(name, DslStoreFormat.PLAIN, options);
  }

  /**
   * A timestamped key-value bytes store on pinget, for {@code
   * Stores.timestampedKeyValueStoreBuilder} (the DSL's tables and aggregations).
   *
   * @param name not null
   * @return a supplier
   */
  public static KeyValueBytesStoreSupplier persistentTimestampedKeyValueStore(String name) {
    return new Supplier(name, DslStoreFormat.TIMESTAMPED, kafkaOptions());
  }

  /**
   * A timestamped key-value bytes store with headers on pinget, for {@code
   * Stores.timestampedKeyValueStoreWithHeadersBuilder}.
   *
   * @param name not null
   * @return a supplier
   */
  public static KeyValueBytesStoreSupplier persistentTimestampedKeyValueStoreWithHeaders(
      String name) {
    return new Supplier(name, DslStoreFormat.HEADERS, kafkaOptions());
  }

  /**
   * A typed store for the Processor API whose values are decoded by the value serde's deserializer
   * reading pinned memory (its ByteBuffer form).
   *
   * @param name not null
   * @param keySerde null: the application's default key serde
   * @param valueSerde null: the application's default value serde
   * @param <K> keys
   * @param <V> values
   * @return a builder (logging on, caching off)
   */
  public static <K, V> PingetKeyValueStoreBuilder<K, V> keyValueStoreBuilder(
      String name, Serde<K> keySerde, Serde<V> valueSerde) {
    return new PingetKeyValueStoreBuilder<>(name, keySerde, valueSerde, null);
  }

  /**
   * A typed store for the Processor API whose values are decoded by decoder, from pinned memory
   * (valueSerde serializes what is put).
   *
   * @param name not null
   * @param keySerde null: the application's default key serde
   * @param valueSerde null: the application's default value serde
   * @param decoder not null: reads what valueSerde wrote
   * @param <K> keys
   * @param <V> values
   * @return a builder (logging on, caching off)
   */
  public static <K, V> PingetKeyValueStoreBuilder<K, V> keyValueStoreBuilder(
      String name, Serde<K> keySerde, Serde<V> valueSerde, ValueDecoder<V> decoder) {
    return new PingetKeyValueStoreBuilder<>(
        name, keySerde, valueSerde, Objects.requireNonNull(decoder, "decoder"));
  }

  /** A supplier of exactly this store, for a builder that wraps it in Kafka's layers. */
  static KeyValueBytesStoreSupplier supplierOf(PingetBytesStore store) {
    return new KeyValueBytesStoreSupplier() {
      @Override
      public String name() {
        return store.name();
      }

      @Override
      public KeyValueStore<Bytes, byte[]> get() {
        return store;
      }

      @Override
      public String metricsScope() {
        return Supplier.METRICS_SCOPE;
      }
    };
  }

  /** The bytes-store supplier of one format: a new store per call of get(), one per task. */
  static final class Supplier implements KeyValueBytesStoreSupplier {
    static final String METRICS_SCOPE = "pinget";

    private final String name;
    private final DslStoreFormat format;
    private final Options options;

    Supplier(String name, DslStoreFormat format, Options options) {
      this.name = Objects.requireNonNull(name, "name cannot be null");
      this.format = format;
      this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
      switch (format) {
        case TIMESTAMPED:
          return new PingetBytesStore.Timestamped(name, options);
        case HEADERS:
          return new PingetBytesStore.WithHeaders(name, options);
        default:
          return new PingetBytesStore(name, options);
      }
    }

    @Override
    public String metricsScope() {
      return METRICS_SCOPE;
    }
  }
}
