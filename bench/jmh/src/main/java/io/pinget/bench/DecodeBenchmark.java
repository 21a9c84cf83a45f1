// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.bench.decode.Shape;
import io.pinget.bench.decode.ShapeState;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.infra.Blackhole;
import org.rocksdb.RocksDBException;

/**
 * Get and decode, end to end: a counter (8 bytes, big-endian), a name (64 bytes of UTF-8) and an
 * event (a 1 KiB Avro record), each read and decoded after every way of reading. rocksdbjni's
 * {@code get(byte[])} then Guava's {@code Longs.fromByteArray}, {@code ByteBuffer.wrap().getLong()}
 * or shifts; rocksdbjni's {@code get(ByteBuffer)} into a direct buffer, then the same decode;
 * pinget's pinnable_copy then the same; pinget's pinned view then the decode; and pinget's decode
 * on read ({@code getLong} / {@code get} with a decoder), through a Store and through a
 * RocksJavaReader over rocksdbjni's very RocksDB.
 *
 * <p>Each method runs the row of {@link Reads} of its name. JMH's traps, avoided: every decoded
 * value goes to the Blackhole (no dead code); keys come from a shuffled order of 1,000 (no constant
 * folding of a fixed key); each method × parameter set runs in its own forked JVM, so decoders of
 * other methods do not pollute the profile of its call sites. {@link CpuCounters} gives each row's
 * CPU ns per read beside its throughput, for runs on a machine that other work keeps busy. A
 * method's shape is its state's: each shape's {@code valueSize} has one value (8, 64, 1024), so a
 * method runs at its own size only. Method names are the rows of docs/strategies.md in camel case,
 * prefixed by the shape.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DecodeBenchmark {
  /** The data of one shape, its rows, and the visiting position. */
  abstract static class Values extends ShapeState {
    DataSet data;
    Reads reads;
    int pos;

    @Override
    protected void open(int valueSize, int keys, String residency) {
      Shape shape = Shape.ofSize(valueSize);
      data = new DataSet(keys, shape, residency);
      reads = new Reads(data, shape.size, 0);
    }

    @Override
    protected void close() {
      reads.close();
      data.close();
    }

    /** The next position of the visiting order. */
    int next() {
      int p = pos;
      if (++pos == reads.n) {
        pos = 0;
      }
      return p;
    }
  }

  /** The counter shape: 8-byte big-endian longs. */
  @State(Scope.Thread)
  public static class Counters extends Values {
    @Param("8")
    public int valueSize;

    @Override
    protected int valueSize() {
      return valueSize;
    }
  }

  /** The name shape: 64 bytes of UTF-8. */
  @State(Scope.Thread)
  public static class Names extends Values {
    @Param("64")
    public int valueSize;

    @Override
    protected int valueSize() {
      return valueSize;
    }
  }

  /** The event shape: Avro records of 1 KiB. */
  @State(Scope.Thread)
  public static class Events extends Values {
    @Param("1024")
    public int valueSize;

    @Override
    protected int valueSize() {
      return valueSize;
    }
  }

  @Benchmark
  public void longRocksdbjniGetGuava(Counters s, CpuCounters cpu, Blackhole bh)
      throws RocksDBException {
    s.reads.longRocksdbjniGetGuava(s.next(), bh);
  }

  @Benchmark
  public void longRocksdbjniGetWrap(Counters s, CpuCounters cpu, Blackhole bh)
      throws RocksDBException {
    s.reads.longRocksdbjniGetWrap(s.next(), bh);
  }

  @Benchmark
  public void longRocksdbjniGetShifts(Counters s, CpuCounters cpu, Blackhole bh)
      throws RocksDBException {
    s.reads.longRocksdbjniGetShifts(s.next(), bh);
  }

  @Benchmark
  public void longRocksdbjniGetDirect(Counters s, CpuCounters cpu, Blackhole bh)
      throws RocksDBException {
    s.reads.longRocksdbjniGetDirect(s.next(), bh);
  }

  @Benchmark
  public void longPinnableCopyGuava(Counters s, CopyCounters c, CpuCounters cpu, Blackhole bh) {
    s.reads.longPinnableCopyGuava(s.next(), bh);
  }

  @Benchmark
  public void longPinnableCopyWrap(Counters s, CopyCounters c, CpuCounters cpu, Blackhole bh) {
    s.reads.longPinnableCopyWrap(s.next(), bh);
  }

  @Benchmark
  public void longPinnableCopyShifts(Counters s, CopyCounters c, CpuCounters cpu, Blackhole bh) {
    s.reads.longPinnableCopyShifts(s.next(), bh);
  }

  /** Today's way without a decoder: a reused pinned view, then getLong. */
  @Benchmark
  public void longPinnedView(Counters s, CopyCounters c, CpuCounters cpu, Blackhole bh) {
    s.reads.longPinnedView(s.next(), bh);
  }

  @Benchmark
  public void longDecodeOnRead(Counters s, CopyCounters c, CpuCounters cpu, Blackhole bh) {
    s.reads.longDecodeOnRead(s.next(), bh);
  }

  @Benchmark
  public void rocksjavaLongDecodeOnRead(Counters s, CopyCounters c, CpuCounters cpu, Blackhole bh) {
    s.reads.rocksjavaLongDecodeOnRead(s.next(), bh);
  }

  @Benchmark
  public void utf8RocksdbjniGet(Names s, CpuCounters cpu, Blackhole bh) throws RocksDBException {
    s.reads.utf8RocksdbjniGet(s.next(), bh);
  }

  @Benchmark
  public void utf8RocksdbjniGetDirect(Names s, CpuCounters cpu, Blackhole bh)
      throws RocksDBException {
    s.reads.utf8RocksdbjniGetDirect(s.next(), bh);
  }

  @Benchmark
  public void utf8PinnableCopy(Names s, CopyCounters c, CpuCounters cpu, Blackhole bh) {
    s.reads.utf8PinnableCopy(s.next(), bh);
  }

  @Benchmark
  public void utf8PinnedView(Names s, CopyCounters c, CpuCounters cpu, Blackhole bh) {
    s.reads.utf8PinnedView(s.next(), bh);
  }

  @Benchmark
  public void utf8DecodeOnRead(Names s, CopyCounters c, CpuCounters cpu, Blackhole bh) {
    s.reads.utf8DecodeOnRead(s.next(), bh);
  }

  @Benchmark
  public void avroRocksdbjniGet(Events s, CpuCounters cpu, Blackhole bh) throws RocksDBException {
    s.reads.avroRocksdbjniGet(s.next(), bh);
  }

  @Benchmark
  public void avroRocksdbjniGetDirect(Events s, CpuCounters cpu, Blackhole bh)
      throws RocksDBException {
    s.reads.avroRocksdbjniGetDirect(s.next(), bh);
  }

  @Benchmark
  public void avroPinnableCopy(Events s, CopyCounters c, CpuCounters cpu, Blackhole bh) {
    s.reads.avroPinnableCopy(s.next(), bh);
  }

  @Benchmark
  public void avroPinnedView(Events s, CopyCounters c, CpuCounters cpu, Blackhole bh) {
    s.reads.avroPinnedView(s.next(), bh);
  }

  @Benchmark
  public void avroDecodeOnRead(Events s, CopyCounters c, CpuCounters cpu, Blackhole bh) {
    s.reads.avroDecodeOnRead(s.next(), bh);
  }

  /** Avro's unbuffered decoder reading the pinned value in place (no copy of the record). */
  @Benchmark
  public void avroDecodeOnReadInPlace(Events s, CopyCounters c, CpuCounters cpu, Blackhole bh) {
    s.reads.avroDecodeOnReadInPlace(s.next(), bh);
  }
}
