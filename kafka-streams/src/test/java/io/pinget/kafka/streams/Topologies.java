// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.StoreBuilder;

/** Topologies and drivers for the tests: each driver in a state directory of its own. */
public final class Topologies {
  private Topologies() {}

  /** A fresh folder under the test directory (target/test-stores). */
  public static Path freshDir(String name) {
    Path base =
        Paths.get(System.getProperty("pinget.test.dir", System.getProperty("java.io.tmpdir")));
    try {
      Files.createDirectories(base);
      return Files.createTempDirectory(base, name);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static Properties config(String application) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, application);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
    p.put(StreamsConfig.STATE_DIR_CONFIG, freshDir("state").toString());
    p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    return p;
  }

  /** A topology whose one processor (which does nothing) owns these stores. */
  static Topology withStores(StoreBuilder<?>... stores) {
    Topology t = new Topology();
    t.addSource("in", "in");
    t.addProcessor("owner", Owner::new, "in");
    for (StoreBuilder<?> s : stores) {
      t.addStateStore(s, "owner");
    }
    return t;
  }

  /** Owns the stores and does nothing with records. */
  static final class Owner implements Processor<Object, Object, Object, Object> {
    @Override
    public void process(Record<Object, Object> record) {}
  }

  static TopologyTestDriver driver(Topology topology) {
    return new TopologyTestDriver(topology, config("pinget-test"));
  }
}
