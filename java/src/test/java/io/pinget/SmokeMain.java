// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import io.pinget.contract.StrategyTable;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;

/**
 * Runs against the plain JAR (no java.library.path): opens a store, writes, reads with every
 * strategy and prints the copy counts, checked against docs/strategies.md (so it runs in the
 * repository or a folder below it). Exits 1 on any mismatch.
 *
 * <p>{@code java -cp target/pinget-0.1.0-SNAPSHOT.jar:target/test-classes io.pinget.SmokeMain [dir
 * [--non-ascii]]}
 *
 * <p>{@code --non-ascii}: the store goes in a folder {@value #NON_ASCII} under dir (named here, not
 * on the command line, which Java on Windows reads in the ANSI code page).
 */
public final class SmokeMain {
  static final String NON_ASCII = "Z\u00fcrich-\u6771\u4eac";

  private SmokeMain() {}

  public static void main(String[] args) throws Exception {
    Path dir = args.length > 0 ? Paths.get(args[0]) : Files.createTempDirectory("pinget-smoke");
    if (args.length > 1 && args[1].equals("--non-ascii")) {
      dir = dir.resolve(NON_ASCII);
    }
    Files.createDirectories(dir);
    byte[] key = "smoke-key".getBytes();
    byte[] value = new byte[4096];
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) (i * 31 + 7);
    }
    boolean ok = true;
    System.out.println(
        "rocksdb " + Store.rocksdbVersion() + ", views re-pointed: " + PinnedView.VIEWS_REPOINTED);
    System.out.println(
        "platform " + NativeLibrary.platform() + ", library from " + NativeLibrary.loadedFrom());
    try (Store store = Store.open(dir.resolve("db"))) {
      store.put(key, value);
      ok &= readAll(store, key, value, "memtable");
      store.flush();
      ok &= readAll(store, key, value, "block_cache");
      ok &= store.stringCopy("missing".getBytes()) == null;
      ok &= readInWindows(store, key, value);
    }
    System.out.println(ok ? "smoke: OK" : "smoke: FAILED");
    if (!ok) {
      System.exit(1);
    }
  }

  private static boolean readAll(Store store, byte[] key, byte[] value, String residency) {
    boolean ok = true;
    byte[] dst = new byte[value.length];
    ByteBuffer direct = ByteBuffer.allocateDirect(value.length);
    try (PinnedView handle = store.newPinnedView()) {
      for (Strategy strategy : Strategy.values()) {
        Strategy.Into into = new Strategy.Into(handle, dst, direct);
        strategy.read(store, into, key); // warms per-thread and handle buffers
        CopyStats before = CopyStats.current();
        byte[] got = strategy.bytes(store, into, key);
        CopyStats counted = CopyStats.current().minus(before);
        int p = residency.equals("memtable") ? 1 : 0;
        boolean same = Arrays.equals(got, value);
        StrategyTable.Row row = StrategyTable.get("jni", strategy.token());
        boolean counts =
            counted.valueCopies() == row.copies(p) && counted.allocations() == row.allocations(p);
        ok &= same && counts;
        System.out.printf(
            "%-12s %-14s copies=%d bytes=%d keyCopies=%d allocations=%d %s%n",
            residency,
            strategy.token(),
            counted.valueCopies(),
            counted.valueBytesCopied(),
            counted.keyCopies(),
            counted.allocations(),
            same ? (counts ? "ok" : "WRONG COUNT") : "WRONG BYTES");
      }
    }
    return ok;
  }

  /**
   * directCopy with a direct key and a direct destination, each a window that starts past its
   * buffer's byte 0 (so that an address taken at the buffer's start, not its position, reads the
   * wrong key or writes outside the window): the bytes land in the window, and around it nothing
   * changes.
   */
  private static boolean readInWindows(Store store, byte[] key, byte[] value) {
    ByteBuffer keys = ByteBuffer.allocateDirect(key.length + 16);
    keys.position(7);
    keys.put(key);
    keys.position(7).limit(7 + key.length);
    ByteBuffer dst = ByteBuffer.allocateDirect(value.length + 64);
    dst.position(32).limit(32 + value.length);
    int size = store.directCopy(ReadOptions.DEFAULT, keys, dst);
    boolean unmoved = dst.position() == 32 && keys.position() == 7;
    dst.clear();
    byte[] got = new byte[value.length];
    dst.get(32, got);
    boolean untouched = true;
    for (int i = 0; i < 32; i++) {
      untouched &= dst.get(i) == 0 && dst.get(32 + value.length + i) == 0;
    }
    boolean ok = size == value.length && Arrays.equals(got, value) && untouched && unmoved;
    System.out.println("windows      direct_copy    " + (ok ? "ok" : "WRONG BYTES"));
    // The same window as a batch's destination, beside a missing key's.
    ByteBuffer batchDst = ByteBuffer.allocateDirect(value.length + 64);
    batchDst.position(32).limit(32 + value.length);
    ByteBuffer[] dsts = {ByteBuffer.allocateDirect(8), batchDst};
    int[] sizes = new int[2];
    store.multiGetDirectCopy(
        ReadOptions.DEFAULT, new byte[][] {"missing".getBytes(), key}, dsts, sizes);
    batchDst.clear();
    byte[] batchGot = new byte[value.length];
    batchDst.get(32, batchGot);
    boolean batchOk =
        sizes[0] == Reader.NOT_FOUND
            && sizes[1] == value.length
            && Arrays.equals(batchGot, value)
            && batchDst.get(31) == 0
            && batchDst.get(32 + value.length) == 0;
    System.out.println("windows      multi direct   " + (batchOk ? "ok" : "WRONG BYTES"));
    return ok && batchOk;
  }
}
