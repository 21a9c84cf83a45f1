// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.ffm;

import io.pinget.Decoders;
import io.pinget.LongDecoder;
import io.pinget.ValueDecoder;
import io.pinget.bench.CopyCounters;
import io.pinget.bench.DataSet;
import io.pinget.bench.decode.AvroReads;
import io.pinget.bench.decode.Shape;
import io.pinget.bench.decode.ShapeState;
import io.pinget.ffm.FfmStore;
import io.pinget.ffm.LongSegmentDecoder;
import io.pinget.ffm.SegmentDecoder;
import io.pinget.ffm.SegmentDecoders;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.rocksdb.RocksDBException;

/**
 * Get and decode through the FFM binding, on a JDK 22+: decode on read over segments ({@code
 * FfmStore.getLong} / {@code get} with a segment decoder) beside, in the same JVM on the same
 * values, the JNI API's decode on read and rocksdbjni's get with the fastest decode of
 * DecodeBenchmark (rows {@code jdk25_...}). The shapes, keys and traps are DecodeBenchmark's.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class FfmDecodeBenchmark {
  /** One shape in a JNI Store and rocksdbjni (DataSet); the FfmStore reads the Store's. */
  abstract static class Values extends ShapeState {
    DataSet data;
    FfmStore ffm;
    AvroReads avro;
    int pos;

    @Override
    protected void open(int valueSize, int keys, String residency) {
      data = new DataSet(keys, Shape.ofSize(valueSize), residency);
      ffm = FfmStore.over(data.store);
      avro = new AvroReads();
    }

    @Override
    protected void close() {
      data.close(); // and so ffm
    }

    byte[] nextKey() {
      int k = data.order[pos];
      if (++pos == data.order.length) {
        pos = 0;
      }
      return data.keys[k];
    }
  }

  /** 8-byte big-endian counters. */
  @State(Scope.Thread)
  public static class Counters extends Values {
    @Param("8")
    public int valueSize;

    @Override
    protected int valueSize() {
      return valueSize;
    }
  }

  /** 64-byte UTF-8 names. */
  @State(Scope.Thread)
  public static class Names extends Values {
    @Param("64")
    public int valueSize;

    @Override
    protected int valueSize() {
      return valueSize;
    }
  }

  /** 1 KiB Avro events. */
  @State(Scope.Thread)
  public static class Events extends Values {
    @Param("1024")
    public int valueSize;

    ValueDecoder<GenericRecord> decoder;
    SegmentDecoder<GenericRecord> segmentDecoder;

    @Override
    protected int valueSize() {
      return valueSize;
    }

    @Override
    protected void open(int valueSize, int keys, String residency) {
      super.open(valueSize, keys, residency);
      AvroReads reads = avro;
      decoder = reads::read;
      segmentDecoder = SegmentDecoders.of(decoder);
    }
  }

  private static final LongSegmentDecoder SEGMENT_LONG_BE = SegmentDecoders.longBE();
  private static final SegmentDecoder<String> SEGMENT_UTF8 = SegmentDecoders.utf8();
  private static final LongDecoder LONG_BE = Decoders.longBE();
  private static final ValueDecoder<String> UTF8 = Decoders.utf8();

  @Benchmark
  public long ffmLongDecodeOnRead(Counters s, CopyCounters c) {
    return s.ffm.getLong(s.nextKey(), SEGMENT_LONG_BE, -1);
  }

  @Benchmark
  public long jdk25LongDecodeOnRead(Counters s) {
    return s.data.store.getLong(s.nextKey(), LONG_BE, -1);
  }

  @Benchmark
  public long jdk25LongRocksdbjniGetShifts(Counters s) throws RocksDBException {
    return Shape.shifts(s.data.rocks.get(s.nextKey()));
  }

  @Benchmark
  public String ffmUtf8DecodeOnRead(Names s, CopyCounters c) {
    return s.ffm.get(s.nextKey(), SEGMENT_UTF8);
  }

  @Benchmark
  public String jdk25Utf8DecodeOnRead(Names s) {
    return s.data.store.get(s.nextKey(), UTF8);
  }

  @Benchmark
  public String jdk25Utf8RocksdbjniGet(Names s) throws RocksDBException {
    return new String(s.data.rocks.get(s.nextKey()), StandardCharsets.UTF_8);
  }

  @Benchmark
  public GenericRecord ffmAvroDecodeOnRead(Events s, CopyCounters c) {
    return s.ffm.get(s.nextKey(), s.segmentDecoder);
  }

  @Benchmark
  public GenericRecord jdk25AvroDecodeOnRead(Events s) {
    return s.data.store.get(s.nextKey(), s.decoder);
  }

  @Benchmark
  public GenericRecord jdk25AvroRocksdbjniGet(Events s) throws RocksDBException {
    byte[] value = s.data.rocks.get(s.nextKey());
    return s.avro.read(value, 0, value.length);
  }
}
