// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import io.pinget.internal.Checks;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;

/**
 * Puts and deletes applied atomically by {@link Store#write}, each to its own column family. Copies
 * the keys and values it is given (into native memory). Not thread-safe: one thread at a time, and
 * not while a write of it is in flight. Use after {@link #close()} throws IllegalStateException; a
 * batch never closed is freed by a Cleaner.
 */
public final class WriteBatch implements AutoCloseable {
  private long handle;
  private final Cleaner.Cleanable cleanable;
  private Object owner; // the store of the column families used, if any but DEFAULT

  /** An empty batch. */
  public WriteBatch() {
    handle = NativeWrite.newBatch();
    long h = handle;
    cleanable = Cleaners.CLEANER.register(this, () -> NativeWrite.freeBatch(h));
  }

  /**
   * Adds a put of the whole key and value to the default column family.
   *
   * @param key not null, not empty
   * @param value not null; may be empty
   * @return this batch
   */
  public WriteBatch put(byte[] key, byte[] value) {
    return put(ColumnFamily.DEFAULT, key, value);
  }

  /**
   * Adds a put of the whole key and value.
   *
   * @param columnFamily not null; all of a batch's column families belong to one store
   * @param key not null, not empty
   * @param value not null; may be empty
   * @return this batch
   */
  public WriteBatch put(ColumnFamily columnFamily, byte[] key, byte[] value) {
    return put(
        columnFamily,
        key,
        0,
        key == null ? 0 : key.length,
        value,
        0,
        value == null ? 0 : value.length);
  }

  /**
   * Adds a put of key[keyOff, keyOff + keyLen) and value[off, off + len).
   *
   * @param columnFamily not null; all of a batch's column families belong to one store
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @param value not null
   * @param off start of the value in value
   * @param len the value's length
   * @return this batch
   * @throws IndexOutOfBoundsException if a range lies outside its array
   */
  public WriteBatch put(
      ColumnFamily columnFamily,
      byte[] key,
      int keyOff,
      int keyLen,
      byte[] value,
      int off,
      int len) {
    long h = handle();
    Checks.batchFamily(columnFamily, owner);
    Checks.key(key, keyOff, keyLen);
    Checks.range(value, off, len, "value");
    int cf = claim(columnFamily);
    try {
      NativeWrite.batchPut(h, cf, key, null, keyOff, keyLen, value, null, off, len);
    } finally {
      Reference.reachabilityFence(this);
    }
    return this;
  }

  /**
   * Adds a put of a key and a value read from position to limit of direct buffers (positions are
   * left unchanged).
   *
   * @param columnFamily not null; all of a batch's column families belong to one store
   * @param key a direct buffer, not null
   * @param value a direct buffer, not null
   * @return this batch
   */
  public WriteBatch put(ColumnFamily columnFamily, ByteBuffer key, ByteBuffer value) {
    long h = handle();
    Checks.batchFamily(columnFamily, owner);
    Checks.key(key);
    Checks.direct(value, "value");
    int cf = claim(columnFamily);
    try {
      NativeWrite.batchPut(
          h,
          cf,
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

  /**
   * Adds a delete of the whole key from the default column family.
   *
   * @param key not null, not empty
   * @return this batch
   */
  public WriteBatch delete(byte[] key) {
    return delete(ColumnFamily.DEFAULT, key, 0, key == null ? 0 : key.length);
  }

  /**
   * Adds a delete of key[keyOff, keyOff + keyLen).
   *
   * @param columnFamily not null; all of a batch's column families belong to one store
   * @param key not null
   * @param keyOff start of the key in key
   * @param keyLen the key's length, more than 0
   * @return this batch
   * @throws IndexOutOfBoundsException if the range lies outside key
   */
  public WriteBatch delete(ColumnFamily columnFamily, byte[] key, int keyOff, int keyLen) {
    long h = handle();
    Checks.batchFamily(columnFamily, owner);
    Checks.key(key, keyOff, keyLen);
    int cf = claim(columnFamily);
    try {
      NativeWrite.batchDelete(h, cf, key, null, keyOff, keyLen);
    } finally {
      Reference.reachabilityFence(this);
    }
    return this;
  }

  /**
   * Adds a delete of a key read from position to limit of a direct buffer.
   *
   * @param columnFamily not null; all of a batch's column families belong to one store
   * @param key a direct buffer, not null
   * @return this batch
   */
  public WriteBatch delete(ColumnFamily columnFamily, ByteBuffer key) {
    long h = handle();
    Checks.batchFamily(columnFamily, owner);
    Checks.key(key);
    int cf = claim(columnFamily);
    try {
      NativeWrite.batchDelete(h, cf, null, key, key.position(), key.remaining());
    } finally {
      Reference.reachabilityFence(this);
    }
    return this;
  }

  /** Removes every operation; the batch stays usable. */
  public void clear() {
    try {
      NativeWrite.batchClear(handle());
      owner = null;
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /**
   * The operations added since creation or {@link #clear()}.
   *
   * @return the number of puts and deletes
   */
  public int count() {
    try {
      return NativeWrite.batchCount(handle());
    } finally {
      Reference.reachabilityFence(this);
    }
  }

  /** The store whose column families the batch uses (null: only DEFAULT). */
  Object owner() {
    return owner;
  }

  /** Makes the family's store the batch's (once every argument is checked) and returns its id. */
  private int claim(ColumnFamily columnFamily) {
    Object of = columnFamily.owner();
    if (of != null) {
      owner = of;
    }
    return columnFamily.idIn(of);
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
