// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.ffm;

import io.pinget.Decoders;
import io.pinget.LongDecoder;
import io.pinget.PinnedView;
import io.pinget.bench.decode.Shape;
import io.pinget.bench.paired.Loops;
import io.pinget.ffm.FfmPinnedView;
import io.pinget.ffm.LongSegmentDecoder;
import io.pinget.ffm.SegmentDecoders;
import java.lang.invoke.MethodHandles;
import java.nio.ByteBuffer;
import org.openjdk.jmh.infra.Blackhole;
import org.rocksdb.RocksDBException;

/**
 * The FFM suite's single-key rows, each written once: a method per row of docs/strategies.md (its
 * name in camel case, taking a position and a Blackhole, a form no other method has; {@code ffm}
 * the FFM binding, the others the JNI API and rocksdbjni on the same JDK), which reads the key at a
 * position of {@link FfmData}'s visiting order and hands what it read to the Blackhole.
 * FfmGetBenchmark calls them by name, FfmPairedGets through {@link #of}. The {@code long} rows need
 * values of 8 bytes. The views and destinations are this object's: one FfmReads per side, or per
 * JMH state. Not thread-safe.
 */
final class FfmReads implements AutoCloseable {
  private static final LongSegmentDecoder SEGMENT_LONG_BE = SegmentDecoders.longBE();
  private static final LongDecoder LONG_BE = Decoders.longBE();

  private final FfmData data;
  private final byte[][] keys;
  private final FfmPinnedView ffmView;
  private final PinnedView jniView;
  private final byte[] dst;
  private final ByteBuffer directDst;

  FfmReads(FfmData data) {
    this.data = data;
    keys = data.ordered;
    dst = new byte[data.valueSize];
    directDst = ByteBuffer.allocateDirect(data.valueSize);
    ffmView = data.ffm.newPinnedView();
    jniView = data.jni.newPinnedView();
  }

  @Override
  public void close() {
    ffmView.close();
    jniView.close();
  }

  /**
   * A row's read, by its name in docs/strategies.md: the method of that name in camel case ({@link
   * Loops#keyRead}). A {@code _twin} row is its row under another name (the negative controls: read
   * through another FfmReads, it runs on objects of its own).
   *
   * @param row the name
   * @return the read, or null if no single-key row of this class has that name
   */
  Loops.KeyRead of(String row) {
    return Loops.keyRead(MethodHandles.lookup(), this, row);
  }

  /** The FFM pinned view: a read-only segment whose scope closes at the next get. */
  void ffmPinnedView(int p, Blackhole bh) {
    bh.consume(ffmView.get(keys[p]));
  }

  void ffmBufferCopy(int p, Blackhole bh) {
    bh.consume(data.ffm.bufferCopy(keys[p], dst, 0, dst.length));
  }

  void ffmDirectCopy(int p, Blackhole bh) {
    bh.consume(data.ffm.directCopy(keys[p], directDst.clear()));
  }

  void ffmPinnableCopy(int p, Blackhole bh) {
    bh.consume(data.ffm.pinnableCopy(keys[p]));
  }

  void ffmStringCopy(int p, Blackhole bh) {
    bh.consume(data.ffm.stringCopy(keys[p]));
  }

  /** pinget's JNI pinned view on the same JDK. */
  void pinnedView(int p, Blackhole bh) {
    bh.consume(jniView.get(keys[p]));
  }

  void bufferCopy(int p, Blackhole bh) {
    bh.consume(data.jni.bufferCopy(keys[p], dst, 0, dst.length));
  }

  void rocksdbjniGet(int p, Blackhole bh) throws RocksDBException {
    bh.consume(data.rocks.get(data.rocksRead, keys[p]));
  }

  void rocksdbjniGetDirect(int p, Blackhole bh) throws RocksDBException {
    bh.consume(data.rocks.get(data.rocksRead, data.directKeys[p].rewind(), directDst.clear()));
  }

  void ffmLongDecodeOnRead(int p, Blackhole bh) {
    bh.consume(data.ffm.getLong(keys[p], SEGMENT_LONG_BE, -1));
  }

  void longDecodeOnRead(int p, Blackhole bh) {
    bh.consume(data.jni.getLong(keys[p], LONG_BE, -1));
  }

  void longRocksdbjniGetShifts(int p, Blackhole bh) throws RocksDBException {
    bh.consume(Shape.shifts(data.rocks.get(data.rocksRead, keys[p])));
  }
}
