// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import static io.pinget.TestSupport.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * 8 readers (every strategy, reused handles and batches included) against a writer and flushes:
 * every read is a version that was written for that key.
 */
class ConcurrencyTest {
  private static final int KEYS = 64;
  private static final int READERS = 8;
  private static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(4);

  private Path dir;

  @AfterEach
  void deleteDir() {
    TestSupport.deleteTree(dir);
  }

  /** The value of version v of key k: k and v, then bytes determined by both. */
  static byte[] versionValue(int k, int v) {
    int size = 8 + (v * 37 + k * 101) % 9000;
    byte[] out = TestSupport.value(((long) k << 32) | v, size);
    ByteBuffer.wrap(out).putInt(k).putInt(v);
    return out;
  }

  static byte[] key(int k) {
    return bytes("key-" + k);
  }

  @Test
  void readersSeeOnlyWrittenVersions() throws Exception {
    dir = TestSupport.newDir("concurrency");
    AtomicIntegerArray latest = new AtomicIntegerArray(KEYS); // highest version written
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong reads = new AtomicLong();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    try (Store store = Store.open(dir.resolve("db"), new Options().writeBufferBytes(1 << 20))) {
      for (int k = 0; k < KEYS; k++) {
        store.put(key(k), versionValue(k, 0));
      }
      store.flush();
      List<Thread> threads = new ArrayList<>();
      for (int r = 0; r < READERS; r++) {
        final int id = r;
        threads.add(new Thread(() -> read(store, id, latest, stop, reads, failures)));
      }
      threads.add(
          new Thread(
              () -> {
                try {
                  ThreadLocalRandom random = ThreadLocalRandom.current();
                  for (int n = 0; !stop.get(); n++) {
                    int k = random.nextInt(KEYS);
                    int v = latest.get(k) + 1;
                    if (n % 7 == 0) {
                      try (WriteBatch batch = new WriteBatch()) {
                        store.write(WriteOptions.DEFAULT, batch.put(key(k), versionValue(k, v)));
                      }
                    } else {
                      store.put(key(k), versionValue(k, v));
                    }
                    latest.set(k, v); // after the write: a reader may see v before this
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              }));
      threads.add(
          new Thread(
              () -> {
                try {
                  for (int n = 0; !stop.get(); n++) {
                    Thread.sleep(30);
                    store.flush();
                    if (n % 20 == 19) {
                      store.compact();
                    }
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              }));
      threads.forEach(Thread::start);
      long end = System.nanoTime() + RUN_NANOS;
      while (System.nanoTime() < end && failures.isEmpty()) {
        Thread.sleep(50);
      }
      stop.set(true);
      for (Thread t : threads) {
        t.join(30_000);
      }
    }
    assertEquals(List.of(), failures);
    assertTrue(reads.get() > 1000, "reads: " + reads.get());
    System.out.printf("concurrency: %d reads by %d threads%n", reads.get(), READERS);
  }

  private static void read(
      Store store,
      int id,
      AtomicIntegerArray latest,
      AtomicBoolean stop,
      AtomicLong reads,
      List<Throwable> failures) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    byte[] dst = new byte[10_000];
    ByteBuffer direct = ByteBuffer.allocateDirect(10_000);
    long n = 0;
    try (PinnedView handle = store.newPinnedView();
        PinnedBatch batch = store.newPinnedBatch()) {
      while (!stop.get()) {
        int k = random.nextInt(KEYS);
        int oldest = latest.get(k); // the store holds at least this version now
        byte[] got;
        switch ((id + (int) n) % 7) {
          case 0:
            got = store.stringCopy(key(k));
            break;
          case 1:
            got = store.pinnableCopy(key(k));
            break;
          case 2:
            got = java.util.Arrays.copyOf(dst, store.bufferCopy(key(k), dst, 0, dst.length));
            break;
          case 3:
            {
              int size = store.directCopy(key(k), direct);
              got = new byte[size];
              direct.get(0, got);
              break;
            }
          case 4:
            got = TestSupport.toArray(handle.get(ReadOptions.DEFAULT, TestSupport.direct(key(k))));
            break;
          case 5:
            try (PinnedValue v = store.pinnedValue(key(k))) {
              got = TestSupport.toArray(v.view());
            }
            break;
          default:
            {
              int k2 = (k + 1) % KEYS;
              int oldest2 = latest.get(k2);
              batch.get(new byte[][] {key(k), key(k2)});
              check(k2, oldest2, latest.get(k2) + 1, TestSupport.toArray(batch.value(1)));
              got = TestSupport.toArray(batch.value(0));
            }
        }
        check(k, oldest, latest.get(k) + 1, got); // the writer is at most 1 ahead
        n++;
      }
    } catch (Throwable e) {
      failures.add(e);
    }
    reads.addAndGet(n);
  }

  private static void check(int k, int oldest, int newest, byte[] got) {
    ByteBuffer b = ByteBuffer.wrap(got);
    int gotKey = b.getInt();
    int version = b.getInt();
    assertEquals(k, gotKey, "value of another key");
    assertTrue(
        version >= oldest && version <= newest,
        "version " + version + " not in [" + oldest + ", " + newest + "]");
    assertTrue(
        java.util.Arrays.equals(versionValue(k, version), got),
        "bytes of key " + k + " version " + version);
  }
}
