// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.Cursor;
import java.util.Random;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The scan shapes of ScanBenchmark (JDK 17) and FfmScanBenchmark (JDK 22+), and the JNI cursor's
 * loops over them, here once so that both suites measure the same code. One invocation reads
 * ENTRIES entries in either shape:
 *
 * <ul>
 *   <li>{@code stream}: a streaming scan, continuing where the last invocation stopped and starting
 *       over at the end of the data;
 *   <li>{@code range}: ENTRIES / RANGE short range scans, each a seek to a random key and the RANGE
 *       entries from it.
 * </ul>
 */
public final class CursorScans {
  /** Entries per batch (one JNI call or downcall) of a streaming scan. */
  public static final int BATCH = 256;

  /** Entries of a short range scan, lent in one batch. */
  public static final int RANGE = 100;

  /** Entries per invocation, both shapes. */
  public static final int ENTRIES = 40 * RANGE;

  public static final String STREAM = "stream";
  public static final String RANGES = "range";

  private final byte[][] seekKeys;
  private int pos;

  /**
   * Seek keys drawn from keys, among those with RANGE entries after them (all, if fewer), in a
   * fixed random order.
   */
  public CursorScans(byte[][] keys) {
    Random random = new Random(42);
    int starts = Math.max(1, keys.length - RANGE);
    seekKeys = new byte[Math.max(starts, 1024)][];
    for (int i = 0; i < seekKeys.length; i++) {
      seekKeys[i] = keys[random.nextInt(starts)];
    }
  }

  /** Whether scan names the streaming shape (else the range shape; any other name throws). */
  public static boolean isStream(String scan) {
    if (!STREAM.equals(scan) && !RANGES.equals(scan)) {
      throw new IllegalArgumentException("scan " + scan + ": " + STREAM + " or " + RANGES);
    }
    return STREAM.equals(scan);
  }

  public byte[] nextSeekKey() {
    byte[] k = seekKeys[pos];
    if (++pos == seekKeys.length) {
      pos = 0;
    }
    return k;
  }

  /** ENTRIES entries of a streaming scan through cursor, each key and value to bh. */
  public static void stream(Cursor cursor, Blackhole bh) {
    for (int left = ENTRIES; left > 0; ) {
      int n = cursor.next(Math.min(BATCH, left));
      if (n == 0) {
        cursor.seekToFirst();
        continue;
      }
      for (int i = 0; i < n; i++) {
        bh.consume(cursor.key(i));
        bh.consume(cursor.value(i));
      }
      left -= n;
    }
  }

  /** ENTRIES / RANGE range scans through cursor. */
  public void ranges(Cursor cursor, Blackhole bh) {
    for (int r = 0; r < ENTRIES / RANGE; r++) {
      cursor.seek(nextSeekKey());
      int n = cursor.next(RANGE);
      for (int i = 0; i < n; i++) {
        bh.consume(cursor.key(i));
        bh.consume(cursor.value(i));
      }
    }
  }

  /**
   * The in-process control of either shape: the same reads made by native code through pinget's C
   * API, one JNI call each.
   */
  public void inNative(NativeControls.CursorLoop cursor, boolean stream, long[] out, Blackhole bh) {
    if (stream) {
      cursor.scan(BATCH, ENTRIES, out);
      bh.consume(out[1]);
      return;
    }
    for (int r = 0; r < ENTRIES / RANGE; r++) {
      cursor.seek(nextSeekKey(), RANGE, out);
      bh.consume(out[1]);
    }
  }
}
