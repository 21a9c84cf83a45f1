// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;

/**
 * Puts and deletes applied atomically by {@link Store#write}. Copies what it is given. Not
 * thread-safe: one thread at a time, and not while a write of it is in flight. Use after close()
 * throws IllegalStateException.
 */
public final class WriteBatch implements AutoCloseable {
  private long handle;
  private final Cleaner.Cleanable cleanable;

  public WriteBatch() {
    handle = NativeWrite.newBatch();
    long h = handle;
    cleanable = Cleaners.CLEANER.register(this, () -> NativeWrite.freeBatch(h));
  }

  public WriteBatch put(byte[] key, byte[] value) {
    return put(0, key, 0, key.length, value, 0, value.length);
  }

  public WriteBatch put(
      int columnFamily, byte[] key, int keyOff, int keyLen, byte[] value, int off, int len) {
    Checks.range(key, keyOff, keyLen, "key");
    Checks.range(value, off, len, "value");
    try {
      NativeWrite.batchPut(
          handle(), columnFamily, key, null, keyOff, keyLen, value, null, off, len);
    } finally {
      Reference.reachabilityFence(this);
    }
    return this;
  }

  /** Key and value are read from position to limit of direct buffers. */
  public WriteBatch put(int columnFamily, ByteBuffer key, ByteBuffer value) {
    Checks.direct(key, "key");
    Checks.direct(value, "value");
    try {
      NativeWrite.batchPut(
          handle(),
          columnFamily,
          null,
          key,
          key.position(),
          key.remaining(),
          null,
          value,
          value.position(),
          value.remaining());
    } finally {
      Reference.reachabilityFence(this);
    }
    return this;
  }

  public WriteBatch delete(byte[] key) {
    return delete(0, key, 0, key.length);
  }

  public WriteBatch delete(int columnFamily, byte[] key, int keyOff, int keyLen) {
    Checks.range(key, keyOff, keyLen, "key");
    try {
      NativeWrite.batchDelete(handle(), columnFamily, key, null, keyOff, keyLen);
    } finally {
      Reference.reachabilityFence(this);
    }
    return this;
  }

  public WriteBatch delete(int columnFamily, ByteBuffer key) {
    Checks.direct(key, "key");
    try {
      NativeWrite.batchDelete(handle(), columnFamily, null, key, key.position(), key.remaining());
    } finally {
      Reference.reachabilityFence(this);
    }
    return this;
  }

  public void clear() {
    try {
      NativeWrite.batchClear(handle());
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  public int count() {
    try {
      return NativeWrite.batchCount(handle());
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  long handle() {
    if (handle == 0) {
      throw new IllegalStateException("WriteBatch is closed");
    }
    return handle;
  }

  /** Frees the batch; idempotent. */
  @Override
  public void close() {
    handle = 0;
    cleanable.clean();
  }
}
