// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.ffm;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import io.pinget.bench.CursorScans;
import io.pinget.ffm.FfmCursor;
import java.lang.foreign.MemorySegment;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The FFM cursor's scans in CursorScans' two shapes, here once for FfmScanBenchmark and
 * FfmPairedGets. Each entry is read in place as CursorScans reads the JNI cursor's: its key's and
 * value's last byte to the Blackhole. A segment handed to the Blackhole would escape, and the JIT
 * could not scalar-replace it (81 B per entry then: two slices).
 */
final class FfmScans {
  private FfmScans() {}

  /** entries entries of a streaming scan, in batches of up to CursorScans.BATCH. */
  static void stream(FfmCursor cursor, int entries, Blackhole bh) {
    for (int left = entries; left > 0; ) {
      int n = cursor.next(Math.min(CursorScans.BATCH, left));
      if (n == 0) {
        cursor.seekToFirst();
        continue;
      }
      read(cursor, n, bh);
      left -= n;
    }
  }

  /** entries / CursorScans.RANGE range scans, each from the next of scans' seek keys. */
  static void ranges(FfmCursor cursor, CursorScans scans, int entries, Blackhole bh) {
    for (int r = 0; r < entries / CursorScans.RANGE; r++) {
      cursor.seek(scans.nextSeekKey());
      read(cursor, cursor.next(CursorScans.RANGE), bh);
    }
  }

  private static void read(FfmCursor cursor, int n, Blackhole bh) {
    for (int i = 0; i < n; i++) {
      MemorySegment k = cursor.key(i);
      MemorySegment v = cursor.value(i);
      bh.consume(k.get(JAVA_BYTE, k.byteSize() - 1));
      bh.consume(v.get(JAVA_BYTE, v.byteSize() - 1));
    }
  }
}
