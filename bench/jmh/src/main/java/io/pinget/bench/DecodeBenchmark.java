// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import com.google.common.primitives.Longs;
import io.pinget.Decoders;
import io.pinget.LongDecoder;
import io.pinget.PinnedView;
import io.pinget.ValueDecoder;
import io.pinget.bench.decode.AvroReads;
import io.pinget.bench.decode.Shape;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
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
 * Get and decode, end to end: a counter (8 bytes, big-endian), a name (64 bytes of UTF-8) and an
 * event (a 1 KiB Avro record), each read and decoded after every way of reading. rocksdbjni's
 * {@code get(byte[])} then Guava's {@code Longs.fromByteArray}, {@code ByteBuffer.wrap().getLong()}
 * or shifts; rocksdbjni's {@code get(ByteBuffer)} into a direct buffer, then the same decode;
 * pinget's pinnable_copy then the same; pinget's pinned view then the decode; and pinget's decode
 * on read ({@code getLong} / {@code get} with a decoder), through a Store and through a
 * RocksJavaReader over rocksdbjni's very RocksDB.
 *
 * <p>JMH's traps, avoided: every decoded value is returned (JMH consumes it: no dead code); keys
 * come from a shuffled order of 1,000 (no constant folding of a fixed key); each method × parameter
 * set runs in its own forked JVM, so decoders of other methods do not pollute the profile of its
 * call sites. {@link CpuCounters} gives each row's CPU ns per read beside its throughput, for runs
 * on a machine that other work keeps busy. A method's shape is its state's: each shape's {@code
 * valueSize} has one value (8, 64, 1024), so a method runs at its own size only. Method names are
 * the rows of docs/strategies.md in camel case, prefixed by the shape.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DecodeBenchmark {
  /** The data of one shape, the handles that read it, and the visiting position. */
  abstract static class Values {
    DataSet data;
    PinnedView view;
    org.rocksdb.ReadOptions rocksRead;
    ByteBuffer directDst;
    byte[] scratch;
    AvroReads avro;
    int pos;

    void open(int valueSize, int keys, String residency) {
      Shape shape = Shape.ofSize(valueSize);
      data = new DataSet(keys, shape, residency);
      view = data.store.newPinnedView();
      rocksRead = new org.rocksdb.ReadOptions();
      directDst = ByteBuffer.allocateDirect(shape.size);
      scratch = new byte[shape.size];
      avro = new AvroReads();
    }

    void close() {
      view.close();
      rocksRead.close();
      data.close();
    }

    /** The next key's index in the shuffled order. */
    int next() {
      int k = data.order[pos];
      if (++pos == data.order.length) {
        pos = 0;
      }
      return k;
    }

    byte[] nextKey() {
      return data.keys[next()];
    }

    /** The next key as a direct buffer, and directDst emptied for the value. */
    ByteBuffer nextDirectKey() {
      ByteBuffer key = data.directKeys[next()];
      key.rewind();
      directDst.clear();
      return key;
    }
  }

  /** The counter shape: 8-byte big-endian longs. */
  @State(Scope.Thread)
  public static class Counters extends Values {
    @Param("8")
    public int valueSize;

    @Param("1000")
    public int keys;

    @Param({"block_cache", "memtable"})
    public String residency;

    @Setup(Level.Trial)
    public void setUp() {
      open(valueSize, keys, residency);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      close();
    }
  }

  /** The name shape: 64 bytes of UTF-8. */
  @State(Scope.Thread)
  public static class Names extends Values {
    @Param("64")
    public int valueSize;

    @Param("1000")
    public int keys;

    @Param({"block_cache", "memtable"})
    public String residency;

    @Setup(Level.Trial)
    public void setUp() {
      open(valueSize, keys, residency);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      close();
    }
  }

  /** The event shape: Avro records of 1 KiB. */
  @State(Scope.Thread)
  public static class Events extends Values {
    @Param("1024")
    public int valueSize;

    @Param("1000")
    public int keys;

    @Param({"block_cache", "memtable"})
    public String residency;

    /** decode on read's decoders: this thread's Avro reads, lent the pinned buffer. */
    ValueDecoder<GenericRecord> decoder;

    ValueDecoder<GenericRecord> inPlace;

    @Setup(Level.Trial)
    public void setUp() {
      open(valueSize, keys, residency);
      AvroReads reads = avro;
      decoder = reads::read;
      inPlace = reads::readInPlace;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      close();
    }
  }

  /** A big-endian long from 8 bytes with shifts and masks (as hand-written code does). */
  static long shifts(byte[] b) {
    if (b.length != 8) {
      throw new IllegalArgumentException("a long needs 8 bytes, not " + b.length);
    }
    return (b[0] & 0xFFL) << 56
        | (b[1] & 0xFFL) << 48
        | (b[2] & 0xFFL) << 40
        | (b[3] & 0xFFL) << 32
        | (b[4] & 0xFFL) << 24
        | (b[5] & 0xFFL) << 16
        | (b[6] & 0xFFL) << 8
        | (b[7] & 0xFFL);
  }

  private static final LongDecoder LONG_BE = Decoders.longBE();
  private static final ValueDecoder<String> UTF8 = Decoders.utf8();

  // ---- the counter

  @Benchmark
  public long longRocksdbjniGetGuava(Counters s, CpuCounters cpu) throws RocksDBException {
    return Longs.fromByteArray(s.data.rocks.get(s.nextKey()));
  }

  @Benchmark
  public long longRocksdbjniGetWrap(Counters s, CpuCounters cpu) throws RocksDBException {
    return ByteBuffer.wrap(s.data.rocks.get(s.nextKey())).getLong();
  }

  @Benchmark
  public long longRocksdbjniGetShifts(Counters s, CpuCounters cpu) throws RocksDBException {
    return shifts(s.data.rocks.get(s.nextKey()));
  }

  @Benchmark
  public long longRocksdbjniGetDirect(Counters s, CpuCounters cpu) throws RocksDBException {
    int n = s.data.rocks.get(s.rocksRead, s.nextDirectKey(), s.directDst);
    if (n != 8) {
      throw new IllegalStateException("a counter of " + n + " bytes");
    }
    return s.directDst.getLong(0);
  }

  @Benchmark
  public long longPinnableCopyGuava(Counters s, CopyCounters c, CpuCounters cpu) {
    return Longs.fromByteArray(s.data.store.pinnableCopy(s.nextKey()));
  }

  @Benchmark
  public long longPinnableCopyWrap(Counters s, CopyCounters c, CpuCounters cpu) {
    return ByteBuffer.wrap(s.data.store.pinnableCopy(s.nextKey())).getLong();
  }

  @Benchmark
  public long longPinnableCopyShifts(Counters s, CopyCounters c, CpuCounters cpu) {
    return shifts(s.data.store.pinnableCopy(s.nextKey()));
  }

  /** Today's way without a decoder: a reused pinned view, then getLong. */
  @Benchmark
  public long longPinnedView(Counters s, CopyCounters c, CpuCounters cpu) {
    return LONG_BE.decode(s.view.get(s.nextKey()));
  }

  @Benchmark
  public long longDecodeOnRead(Counters s, CopyCounters c, CpuCounters cpu) {
    return s.data.store.getLong(s.nextKey(), LONG_BE, -1);
  }

  @Benchmark
  public long rocksjavaLongDecodeOnRead(Counters s, CopyCounters c, CpuCounters cpu) {
    return s.data.reader.store().getLong(s.nextKey(), LONG_BE, -1);
  }

  // ---- the name

  @Benchmark
  public String utf8RocksdbjniGet(Names s, CpuCounters cpu) throws RocksDBException {
    return new String(s.data.rocks.get(s.nextKey()), StandardCharsets.UTF_8);
  }

  @Benchmark
  public String utf8RocksdbjniGetDirect(Names s, CpuCounters cpu) throws RocksDBException {
    int n = s.data.rocks.get(s.rocksRead, s.nextDirectKey(), s.directDst);
    s.directDst.get(0, s.scratch, 0, n);
    return new String(s.scratch, 0, n, StandardCharsets.UTF_8);
  }

  @Benchmark
  public String utf8PinnableCopy(Names s, CopyCounters c, CpuCounters cpu) {
    return new String(s.data.store.pinnableCopy(s.nextKey()), StandardCharsets.UTF_8);
  }

  @Benchmark
  public String utf8PinnedView(Names s, CopyCounters c, CpuCounters cpu) {
    return UTF8.decode(s.view.get(s.nextKey()));
  }

  @Benchmark
  public String utf8DecodeOnRead(Names s, CopyCounters c, CpuCounters cpu) {
    return s.data.store.get(s.nextKey(), UTF8);
  }

  // ---- the event

  @Benchmark
  public GenericRecord avroRocksdbjniGet(Events s, CpuCounters cpu) throws RocksDBException {
    byte[] value = s.data.rocks.get(s.nextKey());
    return s.avro.read(value, 0, value.length);
  }

  @Benchmark
  public GenericRecord avroRocksdbjniGetDirect(Events s, CpuCounters cpu) throws RocksDBException {
    int n = s.data.rocks.get(s.rocksRead, s.nextDirectKey(), s.directDst);
    s.directDst.position(0).limit(n);
    return s.avro.read(s.directDst);
  }

  @Benchmark
  public GenericRecord avroPinnableCopy(Events s, CopyCounters c, CpuCounters cpu) {
    byte[] value = s.data.store.pinnableCopy(s.nextKey());
    return s.avro.read(value, 0, value.length);
  }

  @Benchmark
  public GenericRecord avroPinnedView(Events s, CopyCounters c, CpuCounters cpu) {
    return s.avro.read(s.view.get(s.nextKey()));
  }

  @Benchmark
  public GenericRecord avroDecodeOnRead(Events s, CopyCounters c, CpuCounters cpu) {
    return s.data.store.get(s.nextKey(), s.decoder);
  }

  /** Avro's unbuffered decoder reading the pinned value in place (no copy of the record). */
  @Benchmark
  public GenericRecord avroDecodeOnReadInPlace(Events s, CopyCounters c, CpuCounters cpu) {
    return s.data.store.get(s.nextKey(), s.inPlace);
  }
}
