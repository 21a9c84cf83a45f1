// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Soak: CYCLES get/pin/release cycles per strategy on a small block-cache-resident data set,
 * sampling the process's resident set (VmRSS) before and after each strategy (after a warm-up of
 * 100,000 cycles). Then 100,000 PinnedValues are left unclosed, the store is closed, and the
 * Cleaner must release them all: PinnedValue.releasedByCleaner() grows by 100,000 and the database
 * can be opened again (the API has no live-pin counter; a pin still alive would keep the closed
 * database open and its LOCK held, so a successful reopen shows none is left). Exits 1 if a
 * strategy's RSS grows by more than the bound or a read returns wrong bytes.
 *
 * <p>Run by test/soak against the plain JAR, without -Xcheck:jni (a measurement), with a fixed,
 * pre-touched heap so that RSS growth is native memory, not heap expansion: {@code java -Xms256m
 * -Xmx256m -XX:+AlwaysPreTouch -XX:+UseSerialGC -cp pinget.jar:test-classes io.pinget.SoakMain
 * [cycles [dir]]}. {@code -Dpinget.soak.rssBoundMiB=N} changes the bound (default 64).
 */
public final class SoakMain {
  private static final int KEYS = 1024;
  private static final int VALUE_SIZE = 1024;
  private static final int BATCH = 8;
  private static final int WARMUP = 100_000;
  private static final int FORGOTTEN = 100_000;

  private final byte[][] keys = new byte[KEYS][];
  private final byte[][] values = new byte[KEYS][];
  private final byte[][][] batches = new byte[KEYS][][];
  private final List<String> names = new ArrayList<>();
  private final List<Loop> loops = new ArrayList<>();
  private final Store store;
  private long checksum; // every value read feeds it: nothing is optimized away

  private SoakMain(Store store) {
    this.store = store;
    for (int i = 0; i < KEYS; i++) {
      keys[i] = String.format(Locale.ROOT, "soak-%04d", i).getBytes(StandardCharsets.UTF_8);
      values[i] = value(i);
    }
    for (int i = 0; i < KEYS; i++) {
      batches[i] = new byte[BATCH][];
      for (int j = 0; j < BATCH; j++) {
        batches[i][j] = keys[(i + j * 131) % KEYS];
      }
    }
  }

  private static byte[] value(int i) {
    byte[] v = new byte[VALUE_SIZE];
    long x = i * 0x9E3779B97F4A7C15L + 1;
    for (int j = 0; j < v.length; j++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      v[j] = (byte) x;
    }
    return v;
  }

  /** One strategy: run(n) makes n cycles starting at cycle 0. */
  private interface Loop {
    void run(long n);
  }

  /** Checks a byte of what was read (all of it every 65,536th cycle). */
  private void check(long cycle, int k, ByteBuffer got) {
    if (got == null || got.remaining() != VALUE_SIZE) {
      throw new AssertionError("cycle " + cycle + ": wrong size for key " + k);
    }
    int j = (int) (cycle & (VALUE_SIZE - 1));
    if (got.get(got.position() + j) != values[k][j]) {
      throw new AssertionError("cycle " + cycle + ": wrong byte " + j + " of key " + k);
    }
    if ((cycle & 0xFFFF) == 0) {
      byte[] all = new byte[VALUE_SIZE];
      got.duplicate().get(all);
      if (!Arrays.equals(all, values[k])) {
        throw new AssertionError("cycle " + cycle + ": wrong bytes for key " + k);
      }
    }
    checksum += got.get(got.position() + j);
  }

  private void check(long cycle, int k, byte[] got) {
    if (got == null || got.length != VALUE_SIZE) {
      throw new AssertionError("cycle " + cycle + ": wrong size for key " + k);
    }
    int j = (int) (cycle & (VALUE_SIZE - 1));
    if (got[j] != values[k][j] || ((cycle & 0xFFFF) == 0 && !Arrays.equals(got, values[k]))) {
      throw new AssertionError("cycle " + cycle + ": wrong bytes for key " + k);
    }
    checksum += got[j];
  }

  private void add(String name, Loop loop) {
    names.add(name);
    loops.add(loop);
  }

  private void defineLoops(PinnedView handle, PinnedBatch batch) {
    byte[] dst = new byte[VALUE_SIZE];
    ByteBuffer direct = ByteBuffer.allocateDirect(VALUE_SIZE);
    add(
        "string_copy",
        n -> {
          for (long c = 0; c < n; c++) {
            int k = (int) (c % KEYS);
            check(c, k, store.stringCopy(keys[k]));
          }
        });
    add(
        "pinnable_copy",
        n -> {
          for (long c = 0; c < n; c++) {
            int k = (int) (c % KEYS);
            check(c, k, store.pinnableCopy(keys[k]));
          }
        });
    add(
        "buffer_copy",
        n -> {
          for (long c = 0; c < n; c++) {
            int k = (int) (c % KEYS);
            if (store.bufferCopy(keys[k], dst, 0, dst.length) != VALUE_SIZE) {
              throw new AssertionError("buffer_copy size");
            }
            check(c, k, dst);
          }
        });
    add(
        "direct_copy",
        n -> {
          for (long c = 0; c < n; c++) {
            int k = (int) (c % KEYS);
            if (store.directCopy(keys[k], direct) != VALUE_SIZE) {
              throw new AssertionError("direct_copy size");
            }
            check(c, k, direct);
          }
        });
    add(
        "pinned_view (reused PinnedView)",
        n -> {
          for (long c = 0; c < n; c++) {
            int k = (int) (c % KEYS);
            check(c, k, handle.get(keys[k]));
            if ((c & 1023) == 1023) {
              handle.release();
            }
          }
        });
    add(
        "pinned_view (PinnedValue per call)",
        n -> {
          for (long c = 0; c < n; c++) {
            int k = (int) (c % KEYS);
            try (PinnedValue v = store.pinnedValue(keys[k])) {
              check(c, k, v.view());
            }
          }
        });
    add(
        "pinned_batch (" + BATCH + " keys per cycle)",
        n -> {
          for (long c = 0; c < n; c++) {
            int b = (int) (c % KEYS);
            if (batch.get(batches[b]) != BATCH) {
              throw new AssertionError("batch count");
            }
            int j = (int) (c & (BATCH - 1));
            check(c, (b + j * 131) % KEYS, batch.value(j));
            if ((c & 1023) == 1023) {
              batch.release();
            }
          }
        });
  }

