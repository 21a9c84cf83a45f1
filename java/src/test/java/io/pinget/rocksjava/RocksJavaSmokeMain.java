// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.rocksjava;

import io.pinget.CopyStats;
import io.pinget.PinnedView;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/**
 * README's "Already using RocksJava?" example as a program, run by mvn verify with only the pinget
 * JAR, the rocksdbjni JAR and this class on the class path: RocksJava writes a database, pinget
 * reads it with a reused view, and the copy counters must say 0 for a block-cache value. Exits 1
 * otherwise.
 */
public final class RocksJavaSmokeMain {
  private RocksJavaSmokeMain() {}

  public static void main(String[] args) throws Exception {
    Path dir = args.length > 0 ? Paths.get(args[0]) : Files.createTempDirectory("pinget-rj");
    Files.createDirectories(dir);
    String path = dir.resolve("db").toString();
    byte[] key = "smoke-key".getBytes();
    byte[] stored = new byte[4096];
    Arrays.fill(stored, (byte) 7);
    byte[] dst = new byte[4096];
    RocksDB.loadLibrary();
    boolean ok;
    try (Options options = new Options().setCreateIfMissing(true);
        RocksDB db = RocksDB.open(options, path);
        RocksJavaReader reader = RocksJavaReader.open(db);
        PinnedView view = reader.store().newPinnedView()) {
      db.put(key, stored);
      try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
        db.flush(flush); // into an SST file; the first read caches its block
      }
      view.get(key);
      CopyStats before = CopyStats.current();
      ByteBuffer value = view.get(key);
      long copies = CopyStats.current().minus(before).valueCopies();
      byte[] read = new byte[value.remaining()];
      value.get(read);
      int n = reader.store().bufferCopy(key, dst, 0, dst.length);
      ok =
          copies == 0
              && Arrays.equals(read, stored)
              && n == stored.length
              && Arrays.equals(dst, stored);
      System.out.println(
          "rocksjava smoke: RocksDB "
              + RocksDB.rocksdbVersion()
              + ", pinned view copies "
              + copies
              + ", bytes equal "
              + Arrays.equals(read, stored)
              + (ok ? ": OK" : ": FAILED"));
    }
    System.exit(ok ? 0 : 1);
  }
}
