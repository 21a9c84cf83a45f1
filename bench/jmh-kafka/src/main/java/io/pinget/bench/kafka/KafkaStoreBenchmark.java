// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.kafka;

import io.pinget.ValueDecoder;
import io.pinget.kafka.streams.PingetStores;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a Kafka Streams application calls, on three stores holding the same data in one JVM: {@code
 * kafka} (Stores.persistentKeyValueStore: rocksdbjni 10.1.3), {@code pinget_bytes}
 * (PingetStores.persistentKeyValueStore under the same Kafka builder) and {@code pinget_typed}
 * (PingetStores.keyValueStoreBuilder). Each store is built with caching off and logging on, as
 * Kafka's Processor-API builders make them, and opened by a TopologyTestDriver (no broker). Every
 * read decodes the value ({@link #decode}: all of it, a checksum of its 8-byte words, or its first
 * field), the byte[] paths from the array that Kafka's deserializer returns, the typed store's
 * decoder from the pinned bytes. Store options: Kafka's defaults on Kafka's side, {@link
 * PingetStores#kafkaOptions()} on pinget's.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class KafkaStoreBenchmark {
  static final String NAME = "s";

  @Param({"kafka", "pinget_bytes", "pinget_typed"})
  public String store;

  @Param({"16", "256", "4096", "65536"})
  public int valueSize;

  @Param("1000")
  public int keys;

  /**
   * What a read decodes: {@code whole}, every byte of the value (a full deserialization), or {@code
   * field}, its first 8 bytes (a projection: one field of a record, a counter).
   */
  @Param({"whole", "field"})
  public String decode;

  /** Entries per range read. */
  @Param("10")
  public int rangeLength;

  private Path dir;
  private TopologyTestDriver driver;
  private KeyValueStore<String, byte[]> kv;
  private io.pinget.kafka.streams.PingetKeyValueStore<String, byte[]> typed;
  private String[] present;
  private String[] absent;
  private int pos;

  /** The checksum that every read computes over the whole value: the "decode". */
  static long checksum(ByteBuffer v) {
    ByteBuffer b =
        v.order() == ByteOrder.LITTLE_ENDIAN ? v : v.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    long h = 0;
    int i = b.position();
    int end = b.limit();
    for (; i + 8 <= end; i += 8) {
      h = h * 31 + b.getLong(i);
    }
    for (; i < end; i++) {
      h = h * 31 + b.get(i);
    }
    return h;
  }

  static final ValueDecoder<Long> CHECKSUM = KafkaStoreBenchmark::checksum;

  /** The field decode: the value's first 8 bytes (0 for a shorter value). */
  static long field(ByteBuffer v) {
    return v.remaining() < Long.BYTES ? 0 : v.getLong(v.position());
  }

  static final ValueDecoder<Long> FIELD = KafkaStoreBenchmark::field;

  private ValueDecoder<Long> decoder;

  static long checksum(byte[] v) {
    return v == null ? 0 : checksum(ByteBuffer.wrap(v));
  }

  static StoreBuilder<?> builder(String store) {
    switch (store) {
      case "kafka":
        return Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(NAME), Serdes.String(), Serdes.ByteArray());
      case "pinget_bytes":
        return Stores.keyValueStoreBuilder(
            PingetStores.persistentKeyValueStore(NAME), Serdes.String(), Serdes.ByteArray());
      case "pinget_typed":
        return PingetStores.keyValueStoreBuilder(NAME, Serdes.String(), Serdes.ByteArray());
      default:
        throw new IllegalArgumentException("unknown store " + store);
    }
  }

  static TopologyTestDriver driver(Topology topology, Path dir) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
    p.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
    p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
    p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
    return new TopologyTestDriver(topology, p);
  }

  /** Owns the store and does nothing with records. */
  static final class Owner
      implements org.apache.kafka.streams.processor.api.Processor<Object, Object, Void, Void> {
    @Override
    public void process(org.apache.kafka.streams.processor.api.Record<Object, Object> record) {}
  }

  static String key(int i) {
    return String.format("key%012d", i);
  }

  @Setup(Level.Trial)
  @SuppressWarnings({"unchecked", "deprecation"}) // flush(): Kafka 4.4 prefers commit(offsets)
  public void setUp() throws Exception {
    if (rangeLength < 1 || 2 * rangeLength > keys) {
      throw new IllegalArgumentException("rangeLength " + rangeLength + " needs 2x as many keys");
    }
    dir = Files.createTempDirectory("pinget-kafka-bench");
    Topology t = new Topology();
    t.addSource("in", "in");
    t.addProcessor("owner", Owner::new, "in");
    t.addStateStore(builder(store), "owner");
    driver = driver(t, dir);
    kv = (KeyValueStore<String, byte[]>) driver.getAllStateStores().get(NAME);
    if (store.equals("pinget_typed")) {
      typed = (io.pinget.kafka.streams.PingetKeyValueStore<String, byte[]>) kv;
    }
    decoder = decode.equals("field") ? FIELD : CHECKSUM;
    Random r = new Random(42);
    present = new String[keys];
    absent = new String[keys];
    for (int i = 0; i < keys; i++) {
      byte[] v = new byte[valueSize];
      r.nextBytes(v);
      present[i] = key(2 * i);
      absent[i] = key(2 * i + 1);
      kv.put(present[i], v);
    }
    kv.flush();
    // Random visiting order; reads warm the block cache during JMH's warmup.
    for (int i = keys - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      String s = present[i];
      present[i] = present[j];
      present[j] = s;
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    driver.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private String next(String[] from) {
    String k = from[pos];
    pos = pos + 1 == from.length ? 0 : pos + 1;
    return k;
  }

  /** A get of a present key, and the decode of its value (whole or one field). */
  @Benchmark
  public long get() {
    String k = next(present);
    if (typed != null) {
      return typed.get(k, decoder);
    }
    byte[] v = kv.get(k);
    return decoder.decode(ByteBuffer.wrap(v));
  }

  /** A get of an absent key. */
  @Benchmark
  public long getMissing() {
    String k = next(absent);
    return typed != null ? (typed.get(k, CHECKSUM) == null ? 0 : 1) : checksum(kv.get(k));
  }

  /** range(from, to) over rangeLength present keys, every entry's value decoded. */
  @Benchmark
  public long range() {
    int first = pos;
    pos = (pos + rangeLength) % (keys - rangeLength);
    long h = 0;
    String from = key(2 * first);
    String to = key(2 * (first + rangeLength - 1));
    if (typed != null) {
      try (KeyValueIterator<String, Long> it = typed.range(from, to, decoder)) {
        while (it.hasNext()) {
          KeyValue<String, Long> e = it.next();
          h += e.key.length() + e.value;
        }
      }
      return h;
    }
    try (KeyValueIterator<String, byte[]> it = kv.range(from, to)) {
      while (it.hasNext()) {
        KeyValue<String, byte[]> e = it.next();
        h += e.key.length() + decoder.decode(ByteBuffer.wrap(e.value));
      }
    }
    return h;
  }
}
