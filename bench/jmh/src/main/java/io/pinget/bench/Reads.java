// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import com.google.common.primitives.Longs;
import io.pinget.Decoders;
import io.pinget.LongDecoder;
import io.pinget.PinnedValue;
import io.pinget.PinnedView;
import io.pinget.ReadOptions;
import io.pinget.Store;
import io.pinget.ValueDecoder;
import io.pinget.bench.decode.AvroReads;
import io.pinget.bench.decode.Shape;
import io.pinget.bench.paired.Loops;
import java.lang.invoke.MethodHandles;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.avro.generic.GenericRecord;
import org.openjdk.jmh.infra.Blackhole;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * The single-key rows of the JNI suites, each written once: a method per row of docs/strategies.md
 * (its name in camel case), taking a position and a Blackhole (no other method has that form),
 * which reads the key at a position of the data set's visiting order and hands what it read to the
 * Blackhole. GetBenchmark and DecodeBenchmark call them by name, PairedGets through {@link #of}.
 * The {@code long}, {@code utf8} and {@code avro} rows read a decode {@link Shape}'s values: 8-byte
 * big-endian counters, 64-byte names, 1 KiB Avro events. The objects a row reads through (a pinned
 * view, rocksdbjni's read options, a destination) are this object's: one Reads per side, or per JMH
 * state. Not thread-safe.
 */
final class Reads implements AutoCloseable {
  private static final LongDecoder LONG_BE = Decoders.longBE();
  private static final ValueDecoder<String> UTF8 = Decoders.utf8();

  /** Positions of the visiting order. */
  final int n;

  /** The keys in the visiting order, then its first {@code extra} keys again. */
  final byte[][] keys;

  private final ByteBuffer[] directKeys; // the same, as direct buffers
  private final Store store;
  private final Store rocksjava; // pinget's store over rocks (a RocksJavaReader's)
  private final RocksDB rocks;
  private final PinnedView view;
  private final PinnedView rocksjavaView;
  private final org.rocksdb.ReadOptions rocksRead = new org.rocksdb.ReadOptions();
  private final byte[] dst;
  private final ByteBuffer directDst;
  private final AvroReads avro = new AvroReads();
  private final ValueDecoder<GenericRecord> avroDecoder = avro::read;
  private final ValueDecoder<GenericRecord> avroInPlace = avro::readInPlace;

  /**
   * The rows over data.
   *
   * @param data the data set (not closed by this)
   * @param valueSize its values' size: the copies' destinations hold one
   * @param extra keys repeated past the visiting order's end, for native loops that read a run of
   *     keys from any position
   */
  Reads(DataSet data, int valueSize, int extra) {
    n = data.order.length;
    keys = visiting(data.keys, data.order, new byte[n + extra][]);
    directKeys = visiting(data.directKeys, data.order, new ByteBuffer[n + extra]);
    store = data.store;
    rocksjava = data.reader.store();
    rocks = data.rocks;
    dst = new byte[valueSize];
    directDst = ByteBuffer.allocateDirect(valueSize);
    view = store.newPinnedView();
    rocksjavaView = rocksjava.newPinnedView();
  }

  /**
   * Fills out with all's elements in the visiting order, from its start again past its end.
   *
   * @param all a data set's keys (or direct keys)
   * @param order its visiting order
   * @param out at least as long as order
   * @param <T> the key's type
   * @return out
   */
  static <T> T[] visiting(T[] all, int[] order, T[] out) {
    for (int i = 0; i < out.length; i++) {
      out[i] = all[order[i % order.length]];
    }
    return out;
  }

  @Override
  public void close() {
    view.close();
    rocksjavaView.close();
    rocksRead.close();
  }

  /**
   * A row's read, by its name in docs/strategies.md: the method of that name in camel case ({@link
   * Loops#keyRead}). A {@code _twin} row is its row under another name (the negative controls: read
   * through another Reads, it runs on objects of its own).
   *
   * @param row the name
   * @return the read, or null if no single-key row of this class has that name
   */
  Loops.KeyRead of(String row) {
    return Loops.keyRead(MethodHandles.lookup(), this, row);
  }

  /** The key at p as a direct buffer from position 0, and directDst emptied for the value. */
  private ByteBuffer directKey(int p) {
    directDst.clear();
    return directKeys[p].rewind();
  }

  // ---- the strategies and rocksdbjni's gets (GetBenchmark)

  void stringCopy(int p, Blackhole bh) {
    bh.consume(store.stringCopy(keys[p]));
  }

  void pinnableCopy(int p, Blackhole bh) {
    bh.consume(store.pinnableCopy(keys[p]));
  }

  void bufferCopy(int p, Blackhole bh) {
    bh.consume(store.bufferCopy(keys[p], dst, 0, dst.length));
  }

  void directCopy(int p, Blackhole bh) {
    bh.consume(store.directCopy(ReadOptions.DEFAULT, directKey(p), directDst));
  }

  /** The reusable handle: each get releases the previous pin in the same native call. */
  void pinnedView(int p, Blackhole bh) {
    bh.consume(view.get(keys[p]));
  }

  void pinnedViewPerCall(int p, Blackhole bh) {
    try (PinnedValue v = store.pinnedValue(keys[p])) {
      bh.consume(v.view());
    }
  }

  void rocksdbjniGet(int p, Blackhole bh) throws RocksDBException {
    bh.consume(rocks.get(keys[p]));
  }

  void rocksdbjniGetPrealloc(int p, Blackhole bh) throws RocksDBException {
    bh.consume(rocks.get(keys[p], dst));
  }

  void rocksdbjniGetDirect(int p, Blackhole bh) throws RocksDBException {
    bh.consume(rocks.get(rocksRead, directKey(p), directDst));
  }

  // pinget's strategies through a RocksJavaReader over rocks: the very RocksDB instance (same
  // files, options and block cache) that the rocksdbjni rows read.

  void rocksjavaPinnedView(int p, Blackhole bh) {
    bh.consume(rocksjavaView.get(keys[p]));
  }

  void rocksjavaBufferCopy(int p, Blackhole bh) {
    bh.consume(rocksjava.bufferCopy(keys[p], dst, 0, dst.length));
  }

  void rocksjavaDirectCopy(int p, Blackhole bh) {
    bh.consume(rocksjava.directCopy(ReadOptions.DEFAULT, directKey(p), directDst));
  }

  // ---- the counter (DecodeBenchmark): 8 bytes, big-endian

  void longRocksdbjniGetGuava(int p, Blackhole bh) throws RocksDBException {
    bh.consume(Longs.fromByteArray(rocks.get(keys[p])));
  }

  void longRocksdbjniGetWrap(int p, Blackhole bh) throws RocksDBException {
    bh.consume(ByteBuffer.wrap(rocks.get(keys[p])).getLong());
  }

  void longRocksdbjniGetShifts(int p, Blackhole bh) throws RocksDBException {
    bh.consume(Shape.shifts(rocks.get(keys[p])));
  }

  void longRocksdbjniGetDirect(int p, Blackhole bh) throws RocksDBException {
    int got = rocks.get(rocksRead, directKey(p), directDst);
    if (got != 8) {
      throw new IllegalStateException("a counter of " + got + " bytes");
    }
    bh.consume(directDst.getLong(0));
  }

  void longPinnableCopyGuava(int p, Blackhole bh) {
    bh.consume(Longs.fromByteArray(store.pinnableCopy(keys[p])));
  }

  void longPinnableCopyWrap(int p, Blackhole bh) {
    bh.consume(ByteBuffer.wrap(store.pinnableCopy(keys[p])).getLong());
  }

  void longPinnableCopyShifts(int p, Blackhole bh) {
    bh.consume(Shape.shifts(store.pinnableCopy(keys[p])));
  }

  /** Today's way without a decoder: a reused pinned view, then getLong. */
  void longPinnedView(int p, Blackhole bh) {
    bh.consume(LONG_BE.decode(view.get(keys[p])));
  }

  void longDecodeOnRead(int p, Blackhole bh) {
    bh.consume(store.getLong(keys[p], LONG_BE, -1));
  }

  void rocksjavaLongDecodeOnRead(int p, Blackhole bh) {
    bh.consume(rocksjava.getLong(keys[p], LONG_BE, -1));
  }

  // ---- the name: 64 bytes of UTF-8

  void utf8RocksdbjniGet(int p, Blackhole bh) throws RocksDBException {
    bh.consume(new String(rocks.get(keys[p]), StandardCharsets.UTF_8));
  }

  void utf8RocksdbjniGetDirect(int p, Blackhole bh) throws RocksDBException {
    int got = rocks.get(rocksRead, directKey(p), directDst);
    directDst.get(0, dst, 0, got);
    bh.consume(new String(dst, 0, got, StandardCharsets.UTF_8));
  }

  void utf8PinnableCopy(int p, Blackhole bh) {
    bh.consume(new String(store.pinnableCopy(keys[p]), StandardCharsets.UTF_8));
  }

  void utf8PinnedView(int p, Blackhole bh) {
    bh.consume(UTF8.decode(view.get(keys[p])));
  }

  void utf8DecodeOnRead(int p, Blackhole bh) {
    bh.consume(store.get(keys[p], UTF8));
  }

  // ---- the event: an Avro record of 1 KiB, decoded by this thread's reused Avro reader

  void avroRocksdbjniGet(int p, Blackhole bh) throws RocksDBException {
    byte[] value = rocks.get(keys[p]);
    bh.consume(avro.read(value, 0, value.length));
  }

  void avroRocksdbjniGetDirect(int p, Blackhole bh) throws RocksDBException {
    int got = rocks.get(rocksRead, directKey(p), directDst);
    bh.consume(avro.read(directDst.position(0).limit(got)));
  }

  void avroPinnableCopy(int p, Blackhole bh) {
    byte[] value = store.pinnableCopy(keys[p]);
    bh.consume(avro.read(value, 0, value.length));
  }

  void avroPinnedView(int p, Blackhole bh) {
    bh.consume(avro.read(view.get(keys[p])));
  }

  void avroDecodeOnRead(int p, Blackhole bh) {
    bh.consume(store.get(keys[p], avroDecoder));
  }

  /** Avro's unbuffered decoder reading the pinned value in place (no copy of the record). */
  void avroDecodeOnReadInPlace(int p, Blackhole bh) {
    bh.consume(store.get(keys[p], avroInPlace));
  }
}
