// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import io.pinget.Cursor;
import io.pinget.PinnedBatch;
import io.pinget.bench.CursorScans;
import io.pinget.bench.NativeControls;
import io.pinget.bench.paired.Loops;
import io.pinget.bench.paired.Paired;
import io.pinget.bench.paired.Runner;
import io.pinget.bench.paired.Side;
import io.pinget.ffm.FfmCursor;
import io.pinget.ffm.FfmPinnedBatch;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Paired comparisons (bench/common's {@link Runner}) on the FFM suite's data ({@link FfmData}): the
 * FFM binding, pinget's JNI API, its native loop and rocksdbjni, by the rows of the FFM suite. SIZE
 * is a value size in bytes (shape {@code keys}) or {@code hot_key}; the {@code long} rows ({@code
 * *_long_decode_on_read}, {@code long_rocksdbjni_get_shifts}) need SIZE 8, the cursor rows a value
 * size (not {@code hot_key}). {@code _twin} rows are their row's read again, on objects of their
 * own, for the control pairs. The JNI rows that read each value's last byte, as the FFM rows must
 * (a segment handed to the Blackhole would escape), end in {@code _in_place}; the cursor's rows
 * ({@code cursor_*_in_place}) are PairedGets' {@code cursor_*}, which read their entries so too.
 *
 * <pre>
 *   java --enable-native-access=ALL-UNNAMED -cp bench/jmh-ffm/target/benchmarks.jar \
 *       io.pinget.bench.ffm.FfmPairedGets --compare=ffm_pinned_view:pinned_view@hot_key --out=F
 * </pre>
 */
public final class FfmPairedGets implements Runner.Factory {
  public static void main(String[] args) throws Exception {
    Runner.main(args, new FfmPairedGets(), FfmPairedGets.class);
  }

  @Override
  public Runner.Opened open(Runner.Spec spec, int keys) throws Exception {
    boolean hot = "hot_key".equals(spec.size());
    int size = hot ? 0 : Integer.parseInt(spec.size());
    FfmData data = new FfmData(hot ? "hot_key" : "keys", keys, size);
    Deque<AutoCloseable> closers = new ArrayDeque<>();
    try {
      Paired.Entry a = entry(data, spec.a(), spec.batchA(), true, closers);
      Paired.Entry b = entry(data, spec.b(), spec.batchB(), false, closers);
      return new Runner.Opened() {
        @Override
        public Paired.Entry a() {
          return a;
        }

        @Override
        public Paired.Entry b() {
          return b;
        }

        @Override
        public int positions() {
          return data.count;
        }

        @Override
        public int valueSize() {
          return data.valueSize;
        }

        @Override
        public void close() throws Exception {
          while (!closers.isEmpty()) {
            closers.pop().close();
          }
          data.close();
        }
      };
    } catch (RuntimeException e) {
      while (!closers.isEmpty()) {
        closers.pop().close();
      }
      data.close();
      throw e;
    }
  }

  // The single-key and batched rows give their read; Loops runs it (see Loops for why that keeps
  // each side's own profile). A _twin row is its row's read again, on objects of its own.
  private static Paired.Entry entry(
      FfmData data, String row, int batch, boolean sideA, Deque<AutoCloseable> closers) {
    final int n = data.count;
    if (batch > 1) {
      if (FfmData.LOOP % batch != 0) {
        throw new IllegalArgumentException("batch must divide " + FfmData.LOOP + ": " + batch);
      }
      final byte[][][] batches = data.batches(batch);
      Loops.BatchRead read;
      switch (row) {
        case "ffm_pinned_batch":
          {
            FfmPinnedBatch pinned = data.ffm.newPinnedBatch();
            closers.push(pinned);
            read =
                (b, bh) -> {
                  int got = pinned.get(batches[b]);
                  for (int j = 0; j < got; j++) {
                    // Read in place, as FfmBatchGetBenchmark: a segment in the Blackhole would
                    // escape.
                    MemorySegment v = pinned.value(j);
                    bh.consume(v.get(JAVA_BYTE, v.byteSize() - 1));
                  }
                };
            break;
          }
        case "pinned_view_in_place":
          {
            PinnedBatch pinned = data.jni.newPinnedBatch();
            closers.push(pinned);
            read =
                (b, bh) -> {
                  int got = pinned.get(batches[b]);
                  for (int j = 0; j < got; j++) {
                    ByteBuffer v = pinned.value(j); // read in place, as the FFM side
                    bh.consume(v.get(v.limit() - 1));
                  }
                };
            break;
          }
        default:
          throw new IllegalArgumentException("unknown batched row " + row);
      }
      return new Paired.Entry(row, batch, batch, Loops.batches(sideA, batch, batches.length, read));
    }
    if (row.contains("cursor") && data.count <= CursorScans.RANGE) {
      throw new IllegalArgumentException(row + " needs more than " + CursorScans.RANGE + " keys");
    }
    Paired.Entry own = loop(data, row, n, closers);
    if (own != null) {
      return own;
    }
    FfmReads reads = new FfmReads(data);
    closers.push(reads);
    Loops.KeyRead read = reads.of(row);
    if (read == null) {
      throw new IllegalArgumentException("unknown row " + row);
    }
    return new Paired.Entry(row, 1, 1, Loops.keys(sideA, n, read));
  }

  // The rows with loops of their own (cursors, and the native loop), or null.
  private static Paired.Entry loop(FfmData data, String row, int n, Deque<AutoCloseable> closers) {
    Side side;
    int unit;
    switch (row) {
      // Cursors, per entry (FfmScanBenchmark's shapes): _stream reads on in batches of
      // CursorScans.BATCH, starting again at the first key at the end; _range seeks to a random key
      // and reads CursorScans.RANGE entries. Each entry is read in place, its key's and value's
      // last byte, by the FFM and the JNI cursor and the C++ loop alike (an FFM segment in the
      // Blackhole would escape and be allocated).
      case "ffm_cursor_stream":
        {
          FfmCursor cursor = data.ffm.newCursor();
          closers.push(cursor);
          cursor.seekToFirst();
          unit = CursorScans.BATCH;
          side = (start, ops, bh) -> FfmScans.stream(cursor, ops, bh);
          break;
        }
      case "ffm_cursor_range":
        {
          FfmCursor cursor = data.ffm.newCursor();
          closers.push(cursor);
          CursorScans scans = new CursorScans(data.sorted);
          unit = CursorScans.RANGE;
          side = (start, ops, bh) -> FfmScans.ranges(cursor, scans, ops, bh);
          break;
        }
      case "cursor_stream_in_place":
        {
          Cursor cursor = data.jni.newCursor();
          closers.push(cursor);
          cursor.seekToFirst();
          unit = CursorScans.BATCH;
          side = (start, ops, bh) -> CursorScans.stream(cursor, ops, bh);
          break;
        }
      case "cursor_range_in_place":
        {
          Cursor cursor = data.jni.newCursor();
          closers.push(cursor);
          CursorScans scans = new CursorScans(data.sorted);
          unit = CursorScans.RANGE;
          side = (start, ops, bh) -> scans.ranges(cursor, ops, bh);
          break;
        }
      case "native_cursor_loop_stream":
        {
          NativeControls.CursorLoop cursor = NativeControls.cursorLoop(data.jni);
          closers.push(cursor);
          long[] out = new long[2];
          unit = CursorScans.BATCH;
          side = (start, ops, bh) -> CursorScans.streamInNative(cursor, ops, out, bh);
          break;
        }
      case "native_cursor_loop_range":
        {
          NativeControls.CursorLoop cursor = NativeControls.cursorLoop(data.jni);
          closers.push(cursor);
          CursorScans scans = new CursorScans(data.sorted);
          long[] out = new long[2];
          unit = CursorScans.RANGE;
          side = (start, ops, bh) -> scans.rangesInNative(cursor, ops, out, bh);
          break;
        }
      case "native_pinned_loop":
        unit = FfmData.LOOP;
        // LOOP gets per crossing from any position below n: ordered holds n + LOOP keys.
        side =
            (start, ops, bh) -> {
              int p = start;
              for (int i = 0; i < ops; i += FfmData.LOOP) {
                bh.consume(data.loop.pinnedGets(p, FfmData.LOOP));
                p += FfmData.LOOP;
                while (p >= n) {
                  p -= n;
                }
              }
            };
        break;
      default:
        return null;
    }
    return new Paired.Entry(row, 1, unit, side);
  }
}
