// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinget.kafka.streams.DecodedKeyQuery;
import io.pinget.kafka.streams.Topologies;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * pinget's typed store in real Kafka Streams applications, against a single-node KRaft broker that
 * the test starts on 127.0.0.1 (and stops): exactly-once processing with an instance killed
 * mid-stream, interactive queries, and the same output as Kafka's own store. Every wait is bounded.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class ClusterTest {
  private static final int KEYS = 100;
  private static final int RECORDS = 6000;

  private static Path dir;
  private static Broker broker;
  private static Admin admin;

  @BeforeAll
  static void startBroker() throws Exception {
    dir = Topologies.freshDir("cluster");
    broker = Broker.start(dir);
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
    admin = Admin.create(p);
  }

  @AfterAll
  static void stopBroker() throws Exception {
    if (admin != null) {
      admin.close();
    }
    if (broker != null) {
      broker.close();
    }
  }

  private static void topics(String in, String... outs) throws Exception {
    List<NewTopic> topics = new ArrayList<>(List.of(new NewTopic(in, 4, (short) 1)));
    for (String out : outs) {
      topics.add(new NewTopic(out, 1, (short) 1));
    }
    admin.createTopics(topics).all().get(60, TimeUnit.SECONDS);
  }

  private static String key(int i) {
    return "k" + (i * 7 % KEYS);
  }

  /** Sends records from..to-1 of the input; pauses between chunks so the stream runs beside it. */
  private static void produce(String topic, int from, int to, long pauseMs) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(p, Serdes.String().serializer(), Serdes.String().serializer())) {
      for (int i = from; i < to; i++) {
        producer.send(new ProducerRecord<>(topic, key(i), "v" + i));
        if (i % 100 == 99) {
          producer.flush();
          Thread.sleep(pauseMs);
        }
      }
      producer.flush();
    }
  }

  /** Every count written to out and committed, per key in order (total of them if all is well). */
  private static Map<String, List<Long>> committedCounts(String out, int total) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    Map<String, List<Long>> counts = new HashMap<>();
    try (KafkaConsumer<String, Long> c =
        new KafkaConsumer<>(p, Serdes.String().deserializer(), Serdes.Long().deserializer())) {
      TopicPartition tp = new TopicPartition(out, 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      int read = 0;
      long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      long extra = Long.MAX_VALUE; // once total have come, 2 s more for any doubled ones
      while (System.nanoTime() < Math.min(deadline, extra)) {
        if (read >= total && extra == Long.MAX_VALUE) {
          extra = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        }
        for (ConsumerRecord<String, Long> r : c.poll(Duration.ofMillis(500))) {
          counts.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
          read++;
        }
      }
    }
    return counts;
  }

  /**
   * Each key's counts must be 1, 2, ..., n exactly for the first total records: none lost or
   * doubled.
   */
  private static void assertExactlyOnce(Map<String, List<Long>> counts, int total, String what) {
    Map<String, Integer> sent = new HashMap<>();
    for (int i = 0; i < total; i++) {
      sent.merge(key(i), 1, Integer::sum);
    }
    assertEquals(sent.keySet(), counts.keySet(), what + ": keys");
    for (Map.Entry<String, Integer> e : sent.entrySet()) {
      List<Long> want = new ArrayList<>();
      for (long n = 1; n <= e.getValue(); n++) {
        want.add(n);
      }
      assertEquals(want, counts.get(e.getKey()), what + ": counts of " + e.getKey());
    }
  }

  private static Process app(String name, String state, String store, String in, String out)
      throws Exception {
    Path log = dir.resolve(name + ".log");
    return Jvm.start(
        log,
        List.of("-Xmx256m", "-XX:+UseSerialGC", "-Xcheck:jni"),
        CountingApp.class.getName(),
        broker.bootstrap(),
        "counting",
        dir.resolve("state-" + state).toString(),
        store,
        in,
        out);
  }

  private static void awaitLog(String name, String line) throws Exception {
    Path log = dir.resolve(name + ".log");
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (!(Files.exists(log) && Files.readString(log).contains(line))) {
      assertTrue(System.nanoTime() < deadline, name + " never printed '" + line + "'");
      Thread.sleep(100);
    }
  }

  @Test
  void anInstanceKilledMidStreamLosesAndDoublesNothing() throws Exception {
    topics("words", "counted");
    Process a = app("a", "a", "pinget", "words", "counted");
    Process b = app("b", "b", "pinget", "words", "counted");
    try {
      awaitLog("a", "state RUNNING");
      awaitLog("b", "state RUNNING");
      produce("words", 0, RECORDS / 3, 20);
      awaitLog("a", "processing");
      awaitLog("b", "processing");
      // Every count of the first third committed: a's stores have changelog records to restore
      // (killed before its first commit, a would leave b nothing to restore, which proves nothing).
      assertExactlyOnce(
          committedCounts("counted", RECORDS / 3), RECORDS / 3, "before a was killed");
      // Killed with work in flight: its open transaction is aborted, b takes its tasks over and
      // restores their pinget stores from the changelog.
      produce("words", RECORDS / 3, RECORDS / 2, 20);
      a.destroyForcibly().waitFor();
      produce("words", RECORDS / 2, RECORDS, 20);
      assertExactlyOnce(committedCounts("counted", RECORDS), RECORDS, "after a was killed");
      assertTrue(b.isAlive(), "b survived");
      String bLog = Files.readString(dir.resolve("b.log"));
      assertTrue(bLog.contains("state REBALANCING"), "b rebalanced");
      // b restored a's tasks' pinget stores from their changelogs, records and all.
      assertTrue(
          java.util.regex.Pattern.compile("restored [1-9][0-9]* records of counts")
              .matcher(bLog)
              .find(),
          bLog);
    } finally {
      a.destroyForcibly();
      b.destroy();
      if (!b.waitFor(60, TimeUnit.SECONDS)) {
        b.destroyForcibly();
      }
    }
    for (String name : List.of("a", "b")) {
      String log = Files.readString(dir.resolve(name + ".log"));
      assertFalse(
          log.matches("(?s).*(WARNING in native method|FATAL ERROR in native method).*"), log);
    }
    assertTrue(
        Files.isDirectory(
            dir.resolve("state-b").resolve("counting").resolve("0_0").resolve("pinget")),
        "b's pinget stores live in its tasks' state directories");

    // b, closed cleanly, starts again on its state directory: it resumes from its checkpointed
    // offsets (restoring little or nothing, not the whole changelog) and counts on exactly.
    int more = RECORDS + RECORDS / 10;
    Process again = app("b-again", "b", "pinget", "words", "counted");
    try {
      awaitLog("b-again", "state RUNNING");
      produce("words", RECORDS, more, 20);
      assertExactlyOnce(committedCounts("counted", more), more, "after b restarted");
    } finally {
      again.destroy();
      if (!again.waitFor(60, TimeUnit.SECONDS)) {
        again.destroyForcibly();
      }
    }
    java.util.regex.Matcher restored =
        java.util.regex.Pattern.compile("restored ([0-9]+) records of counts")
            .matcher(Files.readString(dir.resolve("b-again.log")));
    long total = 0;
    int stores = 0;
    while (restored.find()) {
      total += Long.parseLong(restored.group(1));
      stores++;
    }
    // A wiped store would restore all RECORDS of the changelog (as b did for a's tasks).
    assertTrue(
        total < RECORDS / 10,
        "b-again restored " + total + " records into " + stores + " stores: not a resume");
  }

  @Test
  void kafkasStoreGivesTheSameOutputAndQueriesReadPingetsStore() throws Exception {
    topics("letters", "counted-pinget", "counted-kafka");
    produce("letters", 0, RECORDS, 0);
    try (KafkaStreams pinget = inProcess("pinget", "letters", "counted-pinget");
        KafkaStreams kafka = inProcess("kafka", "letters", "counted-kafka")) {
      Map<String, List<Long>> got = committedCounts("counted-pinget", RECORDS);
      assertExactlyOnce(got, RECORDS, "pinget");
      assertEquals(got, committedCounts("counted-kafka", RECORDS), "pinget's output is Kafka's");
      assertEquals(KafkaStreams.State.RUNNING, kafka.state());
      // Interactive queries, from this thread (not the stream thread's).
      ReadOnlyKeyValueStore<String, Long> counts =
          pinget.store(
              StoreQueryParameters.fromNameAndType(
                  CountingApp.STORE, QueryableStoreTypes.keyValueStore()));
      int entries = 0;
      try (var it = counts.all()) {
        while (it.hasNext()) {
          var kv = it.next();
          assertEquals(got.get(kv.key).size(), kv.value, kv.key);
          entries++;
        }
      }
      assertEquals(KEYS, entries);
      assertEquals(got.get("k7").size(), counts.get("k7"));
      // IQv2 with a decoder: the count decoded from pinned memory in the partition that has it.
      StateQueryResult<Long> decoded =
          pinget.query(
              StateQueryRequest.inStore(CountingApp.STORE)
                  .withQuery(
                      DecodedKeyQuery.withKey(
                          "k7", Serdes.String().serializer(), v -> v.getLong(0))));
      List<Long> found = new ArrayList<>();
      for (QueryResult<Long> r : decoded.getPartitionResults().values()) {
        assertTrue(r.isSuccess(), r.toString());
        if (r.getResult() != null) {
          found.add(r.getResult());
        }
      }
      assertEquals(List.of((long) got.get("k7").size()), found);
    }
  }

  private static KafkaStreams inProcess(String store, String in, String out) throws Exception {
    KafkaStreams s =
        new KafkaStreams(
            CountingApp.topology(store, in, out),
            CountingApp.config(
                broker.bootstrap(), "queries-" + store, dir.resolve("iq-" + store).toString()));
    s.start();
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (s.state() != KafkaStreams.State.RUNNING) {
      assertTrue(System.nanoTime() < deadline, store + " never ran: " + s.state());
      Thread.sleep(100);
    }
    return s;
  }
}
