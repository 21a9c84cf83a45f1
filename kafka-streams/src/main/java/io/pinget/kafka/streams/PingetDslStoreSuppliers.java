// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams;

import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.DslSessionParams;
import org.apache.kafka.streams.state.DslStoreSuppliers;
import org.apache.kafka.streams.state.DslWindowParams;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * The DSL's stores on pinget, with one line of an application's config:
 *
 * <pre>
 *   props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, PingetDslStoreSuppliers.class);
 * </pre>
 *
 * Every key-value store the DSL makes (tables, aggregations, joins' tables; plain, timestamped or
 * with headers, as the DSL asks) is a {@link PingetBytesStore} with {@link
 * PingetStores#kafkaOptions()}, wrapped in Kafka's own metering, change-logging and caching layers.
 * Window and session stores stay Kafka's RocksDB stores: pinget has no windowed store.
 */
public class PingetDslStoreSuppliers implements DslStoreSuppliers {
  private final DslStoreSuppliers kafka = new BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers();

  @Override
  public KeyValueBytesStoreSupplier keyValueStore(DslKeyValueParams params) {
    return new PingetStores.Supplier(
        params.name(), params.dslStoreFormat(), PingetStores.kafkaOptions());
  }

  @Override
  public WindowBytesStoreSupplier windowStore(DslWindowParams params) {
    return kafka.windowStore(params);
  }

  @Override
  public SessionBytesStoreSupplier sessionStore(DslSessionParams params) {
    return kafka.sessionStore(params);
  }
}
