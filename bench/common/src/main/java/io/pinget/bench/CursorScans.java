// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.Cursor;
import java.nio.ByteBuffer;
import java.util.Random;
import org.openjdk.jmh.infra.Blackhole;
import org.rocksdb.RocksIterator;

/**
 * The scan shapes of ScanBenchmark (JDK 17) and FfmScanBenchmark (JDK 22+), and the JNI cursor's
 * loops over them and rocksdbjni's iterator's, here once so that both suites and the paired harness
 * measure the same code. A JMH invocation reads ENTRIES entries in either shape:
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

  /**
   * entries entries of a streaming scan through cursor, in batches of up to BATCH, each read in
   * place as {@link #read}.
   */
  public static void stream(Cursor cursor, int entries, Blackhole bh) {
    for (int left = entries; left > 0; ) {
      int n = cursor.next(Math.min(BATCH, left));
      if (n == 0) {
        cursor.seekToFirst();
        continue;
      }
      read(cursor, n, bh);
      left -= n;
    }
  }

  /** entries / RANGE range scans through cursor, each entry read in place as {@link #read}. */
  public void ranges(Cursor cursor, int entries, Blackhole bh) {
    for (int r = 0; r < entries / RANGE; r++) {
      cursor.seek(nextSeekKey());
      read(cursor, cursor.next(RANGE), bh);
    }
  }

  /**
   * The batch's n entries read as a user reads them, in place: each key's and value's last byte to
   * bh, as the in-JVM C++ loop (NativeControls.CursorLoop) and the FFM cursor's rows read theirs.
   * Handing the views themselves to bh would read no byte of RocksDB's memory.
   */
  private static void read(Cursor cursor, int n, Blackhole bh) {
    for (int i = 0; i < n; i++) {
      ByteBuffer k = cursor.key(i);
      ByteBuffer v = cursor.value(i);
      bh.consume(k.get(k.limit() - 1));
      bh.consume(v.get(v.limit() - 1));
    }
  }

  /**
   * The in-process control of the streaming shape: entries entries read by native code through
   * pinget's C API, in batches of BATCH, in one JNI call.
   */
  public static void streamInNative(
      NativeControls.CursorLoop cursor, int entries, long[] out, Blackhole bh) {
    cursor.scan(BATCH, entries, out);
    bh.consume(out[1]);
  }

  /** The same for entries / RANGE range scans, one JNI call each. */
  public void rangesInNative(
      NativeControls.CursorLoop cursor, int entries, long[] out, Blackhole bh) {
    for (int r = 0; r < entries / RANGE; r++) {
      cursor.seek(nextSeekKey(), RANGE, out);
      bh.consume(out[1]);
    }
  }

  /**
   * entries entries of a streaming scan through rocksdbjni's iterator, from the first key again at
   * the end; each key and value to bh: new arrays, or (direct) their sizes as read into the reused
   * direct buffers key and value (else null).
   */
  public static void stream(
      RocksIterator it, int entries, ByteBuffer key, ByteBuffer value, Blackhole bh) {
    for (int left = entries; left > 0; left--) {
      if (!it.isValid()) {
        it.seekToFirst();
      }
      read(it, key, value, bh);
      it.next();
    }
  }

  /** entries / RANGE range scans through rocksdbjni's iterator, read as {@link #stream}. */
  public void ranges(
      RocksIterator it, int entries, ByteBuffer key, ByteBuffer value, Blackhole bh) {
    for (int r = 0; r < entries / RANGE; r++) {
      it.seek(nextSeekKey());
      for (int i = 0; i < RANGE && it.isValid(); i++) {
        read(it, key, value, bh);
        it.next();
      }
    }
  }

  private static void read(RocksIterator it, ByteBuffer key, ByteBuffer value, Blackhole bh) {
    if (key == null) {
      bh.consume(it.key());
      bh.consume(it.value());
      return;
    }
    key.clear();
    value.clear();
    bh.consume(it.key(key));
    bh.consume(it.value(value));
  }
}