  /** The process's resident set in KiB, from /proc/self/status. */
  static long rssKib() {
    try {
      for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    throw new IllegalStateException("no VmRSS in /proc/self/status");
  }

  private static long settledRssKib() throws InterruptedException {
    System.gc();
    Thread.sleep(100);
    return rssKib();
  }

  private static String mib(long kib) {
    return String.format(Locale.ROOT, "%.1f", kib / 1024.0);
  }

  public static void main(String[] args) throws Exception {
    long cycles = args.length > 0 ? Long.parseLong(args[0].replace("_", "")) : 10_000_000L;
    Path dir = args.length > 1 ? Paths.get(args[1]) : Files.createTempDirectory("pinget-soak");
    long boundMib = Long.getLong("pinget.soak.rssBoundMiB", 64);
    Files.createDirectories(dir);
    Path db = dir.resolve("db");
    boolean ok = true;
    System.out.printf(
        Locale.ROOT,
        "pinget soak: %,d cycles per strategy after %,d warm-up cycles; %d keys of %d bytes in the"
            + " block cache; RSS growth bound %d MiB; max heap %d MiB%n",
        cycles,
        WARMUP,
        KEYS,
        VALUE_SIZE,
        boundMib,
        Runtime.getRuntime().maxMemory() >> 20);
    String header =
        String.format(
            Locale.ROOT,
            "%-36s %12s %9s %10s %14s %13s %12s",
            "strategy",
            "cycles",
            "seconds",
            "ns/cycle",
            "RSS before MiB",
            "RSS after MiB",
            "growth MiB");
    System.out.println(header);
    Store store = Store.open(db);
    SoakMain soak = new SoakMain(store);
    for (int i = 0; i < KEYS; i++) {
      store.put(soak.keys[i], soak.values[i]);
    }
    store.flush();
    try (PinnedView handle = store.newPinnedView();
        PinnedBatch batch = store.newPinnedBatch()) {
      soak.defineLoops(handle, batch);
      for (int i = 0; i < soak.loops.size(); i++) {
        Loop loop = soak.loops.get(i);
        loop.run(WARMUP);
        long before = settledRssKib();
        long start = System.nanoTime();
        loop.run(cycles);
        double seconds = (System.nanoTime() - start) / 1e9;
        long after = settledRssKib();
        boolean within = after - before <= boundMib * 1024;
        ok &= within;
        System.out.printf(
            Locale.ROOT,
            "%-36s %,12d %9.1f %10.0f %14s %13s %12s%s%n",
            soak.names.get(i),
            cycles,
            seconds,
            seconds * 1e9 / cycles,
            mib(before),
            mib(after),
            mib(after - before),
            within ? "" : "  OVER THE BOUND");
      }
    }

    // Forgotten pins: 100,000 live at once, then unreachable, then the store closed.
    long released = PinnedValue.releasedByCleaner();
    long before = settledRssKib();
    long start = System.nanoTime();
    PinnedValue[] held = new PinnedValue[FORGOTTEN];
    for (int i = 0; i < FORGOTTEN; i++) {
      held[i] = store.pinnedValue(soak.keys[i % KEYS]);
    }
    long live = rssKib();
    held = null;
    store.close();
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (PinnedValue.releasedByCleaner() - released < FORGOTTEN && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(50);
    }
    long cleaned = PinnedValue.releasedByCleaner() - released;
    boolean reopened = false;
    while (!reopened && System.nanoTime() < deadline) {
      try (Store again = Store.open(db)) {
        reopened = again.stringCopy(soak.keys[0]) != null;
      } catch (PingetException stillLocked) {
        System.gc();
        Thread.sleep(50);
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long after = settledRssKib();
    boolean within = after - before <= boundMib * 1024;
    ok &= cleaned == FORGOTTEN && reopened && within;
    System.out.printf(
        Locale.ROOT,
        "%-36s %,12d %9.1f %10s %14s %13s %12s%s%n",
        "forgotten PinnedValues (Cleaner)",
        FORGOTTEN,
        seconds,
        "-",
        mib(before),
        mib(after),
        mib(after - before),
        within ? "" : "  OVER THE BOUND");
    System.out.printf(
        Locale.ROOT,
        "forgotten PinnedValues: RSS with all %,d live %s MiB; released by the Cleaner: %,d of %,d;"
            + " database reopened after the store closed: %s%n",
        FORGOTTEN,
        mib(live),
        cleaned,
        FORGOTTEN,
        reopened ? "yes (no pin left)" : "NO (a pin still holds it)");
    System.out.println("checksum " + soak.checksum);
    System.out.println(ok ? "soak: OK" : "soak: FAILED");
    if (!ok) {
      System.exit(1);
    }
  }
}
