// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * How a Kafka key is stored in pinget: one tag byte (0) before it. Kafka allows an empty key (a
 * String serde's ""), pinget does not; the tag makes every stored key non-empty and keeps Kafka's
 * order (unsigned bytewise, as {@code Bytes.compareTo} and RocksDB's comparator), since every
 * stored key starts with it.
 *
 * <p>Point reads put the tagged key into a per-thread direct buffer (one copy of the key's bytes,
 * no allocation; pinget reads the key in place from it); writes and a scan's bounds make tagged
 * arrays.
 */
final class Keys {
  static final byte TAG = 0;

  /** The smallest stored key and the first key past every stored one: a whole store's bounds. */
  static final byte[] FIRST = {TAG};

  static final byte[] PAST_ALL = {TAG + 1};

  private Keys() {}

  private static final ThreadLocal<ByteBuffer[]> SCRATCH =
      ThreadLocal.withInitial(() -> new ByteBuffer[] {ByteBuffer.allocateDirect(256)});

  /**
   * The tagged key in this thread's direct buffer (position 0, limit its length). Valid until the
   * thread's next call: a read hands it to pinget and is done with it before it returns, and a
   * decoder that reads again through the store takes the buffer only after pinget has read the key.
   */
  static ByteBuffer direct(byte[] key) {
    ByteBuffer[] slot = SCRATCH.get();
    ByteBuffer b = slot[0];
    if (b.capacity() < key.length + 1) {
      b = ByteBuffer.allocateDirect(Math.max(key.length + 1, 2 * b.capacity()));
      slot[0] = b;
    }
    b.clear();
    b.put(TAG).put(key).flip();
    return b;
  }

  /** A new array: the tag, then key. */
  static byte[] stored(byte[] key) {
    byte[] out = new byte[key.length + 1];
    out[0] = TAG;
    System.arraycopy(key, 0, out, 1, key.length);
    return out;
  }

  /** The lower bound of a scan from key, inclusive; null: the first stored key. */
  static byte[] from(byte[] key) {
    return key == null ? FIRST : stored(key);
  }

  /**
   * The upper bound (exclusive, as pinget's cursor takes it) of a scan to key inclusive: the tagged
   * key with a 0 byte after it, the first key past it; null: past every stored key.
   */
  static byte[] through(byte[] key) {
    return key == null ? PAST_ALL : Arrays.copyOf(stored(key), key.length + 2);
  }

  /** The first stored key past every key that starts with prefix (tagged): a prefix scan's end. */
  static byte[] pastPrefix(byte[] tagged) {
    int end = tagged.length;
    while (tagged[end - 1] == (byte) 0xff) {
      end--; // the tag (0) ends it at the latest
    }
    byte[] out = Arrays.copyOf(tagged, end);
    out[end - 1]++;
    return out;
  }

  /** The Kafka key of a stored key's view (its position unchanged): a new array. */
  static byte[] kafkaKey(ByteBuffer stored) {
    byte[] out = new byte[stored.remaining() - 1];
    stored.get(stored.position() + 1, out);
    return out;
  }
}
