// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.ffm;

import io.pinget.Store;
import io.pinget.bench.DataSet;
import io.pinget.bench.NativeControls;
import io.pinget.ffm.FfmStore;
import java.nio.ByteBuffer;
import org.rocksdb.RocksDB;

/**
 * The FFM suite's data: a block-cache {@link DataSet} (pinget's Store, read through its JNI door
 * and, over the same Store, its FFM door, and rocksdbjni's database) with the FFM benchmarks' views
 * of it.
 *
 * <p>Shape {@code keys}: {@code keys} keys of {@code valueSize} bytes, visited in the data set's
 * shuffled order. Shape {@code hot_key}: one key with a 26-byte value, read again and again, where
 * the crossing and not the lookup is the cost (rocksdb-ffm's published configuration); valueSize is
 * then ignored.
 */
final class FfmData implements AutoCloseable {
  /** Gets per call of the native loops. */
  static final int LOOP = 64;

  static final int HOT_VALUE_BYTES = 26;

  final int count; // keys, and positions of the visiting order
  final int valueSize;
  final byte[][] sorted; // the keys in key order (CursorScans' seek keys)
  final byte[][] ordered; // the visiting order, then its first LOOP keys again
  final ByteBuffer[] directKeys; // as ordered
  final FfmStore ffm;
  final Store jni;
  final RocksDB rocks;
  final org.rocksdb.ReadOptions rocksRead;
  final NativeControls.KeyLoop loop;

  private final DataSet data;

  FfmData(String shape, int keys, int requestedSize) {
    boolean hot = "hot_key".equals(shape);
    if (!hot && !"keys".equals(shape)) {
      throw new IllegalArgumentException("shape " + shape + ": keys or hot_key");
    }
    valueSize = hot ? HOT_VALUE_BYTES : requestedSize;
    data = new DataSet(hot ? 1 : keys, valueSize, DataSet.BLOCK_CACHE);
    count = data.keys.length;
    sorted = data.keys;
    ordered = new byte[count + LOOP][];
    directKeys = new ByteBuffer[ordered.length];
    for (int i = 0; i < ordered.length; i++) {
      int k = data.order[i % count];
      ordered[i] = data.keys[k];
      directKeys[i] = data.directKeys[k];
    }
    jni = data.store;
    ffm = FfmStore.over(jni);
    rocks = data.rocks;
    rocksRead = new org.rocksdb.ReadOptions();
    loop = NativeControls.keyLoop(jni, ordered);
  }

  /**
   * The visiting order cut into batches of {@code batch} keys (at least one batch: a hot key's
   * batch is the one key, batch times).
   */
  byte[][][] batches(int batch) {
    byte[][][] batches = new byte[Math.max(1, count / batch)][batch][];
    for (int b = 0; b < batches.length; b++) {
      for (int i = 0; i < batch; i++) {
        batches[b][i] = ordered[(b * batch + i) % count];
      }
    }
    return batches;
  }

  @Override
  public void close() {
    loop.close();
    rocksRead.close();
    data.close(); // and so ffm
  }
}
