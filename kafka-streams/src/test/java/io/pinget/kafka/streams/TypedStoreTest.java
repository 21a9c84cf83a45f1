// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinget.Store;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/** The typed store's own behaviour: decoders, misuse, files, and the two engines side by side. */
class TypedStoreTest {
  private static TopologyTestDriver driver(Properties config) {
    return new TopologyTestDriver(
        Topologies.withStores(
            PingetStores.keyValueStoreBuilder("counts", Serdes.String(), Serdes.Long()),
            Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore("kafka-counts"), Serdes.String(), Serdes.Long())),
        config);
  }

  private static PingetKeyValueStore<String, Long> counts(TopologyTestDriver d) {
    return PingetKeyValueStore.of(d.getAllStateStores().get("counts"));
  }

  @Test
  void getDecodesFromPinnedMemoryWithTheValueSerdesDeserializer() {
    try (TopologyTestDriver d = driver(Topologies.config("typed"))) {
      PingetKeyValueStore<String, Long> s = counts(d);
      s.put("a", 1L);
      s.put("", 2L);
      s.put("ünï", Long.MIN_VALUE);
      assertEquals(1L, s.get("a"));
      assertEquals(2L, s.get(""));
      assertEquals(Long.MIN_VALUE, s.get("ünï"));
      assertNull(s.get("missing"));
      // Another decoder over the same pinned value: its low 4 bytes.
      assertEquals(1, s.get("a", (ByteBuffer v) -> v.getInt(4)));
      List<KeyValue<String, Long>> all = new ArrayList<>();
      try (KeyValueIterator<String, Long> it = s.all()) {
        it.forEachRemaining(all::add);
      }
      assertEquals(
          List.of(
              KeyValue.pair("", 2L), KeyValue.pair("a", 1L), KeyValue.pair("ünï", Long.MIN_VALUE)),
          all);
      try (KeyValueIterator<String, Long> it = s.prefixScan("ü", Serdes.String().serializer())) {
        assertEquals(KeyValue.pair("ünï", Long.MIN_VALUE), it.next());
        assertFalse(it.hasNext());
      }
      assertEquals(2L, s.delete(""));
      assertEquals(1L, s.putIfAbsent("a", 5L));
      assertEquals(1L, s.get("a"));
      assertThrows(NullPointerException.class, () -> s.get(null));
    }
  }

  @Test
  void aDecoderThatThrowsPassesItsExceptionAndLeavesTheStoreUsable() {
    try (TopologyTestDriver d = driver(Topologies.config("throws"))) {
      PingetKeyValueStore<String, Long> s = counts(d);
      s.put("a", 1L);
      IllegalStateException thrown = new IllegalStateException("decoder failed");
      assertSame(
          thrown,
          assertThrows(
              IllegalStateException.class,
              () ->
                  s.get(
                      "a",
                      v -> {
                        throw thrown;
                      })));
      assertEquals(1L, s.get("a"));
    }
  }

  @Test
  void aClosedStoreAndAClosedIteratorThrowInvalidStateStoreException() {
    TopologyTestDriver d = driver(Topologies.config("closed"));
    PingetKeyValueStore<String, Long> s = counts(d);
    s.put("a", 1L);
    s.put("b", 2L);
    KeyValueIterator<String, Long> closedByCaller = s.all();
    closedByCaller.close();
    assertThrows(InvalidStateStoreException.class, closedByCaller::hasNext);
    KeyValueIterator<String, Long> leftOpen = s.all();
    assertEquals("a", leftOpen.next().key);
    d.close();
    assertFalse(s.isOpen());
    assertThrows(InvalidStateStoreException.class, () -> s.get("a"));
    assertThrows(InvalidStateStoreException.class, s::all);
    // The store's close closed the iterator left open: it throws, as Kafka's do.
    assertThrows(InvalidStateStoreException.class, leftOpen::hasNext);
    leftOpen.close(); // idempotent
  }

  @Test
  void cachingIsRefusedWithAReason() {
    UnsupportedOperationException e =
        assertThrows(
            UnsupportedOperationException.class,
            () ->
                PingetStores.keyValueStoreBuilder("s", Serdes.String(), Serdes.Long())
                    .withCachingEnabled());
    assertTrue(e.getMessage().contains("caching off"), e.getMessage());
  }

  @Test
  void theStoreLivesInTheTasksStateDirectory() throws Exception {
    Properties config = Topologies.config("files");
    Path task = Path.of(config.getProperty(StreamsConfig.STATE_DIR_CONFIG), "files", "0_0");
    try (TopologyTestDriver d = driver(config)) {
      counts(d).put("kept", 7L);
      Path db = task.resolve(PingetBytesStore.DIR).resolve("counts");
      assertTrue(Files.isRegularFile(db.resolve("CURRENT")), db + " holds a RocksDB database");
      assertTrue(Files.isDirectory(task.resolve("rocksdb").resolve("kafka-counts")));
    }
  }

  @Test
  void twoEnginesInOneJvmKeepTheirOwnData() throws Exception {
    try (TopologyTestDriver d = driver(Topologies.config("engines"))) {
      PingetKeyValueStore<String, Long> pinget = counts(d);
      KeyValueStore<String, Long> kafka = d.getKeyValueStore("kafka-counts");
      pinget.put("k", 1L);
      kafka.put("k", 2L);
      assertEquals(1L, pinget.get("k"));
      assertEquals(2L, kafka.get("k"));
      // pinget's engine is its own RocksDB 11.8.1, inside libpinget_jni; Kafka's is rocksdbjni's
      // library, loaded beside it (10.1.3 with Kafka 4.4).
      assertEquals("11.8.1", Store.rocksdbVersion());
      assertTrue(org.rocksdb.RocksDB.rocksdbVersion().getMajor() > 0);
    }
  }

  @Test
  void theTypedStoreServesTheProcessorThatOwnsIt() {
    Topology t = new Topology();
    t.addSource("in", Serdes.String().deserializer(), Serdes.String().deserializer(), "words");
    t.addProcessor(
        "count",
        () ->
            new org.apache.kafka.streams.processor.api.Processor<String, String, String, Long>() {
              private PingetKeyValueStore<String, Long> store;
              private org.apache.kafka.streams.processor.api.ProcessorContext<String, Long> context;

              @Override
              public void init(
                  org.apache.kafka.streams.processor.api.ProcessorContext<String, Long> c) {
                context = c;
                store = PingetKeyValueStore.of(c.getStateStore("counts"));
              }

              @Override
              public void process(org.apache.kafka.streams.processor.api.Record<String, String> r) {
                Long n = store.get(r.value());
                // The decoder-taking read, through the same unwrapped store.
                if (n != null && store.get(r.value(), v -> v.getLong(0)) != (long) n) {
                  throw new AssertionError("two decoders disagree");
                }
                long next = n == null ? 1 : n + 1;
                store.put(r.value(), next);
                context.forward(r.withKey(r.value()).withValue(next));
              }
            },
        "in");
    t.addStateStore(
        PingetStores.keyValueStoreBuilder("counts", Serdes.String(), Serdes.Long()), "count");
    t.addSink("out", "counted", Serdes.String().serializer(), Serdes.Long().serializer(), "count");
    try (TopologyTestDriver d = new TopologyTestDriver(t, Topologies.config("words"))) {
      var in =
          d.createInputTopic("words", Serdes.String().serializer(), Serdes.String().serializer());
      var out =
          d.createOutputTopic(
              "counted", Serdes.String().deserializer(), Serdes.Long().deserializer());
      for (String w : "a b a c a b".split(" ")) {
        in.pipeInput(null, w);
      }
      assertEquals(
          List.of(
              KeyValue.pair("a", 1L),
              KeyValue.pair("b", 1L),
              KeyValue.pair("a", 2L),
              KeyValue.pair("c", 1L),
              KeyValue.pair("a", 3L),
              KeyValue.pair("b", 2L)),
          out.readKeyValuesToList());
      // Change-logging is Kafka's: every write went to the store's changelog topic.
      var changelog =
          d.createOutputTopic(
              "words-counts-changelog",
              Serdes.String().deserializer(),
              Serdes.Long().deserializer());
      assertEquals(6, changelog.readKeyValuesToList().size());
    }
  }
}
