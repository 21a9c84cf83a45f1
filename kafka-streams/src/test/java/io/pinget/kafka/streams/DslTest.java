// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.junit.jupiter.api.Test;

/**
 * A DSL application switched to pinget by dsl.store.suppliers.class alone gives the output it gives
 * on Kafka's stores: a count (a timestamped store under Kafka's record cache), a table, and a
 * stream-table join reading it.
 */
class DslTest {
  private static final String APP = "dsl";

  private static org.apache.kafka.streams.Topology topology() {
    StreamsBuilder b = new StreamsBuilder();
    KTable<String, Long> counts =
        b.<String, String>stream("words")
            .groupBy((k, v) -> v)
            .count(Materialized.as("word-counts"));
    counts.toStream().to("counts", Produced.with(Serdes.String(), Serdes.Long()));
    KTable<String, String> names = b.table("names", Materialized.as("names"));
    b.<String, String>stream("lookups").join(names, (id, name) -> id + "=" + name).to("joined");
    return b.build();
  }

  private static List<List<KeyValue<String, Object>>> run(Properties config) {
    long seed = 42;
    Random r = new Random(seed);
    try (TopologyTestDriver d = new TopologyTestDriver(topology(), config)) {
      var words =
          d.createInputTopic("words", Serdes.String().serializer(), Serdes.String().serializer());
      var names =
          d.createInputTopic("names", Serdes.String().serializer(), Serdes.String().serializer());
      var lookups =
          d.createInputTopic("lookups", Serdes.String().serializer(), Serdes.String().serializer());
      for (int i = 0; i < 2000; i++) {
        String w = "w" + r.nextInt(50);
        switch (r.nextInt(3)) {
          case 0:
            words.pipeInput(null, w);
            break;
          case 1:
            names.pipeInput(w, r.nextInt(8) == 0 ? null : "name" + r.nextInt(1000));
            break;
          default:
            lookups.pipeInput(w, w);
        }
        if (i % 500 == 0) {
          d.advanceWallClockTime(java.time.Duration.ofSeconds(40)); // a commit: the cache flushes
        }
      }
      // Where the DSL's stores live (the driver wipes its state directory when it closes).
      Path app = Path.of(config.getProperty(StreamsConfig.STATE_DIR_CONFIG), APP);
      String engine =
          config.containsKey(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG)
              ? PingetBytesStore.DIR
              : "rocksdb";
      for (String name : List.of("word-counts", "names")) {
        assertTrue(exists(app, engine + "/" + name), app + ": " + engine + "/" + name);
        assertFalse(
            exists(
                app, (engine.equals("rocksdb") ? PingetBytesStore.DIR : "rocksdb") + "/" + name));
      }
      KeyValueStore<String, ValueAndTimestamp<Long>> store =
          d.getTimestampedKeyValueStore("word-counts");
      long total = 0;
      try (var it = store.all()) {
        while (it.hasNext()) {
          total += it.next().value.value();
        }
      }
      return List.of(
          output(d, "counts", Serdes.Long().deserializer()),
          output(d, "joined", Serdes.String().deserializer()),
          List.of(KeyValue.pair("total", total)));
    }
  }

  private static <V> List<KeyValue<String, Object>> output(
      TopologyTestDriver d, String topic, Deserializer<V> values) {
    return d
        .createOutputTopic(topic, Serdes.String().deserializer(), values)
        .readKeyValuesToList()
        .stream()
        .map(kv -> KeyValue.<String, Object>pair(kv.key, kv.value))
        .toList();
  }

  @Test
  void oneConfigLineMovesTheDslsStoresToPingetAndChangesNoOutput() {
    Properties kafka = Topologies.config(APP);
    Properties pinget = Topologies.config(APP);
    pinget.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, PingetDslStoreSuppliers.class);
    List<List<KeyValue<String, Object>>> want = run(kafka);
    List<List<KeyValue<String, Object>>> got = run(pinget);
    assertFalse(want.get(0).isEmpty());
    assertFalse(want.get(1).isEmpty());
    assertEquals(want, got);
  }

  @Test
  void aDecodedKeyQueryReadsTheDslsPingetStoreThroughKafkasLayers() {
    Properties config = Topologies.config(APP);
    config.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, PingetDslStoreSuppliers.class);
    try (TopologyTestDriver d = new TopologyTestDriver(topology(), config)) {
      var words =
          d.createInputTopic("words", Serdes.String().serializer(), Serdes.String().serializer());
      for (String w : "a b a c a".split(" ")) {
        words.pipeInput(null, w);
      }
      d.advanceWallClockTime(java.time.Duration.ofMinutes(1)); // a commit: the cache flushes
      StateStore store = d.getAllStateStores().get("word-counts");
      QueryResult<Long> a =
          store.query(
              DecodedKeyQuery.timestamped(
                  Bytes.wrap("a".getBytes(StandardCharsets.UTF_8)), v -> v.getLong(0)),
              PositionBound.unbounded(),
              new QueryConfig(false));
      assertTrue(a.isSuccess(), a.toString());
      assertEquals(3L, a.getResult());
      QueryResult<Long> missing =
          store.query(
              DecodedKeyQuery.withKey("z", Serdes.String().serializer(), v -> v.getLong(0)),
              PositionBound.unbounded(),
              new QueryConfig(false));
      assertTrue(missing.isSuccess(), missing.toString());
      assertNull(missing.getResult());
      // Kafka's own IQv2 key query, answered by the pinget store through Kafka's layers.
      QueryResult<Long> kafkas =
          store.query(KeyQuery.withKey("c"), PositionBound.unbounded(), new QueryConfig(false));
      assertTrue(kafkas.isSuccess(), kafkas.toString());
      assertEquals(1L, kafkas.getResult());
    }
  }

  /** Whether some task folder of the application holds that store folder. */
  private static boolean exists(Path app, String store) {
    try (var tasks = Files.list(app)) {
      return tasks.anyMatch(t -> Files.isDirectory(t.resolve(store)));
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
