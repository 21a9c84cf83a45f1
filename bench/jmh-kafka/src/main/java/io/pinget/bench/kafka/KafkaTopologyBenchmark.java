// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.kafka;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
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
 * One topology end to end in a TopologyTestDriver: each record in makes {@link #GETS} state-store
 * gets of 1 KiB values (keys picked from the record), each value decoded whole (the checksum of
 * {@link KafkaStoreBenchmark}), on each of its three stores. Throughput is records per second; the
 * driver's own cost per record is the same on every side.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class KafkaTopologyBenchmark {
  static final int GETS = 8;
  static final int KEYS = 1000;

  @Param({"kafka", "pinget_bytes", "pinget_typed"})
  public String store;

  @Param("1024")
  public int valueSize;

  private Path dir;
  private TopologyTestDriver driver;
  private TestInputTopic<Long, Long> in;
  private long n;

  /** Reads GETS values per record and forwards nothing. */
  static final class Reader implements Processor<Long, Long, Void, Void> {
    private final boolean typed;
    private KeyValueStore<String, byte[]> kv;
    private io.pinget.kafka.streams.PingetKeyValueStore<String, byte[]> pinget;
    long sink;

    Reader(boolean typed) {
      this.typed = typed;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
      kv = context.getStateStore(KafkaStoreBenchmark.NAME);
      if (typed) {
        pinget = io.pinget.kafka.streams.PingetKeyValueStore.of(kv);
      }
    }

    @Override
    public void process(Record<Long, Long> record) {
      long x = record.value();
      for (int i = 0; i < GETS; i++) {
        String k = KafkaStoreBenchmark.key((int) ((x + 131L * i) % KEYS));
        sink +=
            typed
                ? pinget.get(k, KafkaStoreBenchmark.CHECKSUM)
                : KafkaStoreBenchmark.checksum(kv.get(k));
      }
    }
  }

  @Setup(Level.Trial)
  @SuppressWarnings({"unchecked", "deprecation"})
  public void setUp() throws Exception {
    dir = Files.createTempDirectory("pinget-kafka-topology");
    boolean typed = store.equals("pinget_typed");
    Topology t = new Topology();
    t.addSource("in", Serdes.Long().deserializer(), Serdes.Long().deserializer(), "in");
    t.addProcessor("read", () -> new Reader(typed), "in");
    t.addStateStore(KafkaStoreBenchmark.builder(store), "read");
    driver = KafkaStoreBenchmark.driver(t, dir);
    KeyValueStore<String, byte[]> kv =
        (KeyValueStore<String, byte[]>) driver.getAllStateStores().get(KafkaStoreBenchmark.NAME);
    Random r = new Random(42);
    for (int i = 0; i < KEYS; i++) {
      byte[] v = new byte[valueSize];
      r.nextBytes(v);
      kv.put(KafkaStoreBenchmark.key(i), v);
    }
    kv.flush();
    in = driver.createInputTopic("in", Serdes.Long().serializer(), Serdes.Long().serializer());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    driver.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Benchmark
  public void record() {
    in.pipeInput(n, n++);
  }
}
