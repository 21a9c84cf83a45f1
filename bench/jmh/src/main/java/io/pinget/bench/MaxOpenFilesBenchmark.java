// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench;

import io.pinget.Options;
import io.pinget.PinnedView;
import io.pinget.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * What {@code Options.maxOpenFiles} does to a point lookup: a database of many SST files (written
 * by rocksdbjni with 256 KiB target files, then compacted: about 60 files of disjoint key ranges),
 * read at random through pinget's reused pinned view with every file kept open (-1, RocksDB's
 * default) and with RocksDB's smallest bound (20, of which RocksDB keeps 10 for itself). A lookup
 * in a file that is not open reopens it: footer, index and filter read again.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MaxOpenFilesBenchmark {
  private static final int KEYS = 100_000;
  private static final int VALUE_BYTES = 128;

  @Param({"-1", "20"})
  public int maxOpenFiles;

  private Path dir;
  private Store store;
  private PinnedView view;
  private byte[][] keys;
  private int[] order;
  private int pos;

  @Setup(Level.Trial)
  public void setUp() throws IOException, RocksDBException {
    dir = Files.createTempDirectory("pinget-max-open-files");
    keys = new byte[KEYS][];
    for (int i = 0; i < KEYS; i++) {
      keys[i] = String.format("key%012d", i).getBytes(StandardCharsets.US_ASCII);
    }
    RocksDB.loadLibrary();
    try (org.rocksdb.Options o =
            new org.rocksdb.Options()
                .setCreateIfMissing(true)
                .setTargetFileSizeBase(256 << 10)
                .setCompressionType(CompressionType.NO_COMPRESSION);
        RocksDB db = RocksDB.open(o, dir.resolve("db").toString());
        WriteOptions wo = new WriteOptions().setDisableWAL(true);
        CompactRangeOptions all = new CompactRangeOptions()) {
      byte[] value = new byte[VALUE_BYTES];
      Random random = new Random(42);
      for (byte[] key : keys) {
        random.nextBytes(value);
        db.put(wo, key, value);
      }
      db.compactRange(
          db.getDefaultColumnFamily(),
          null,
          null,
          all.setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForce));
      System.out.println("SST files: " + db.getLiveFilesMetaData().size());
    }
    store = Store.open(dir.resolve("db"), new Options().maxOpenFiles(maxOpenFiles));
    view = store.newPinnedView();
    order = new Random(7).ints(KEYS, 0, KEYS).toArray();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    view.close();
    store.close();
    DataSet.deleteTree(dir);
  }

  @Benchmark
  public Object pinnedView() {
    int k = order[pos];
    if (++pos == order.length) {
      pos = 0;
    }
    return view.get(keys[k]);
  }
}
