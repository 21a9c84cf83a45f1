// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.Decoders;
import io.pinget.LongDecoder;
import io.pinget.Store;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Two threads decoding 8-byte counters from one store, as the stream threads of a Kafka Streams
 * application read one state store: what a write to state that every reader of the store shares
 * costs (docs/benchmarks.md, "No atomic write on a read's path"). Each thread reads the 1,000 keys
 * in order from a starting key of its own. Not a report row: run it by name, with {@code -t} for
 * another thread count.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(2)
public class SharedStoreBenchmark {
  private static final int KEYS = 1000;
  private static final LongDecoder LONG_BE = Decoders.longBE();

  @Param({"block_cache", "memtable"})
  public String residency;

  private Path dir;
  private Store store;
  private byte[][] keys;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("pinget-shared-store");
    store = Store.open(dir);
    keys = new byte[KEYS][];
    for (int i = 0; i < KEYS; i++) {
      keys[i] = String.format("key%012d", i).getBytes(StandardCharsets.US_ASCII);
      store.put(keys[i], ByteBuffer.allocate(8).putLong(i).array());
    }
    if (residency.equals("block_cache")) {
      store.flush();
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    store.close();
    DataSet.deleteTree(dir);
  }

  /** One thread's next key. */
  @State(Scope.Thread)
  public static class Position {
    int next;

    @Setup(Level.Trial)
    public void setUp(ThreadParams thread) {
      next = thread.getThreadIndex() * 37 % KEYS;
    }
  }

  @Benchmark
  public long sharedLongDecodeOnRead(Position p) {
    byte[] key = keys[p.next];
    if (++p.next == KEYS) {
      p.next = 0;
    }
    return store.getLong(key, LONG_BE, -1);
  }
}
