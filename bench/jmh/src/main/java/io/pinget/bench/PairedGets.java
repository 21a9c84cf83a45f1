// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.PinnedBatch;
import io.pinget.ReadOptions;
import io.pinget.bench.decode.AvroReads;
import io.pinget.bench.decode.Shape;
import io.pinget.bench.paired.Loops;
import io.pinget.bench.paired.Paired;
import io.pinget.bench.paired.Runner;
import io.pinget.bench.paired.Side;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * Paired comparisons of single and batched gets (bench/common's {@link Runner}) over the JMH
 * suite's data sets ({@link DataSet}, block cache): pinget's strategies, rocksdbjni's gets and the
 * in-process native loops, by the row names of summary.json. A single-key side is the JMH row's own
 * code ({@link Reads}); a {@code long_} side needs SIZE 8, a {@code utf8_} one 64 and an {@code
 * avro_} one 1024. {@code _twin} rows are their row under another name, on objects of their own,
 * for the control pairs. Every side reads the keys in the JMH rows' visiting order, from the pair's
 * start key, and hands each result to the Blackhole.
 *
 * <p>-Dpinget.bench.keyBytes=N (default 15, "key" and 12 digits) and
 * -Dpinget.bench.residency=memtable (default block_cache) pick another data shape: bench/run's
 * {@code paired-key128-*} and {@code paired-memtable-*} parts.
 *
 * <pre>
 *   java -cp bench/jmh/target/benchmarks.jar io.pinget.bench.PairedGets \
 *       --compare=pinned_view:rocksdbjni_get@65536,pinned_view/16:pinned_view@128 --out=F
 * </pre>
 */
public final class PairedGets implements Runner.Factory {
  /** Keys per call of the native loops, as in GetBenchmark and BatchGetBenchmark. */
  static final int LOOP = 64;

  /**
   * Keys per call of native_avro_loop: its 16 slots of 1 KiB stay in the L1 cache until Java
   * decodes them, as decode on read's one slot does.
   */
  static final int AVRO_LOOP = 16;

  private static final int KEY_BYTES =
      Integer.getInteger("pinget.bench.keyBytes", DataSet.DEFAULT_KEY_BYTES);

  private static final String RESIDENCY =
      System.getProperty("pinget.bench.residency", DataSet.BLOCK_CACHE);

  public static void main(String[] args) throws Exception {
    Runner.main(args, new PairedGets(), PairedGets.class);
  }

  @Override
  public Runner.Opened open(Runner.Spec spec, int keys) {
    int size = Integer.parseInt(spec.size());
    // A utf8_ or avro_ side reads a decode Shape's values (64-byte names, 1 KiB Avro events); the
    // other rows read random bytes, which a long_ row decodes whole (8 of them).
    Shape shape = decodes(spec.a()) || decodes(spec.b()) ? Shape.ofSize(size) : null;
    DataSet data =
        new DataSet(keys, size, RESIDENCY, Lookup.DEFAULT, KEY_BYTES, FilePath.DEFAULT, shape);
    Deque<AutoCloseable> closers = new ArrayDeque<>();
    try {
      Sides sides = new Sides(data, size, closers);
      Paired.Entry a = sides.entry(spec.a(), spec.batchA(), true);
      Paired.Entry b = sides.entry(spec.b(), spec.batchB(), false);
      return new Opened(a, b, data.keys.length, size, data, closers);
    } catch (RuntimeException e) {
      closeAll(closers);
      data.close();
      throw e;
    }
  }

  private static boolean decodes(String row) {
    return row.startsWith("utf8_")
        || row.startsWith("avro_")
        || row.equals("native_utf8_loop")
        || row.equals("native_avro_loop");
  }

  private static void closeAll(Deque<AutoCloseable> closers) {
    while (!closers.isEmpty()) {
      try {
        closers.pop().close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private record Opened(
      Paired.Entry a,
      Paired.Entry b,
      int positions,
      int valueSize,
      DataSet data,
      Deque<AutoCloseable> closers)
      implements Runner.Opened {
    @Override
    public void close() {
      closeAll(closers);
      data.close();
    }
  }

  /** The sides over one data set; what they open is closed with it. */
  private static final class Sides {
    private final DataSet data;
    private final Deque<AutoCloseable> closers;
    private final int valueSize;
    private final int n; // keys, and positions of the visiting order
    private final byte[][] keys; // in the visiting order, then its first LOOP keys again
    private final ByteBuffer directDst;

    Sides(DataSet data, int valueSize, Deque<AutoCloseable> closers) {
      this.data = data;
      this.closers = closers;
      this.valueSize = valueSize;
      n = data.order.length;
      keys = Reads.visiting(data.keys, data.order, new byte[n + LOOP][]);
      directDst = ByteBuffer.allocateDirect(valueSize);
    }

    private <T extends AutoCloseable> T closeLater(T c) {
      closers.push(c);
      return c;
    }

    Paired.Entry entry(String row, int batch, boolean sideA) {
      if (batch == 1) {
        return single(row, sideA);
      }
      if (LOOP % batch != 0) {
        throw new IllegalArgumentException("batch must divide " + LOOP + ": " + batch);
      }
      return batched(row, batch, sideA);
    }

    // A row with a loop of its own, else a single-key row of Reads, on a Reads of this side's own,
    // run by Loops (see Loops for why that keeps each side's own profile).
    private Paired.Entry single(String row, boolean sideA) {
      Paired.Entry own = loop(row);
      if (own != null) {
        return own;
      }
      Reads reads = closeLater(new Reads(data, valueSize, 0));
      Loops.KeyRead read = reads.of(row);
      if (read == null) {
        throw new IllegalArgumentException("unknown row " + row);
      }
      return new Paired.Entry(row, 1, 1, Loops.keys(sideA, reads.n, read));
    }

    // The rows with loops of their own (cursors, and the native loop), or null.
    private Paired.Entry loop(String row) {
      final byte[][] k = keys;
      final int n = this.n;
      final io.pinget.Store store = data.store;
      final org.rocksdb.RocksDB rocks = data.rocks;
      final ByteBuffer ddst = directDst;
      // Cursors, per entry, in ScanBenchmark's shapes and its code (CursorScans): _stream reads on
      // in batches of CursorScans.BATCH, from the first key again at the end; _range seeks to a
      // random key and reads CursorScans.RANGE entries, each read as CursorScans.read says.
      CursorScans scans = new CursorScans(data.keys);
      long[] out = new long[2];
      switch (row) {
        case "cursor_stream":
          {
            io.pinget.Cursor cursor = closeLater(store.newCursor());
            cursor.seekToFirst();
            return stream(row, (start, ops, bh) -> CursorScans.stream(cursor, ops, bh));
          }
        case "cursor_range":
          {
            io.pinget.Cursor cursor = closeLater(store.newCursor());
            return range(row, (start, ops, bh) -> scans.ranges(cursor, ops, bh));
          }
        case "native_cursor_loop_stream":
          {
            NativeControls.CursorLoop cursor = closeLater(NativeControls.cursorLoop(store));
            return stream(
                row, (start, ops, bh) -> CursorScans.streamInNative(cursor, ops, out, bh));
          }
        case "native_cursor_loop_range":
          {
            NativeControls.CursorLoop cursor = closeLater(NativeControls.cursorLoop(store));
            return range(row, (start, ops, bh) -> scans.rangesInNative(cursor, ops, out, bh));
          }
        case "rocksdbjni_iterator_stream":
          {
            org.rocksdb.RocksIterator it = closeLater(rocks.newIterator());
            it.seekToFirst();
            return stream(row, (start, ops, bh) -> CursorScans.stream(it, ops, null, null, bh));
          }
        case "rocksdbjni_iterator_range":
          {
            org.rocksdb.RocksIterator it = closeLater(rocks.newIterator());
            return range(row, (start, ops, bh) -> scans.ranges(it, ops, null, null, bh));
          }
        case "rocksdbjni_iterator_direct_stream":
          {
            org.rocksdb.RocksIterator it = closeLater(rocks.newIterator());
            ByteBuffer key = ByteBuffer.allocateDirect(256);
            it.seekToFirst();
            return stream(row, (start, ops, bh) -> CursorScans.stream(it, ops, key, ddst, bh));
          }
        case "rocksdbjni_iterator_direct_range":
          {
            org.rocksdb.RocksIterator it = closeLater(rocks.newIterator());
            ByteBuffer key = ByteBuffer.allocateDirect(256);
            return range(row, (start, ops, bh) -> scans.ranges(it, ops, key, ddst, bh));
          }
        case "native_pinned_loop":
        case "native_utf8_loop":
          {
            NativeControls.KeyLoop loop = closeLater(NativeControls.keyLoop(store, k));
            boolean strings = row.equals("native_utf8_loop");
            // LOOP gets per crossing from any position below n: keys holds n + LOOP keys.
            return new Paired.Entry(
                row,
                1,
                LOOP,
                (start, ops, bh) -> {
                  int p = start;
                  for (int i = 0; i < ops; i += LOOP) {
                    bh.consume(strings ? loop.pinnedStrings(p, LOOP) : loop.pinnedGets(p, LOOP));
                    p += LOOP;
                    if (p >= n) {
                      p -= n;
                    }
                  }
                });
          }
        case "native_avro_loop":
          {
            // The same gets, AVRO_LOOP per crossing, each value copied into its slot of one
            // direct buffer (as decode on read copies it into its thread's slot), then each
            // decoded there by the Avro reader of avro_decode_on_read.
            NativeControls.KeyLoop loop = closeLater(NativeControls.keyLoop(store, k));
            int stride = valueSize;
            ByteBuffer slots =
                ByteBuffer.allocateDirect(AVRO_LOOP * (4 + stride)).order(ByteOrder.nativeOrder());
            ByteBuffer value = slots.duplicate();
            AvroReads avro = new AvroReads();
            return new Paired.Entry(
                row,
                1,
                AVRO_LOOP,
                (start, ops, bh) -> {
                  int p = start;
                  for (int i = 0; i < ops; i += AVRO_LOOP) {
                    bh.consume(loop.pinnedCopies(p, AVRO_LOOP, slots, stride));
                    for (int j = 0; j < AVRO_LOOP; j++) {
                      int size = slots.getInt(4 * j);
                      if (size < 0) {
                        throw new IllegalStateException("no value of at most " + stride + " B");
                      }
                      int off = 4 * AVRO_LOOP + j * stride;
                      bh.consume(avro.read(value.limit(off + size).position(off)));
                    }
                    p += AVRO_LOOP;
                    if (p >= n) {
                      p -= n;
                    }
                  }
                });
          }
        default:
          return null;
      }
    }

    private static Paired.Entry stream(String row, Side side) {
      return new Paired.Entry(row, 1, CursorScans.BATCH, side);
    }

    private static Paired.Entry range(String row, Side side) {
      return new Paired.Entry(row, 1, CursorScans.RANGE, side);
    }

    private Paired.Entry batched(String row, int batch, boolean sideA) {
      final int n = this.n;
      final byte[][] keys = this.keys;
      final int count = n / batch;
      final byte[][][] batches = new byte[count][batch][];
      final List<List<byte[]>> lists = new ArrayList<>();
      for (int b = 0; b < count; b++) {
        for (int i = 0; i < batch; i++) {
          batches[b][i] = keys[b * batch + i];
        }
        lists.add(Arrays.asList(batches[b]));
      }
      final io.pinget.Store store = data.store;
      Loops.BatchRead read;
      switch (row) {
        case "pinned_view":
          {
            PinnedBatch pinned = closeLater(store.newPinnedBatch());
            read =
                (b, bh) -> {
                  int got = pinned.get(batches[b]);
                  for (int j = 0; j < got; j++) {
                    bh.consume(pinned.value(j));
                  }
                };
            break;
          }
        case "buffer_copy":
          {
            byte[][] dsts = new byte[batch][valueSize];
            int[] sizes = new int[batch];
            read =
                (b, bh) -> {
                  store.multiGetBufferCopy(ReadOptions.DEFAULT, batches[b], dsts, sizes);
                  bh.consume(sizes);
                };
            break;
          }
        case "rocksdbjni_multiget":
          {
            org.rocksdb.RocksDB rocks = data.rocks;
            read = (b, bh) -> bh.consume(rocks.multiGetAsList(lists.get(b)));
            break;
          }
        case "native_batch_loop":
          {
            NativeControls.KeyLoop loop = closeLater(NativeControls.keyLoop(store, keys));
            return new Paired.Entry(
                row,
                batch,
                LOOP,
                (start, ops, bh) -> {
                  int p = start;
                  for (int i = 0; i < ops; i += LOOP) {
                    bh.consume(loop.pinnedBatches(p, LOOP, batch));
                    p += LOOP;
                    if (p >= n) {
                      p -= n;
                    }
                  }
                });
          }
        default:
          throw new IllegalArgumentException("unknown batched row " + row);
      }
      return new Paired.Entry(row, batch, batch, Loops.batches(sideA, batch, count, read));
    }
  }
}
