// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams.cluster;

import io.pinget.kafka.streams.PingetStores;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The application of the cluster test: counts records per key in a state store ("counts") and
 * writes each new count, exactly once (exactly_once_v2). Run as a JVM of its own:
 *
 * <pre>
 *   CountingApp BOOTSTRAP APPLICATION STATE_DIR pinget|kafka IN OUT
 * </pre>
 *
 * It prints its states ("state RUNNING"), "processing" at its first record and "restored N records
 * of STORE PARTITION" as it restores a store, and runs until it is killed or asked to stop (a clean
 * close).
 */
public final class CountingApp {
  static final String STORE = "counts";

  private CountingApp() {}

  /** Counts per key: the store read (a typed get, for pinget) and written once per record. */
  static final class Counter implements Processor<String, String, String, Long> {
    private KeyValueStore<String, Long> counts;
    private ProcessorContext<String, Long> context;
    private boolean first = true;

    @Override
    public void init(ProcessorContext<String, Long> context) {
      this.context = context;
      this.counts = context.getStateStore(STORE);
    }

    @Override
    public void process(Record<String, String> record) {
      if (first) {
        first = false;
        System.out.println("processing");
      }
      Long n = counts.get(record.key());
      long next = n == null ? 1 : n + 1;
      counts.put(record.key(), next);
      context.forward(record.withValue(next));
    }
  }

  static Topology topology(String store, String in, String out) {
    StoreBuilder<? extends KeyValueStore<String, Long>> counts =
        store.equals("pinget")
            ? PingetStores.keyValueStoreBuilder(STORE, Serdes.String(), Serdes.Long())
            : Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(STORE), Serdes.String(), Serdes.Long());
    Topology t = new Topology();
    t.addSource("in", Serdes.String().deserializer(), Serdes.String().deserializer(), in);
    t.addProcessor("count", Counter::new, "in");
    t.addStateStore(counts, "count");
    t.addSink("out", out, Serdes.String().serializer(), Serdes.Long().serializer(), "count");
    return t;
  }

  static Properties config(String bootstrap, String application, String stateDir) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, application);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir);
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 200);
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
    p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 6000);
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), 1000);
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
    return p;
  }

  public static void main(String[] args) throws Exception {
    KafkaStreams streams =
        new KafkaStreams(topology(args[3], args[4], args[5]), config(args[0], args[1], args[2]));
    CountDownLatch stopped = new CountDownLatch(1);
    streams.setStateListener(
        (now, before) -> {
          System.out.println("state " + now);
          if (now == KafkaStreams.State.ERROR || now == KafkaStreams.State.NOT_RUNNING) {
            stopped.countDown();
          }
        });
    streams.setGlobalStateRestoreListener(
        new StateRestoreListener() {
          @Override
          public void onRestoreStart(TopicPartition tp, String store, long start, long end) {}

          @Override
          public void onBatchRestored(TopicPartition tp, String store, long end, long n) {}

          @Override
          public void onRestoreEnd(TopicPartition tp, String store, long restored) {
            System.out.println("restored " + restored + " records of " + store + " " + tp);
          }
        });
    Runtime.getRuntime().addShutdownHook(new Thread(() -> streams.close(Duration.ofSeconds(30))));
    streams.start();
    stopped.await();
  }
}
