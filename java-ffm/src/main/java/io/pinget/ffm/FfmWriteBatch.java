// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import io.pinget.ColumnFamily;
import io.pinget.internal.Checks;
import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.util.Objects;

/**
 * Puts and deletes applied atomically by {@link FfmStore#write}, each to its own column family (all
 * of one store); the batch copies the keys and values it is given. Each call checks the batch, then
 * its arguments in order, as the JNI API's {@code WriteBatch} does: a refused call adds nothing.
 * Not thread-safe.
 */
public final class FfmWriteBatch implements AutoCloseable {
  private final Slots slots = new Slots();
  private final MemorySegment handle;
  private final Cleaner.Cleanable cleanable;
  private boolean closed;
  private Object owner; // the store of the column families used, if any but DEFAULT

  /** An empty batch. */
  public FfmWriteBatch() {
    handle = Native.create(Native.WRITE_BATCH_CREATE, slots);
    cleanable = Native.destroyWhenUnreachable(this, Native.WRITE_BATCH_DESTROY, handle);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("write batch is closed");
    }
  }

  /**
   * Adds a put into the default column family.
   *
   * @param key not null, not empty
   * @param value not null
   * @return this
   */
  public FfmWriteBatch put(byte[] key, byte[] value) {
    return put(ColumnFamily.DEFAULT, key, value);
  }

  /**
   * Adds a put.
   *
   * @param columnFamily not null; all of a batch's column families belong to one store
   * @param key not null, not empty
   * @param value not null
   * @return this
   */
  public FfmWriteBatch put(ColumnFamily columnFamily, byte[] key, byte[] value) {
    checkOpen();
    Checks.batchFamily(columnFamily, owner);
    Checks.key(key, 0, key == null ? 0 : key.length);
    Objects.requireNonNull(value, "value");
    int cf = claim(columnFamily);
    try {
      // Copied into the batch in place (a memcpy: nothing allocated in Java after it).
      Native.check(
          (int)
              Native.WRITE_BATCH_PUT.invokeExact(
                  handle,
                  cf,
                  MemorySegment.ofArray(key),
                  (long) key.length,
                  MemorySegment.ofArray(value),
                  (long) value.length,
                  slots.message),
          slots.message);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
    return this;
  }

  /**
   * Adds a delete from the default column family.
   *
   * @param key not null, not empty
   * @return this
   */
  public FfmWriteBatch delete(byte[] key) {
    return delete(ColumnFamily.DEFAULT, key);
  }

  /**
   * Adds a delete.
   *
   * @param columnFamily not null; all of a batch's column families belong to one store
   * @param key not null, not empty
   * @return this
   */
  public FfmWriteBatch delete(ColumnFamily columnFamily, byte[] key) {
    checkOpen();
    Checks.batchFamily(columnFamily, owner);
    Checks.key(key, 0, key == null ? 0 : key.length);
    int cf = claim(columnFamily);
    try {
      Native.check(
          (int)
              Native.WRITE_BATCH_DELETE.invokeExact(
                  handle, cf, MemorySegment.ofArray(key), (long) key.length, slots.message),
          slots.message);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
    return this;
  }

  /** Makes the family's store the batch's (once every argument is checked) and returns its id. */
  private int claim(ColumnFamily columnFamily) {
    Object of = columnFamily.owner();
    if (of != null) {
      owner = of;
    }
    return columnFamily.idIn(of);
  }

  /** The store whose column families the batch uses (null: only DEFAULT). */
  Object owner() {
    return owner;
  }

  /**
   * Operations in the batch.
   *
   * @return the count
   */
  public long count() {
    checkOpen();
    try {
      return (long) Native.WRITE_BATCH_COUNT.invokeExact(handle);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  /** Empties the batch. */
  public void clear() {
    checkOpen();
    owner = null;
    try {
      Native.check(
          (int) Native.WRITE_BATCH_CLEAR.invokeExact(handle, slots.message), slots.message);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
  }

  MemorySegment handle() {
    checkOpen();
    return handle;
  }

  /** Frees the batch. Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      cleanable.clean();
    }
  }
}
