// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.PinnedView;
import java.nio.charset.StandardCharsets;
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
import org.openjdk.jmh.annotations.Warmup;
import org.rocksdb.RocksDBException;

/**
 * What the point-lookup settings ({@link Lookup}) buy: pinget's reused pinned view and rocksdbjni's
 * {@code get}, on data sets opened with the same settings on both sides, for keys that exist and
 * for keys that do not (each missing key sorts between two present ones, so that it lands inside a
 * data block's key range and only a filter can skip that block).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LookupBenchmark {
  @Param({"1000", "100000"})
  public int keys;

  @Param({"128", "4096"})
  public int valueSize;

  @Param({"default", "point_lookup"})
  public String lookup;

  private DataSet data;
  private byte[][] missing;
  private PinnedView view;
  private int pos;

  @Setup(Level.Trial)
  public void setUp() {
    data = new DataSet(keys, valueSize, DataSet.BLOCK_CACHE, Lookup.of(lookup));
    missing = new byte[data.keys.length][];
    for (int i = 0; i < missing.length; i++) {
      missing[i] =
          (new String(data.keys[i], StandardCharsets.US_ASCII) + "-")
              .getBytes(StandardCharsets.US_ASCII);
    }
    view = data.store.newPinnedView();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    view.close();
    data.close();
  }

  private int next() {
    int k = data.order[pos];
    if (++pos == data.order.length) {
      pos = 0;
    }
    return k;
  }

  @Benchmark
  public Object pinnedView() {
    return view.get(data.keys[next()]);
  }

  @Benchmark
  public byte[] rocksdbjniGet() throws RocksDBException {
    return data.rocks.get(data.keys[next()]);
  }

  /** Returns null: the key does not exist. */
  @Benchmark
  public Object pinnedViewMiss() {
    return view.get(missing[next()]);
  }

  /** Returns null: the key does not exist. */
  @Benchmark
  public byte[] rocksdbjniGetMiss() throws RocksDBException {
    return data.rocks.get(missing[next()]);
  }
}
