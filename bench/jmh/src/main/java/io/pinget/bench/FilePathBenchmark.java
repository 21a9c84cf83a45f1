// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.PinnedView;
import io.pinget.ReadOptions;
import java.nio.ByteBuffer;
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
 * What the options of the file path ({@link FilePath}) buy when values are not in the block cache
 * (the file residency): pinget's reused pinned view and its copy into a reused array (with their
 * copy counters: F and P differ by profile), and rocksdbjni's get into a new array and into a
 * direct buffer, each profile applied alike to both sides.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FilePathBenchmark {
  @Param("1000")
  public int keys;

  @Param({"4096", "65536"})
  public int valueSize;

  @Param({"default", "mmap_reads"})
  public String path;

  /** Always file: a parameter so that the report files the rows under that residency. */
  @Param(DataSet.FILE)
  public String residency;

  private DataSet data;
  private PinnedView view;
  private ReadOptions read;
  private org.rocksdb.ReadOptions rocksRead;
  private byte[] dst;
  private ByteBuffer directDst;
  private int pos;

  @Setup(Level.Trial)
  public void setUp() {
    FilePath profile = FilePath.of(path);
    data =
        new DataSet(
            keys, valueSize, residency, Lookup.DEFAULT, DataSet.DEFAULT_KEY_BYTES, profile, null);
    view = data.store.newPinnedView();
    read = profile.readOptions();
    rocksRead = profile.newRocksReadOptions();
    dst = new byte[valueSize];
    directDst = ByteBuffer.allocateDirect(valueSize);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    view.close();
    rocksRead.close();
    data.close();
  }

  private byte[] nextKey() {
    byte[] k = data.keys[data.order[pos]];
    if (++pos == data.order.length) {
      pos = 0;
    }
    return k;
  }

  @Benchmark
  public Object pinnedView(CopyCounters c) {
    byte[] k = nextKey();
    return view.get(read, k, 0, k.length);
  }

  @Benchmark
  public byte[] bufferCopy(CopyCounters c) {
    byte[] k = nextKey();
    data.store.bufferCopy(read, k, 0, k.length, dst, 0, dst.length);
    return dst;
  }

  @Benchmark
  public byte[] rocksdbjniGet() throws RocksDBException {
    return data.rocks.get(rocksRead, nextKey());
  }

  @Benchmark
  public int rocksdbjniGetDirect() throws RocksDBException {
    ByteBuffer key = data.directKeys[data.order[pos]];
    nextKey();
    key.rewind();
    directDst.clear();
    return data.rocks.get(rocksRead, key, directDst);
  }
}
