// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;


import java.lang.foreign.MemorySegment;
import java.lang.ref.Cleaner;
import java.util.Objects;

/**
 * Puts and deletes applied atomically by {@link FfmStore#write}; the batch copies the keys and
 * values it is given. Arguments are checked by the write, which then applies nothing. Not
 * thread-safe.
 */
public final class FfmWriteBatch implements AutoCloseable {
  private final Slots slots = new Slots();
  private final MemorySegment handle;
  private final Cleaner.Cleanable cleanable;
  private boolean closed;

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
   * Adds a put.
   *
   * @param columnFamily from {@link FfmStore#columnFamilyId}; 0 is "default"
   * @param key not null
   * @param value not null
   * @return this
   */
  public FfmWriteBatch put(int columnFamily, byte[] key, byte[] value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    checkOpen();
    try {
      // Copied into the batch in place (a memcpy: nothing allocated in Java after it).
      Native.check(
          (int)
              Native.WRITE_BATCH_PUT.invokeExact(
                  handle,
                  columnFamily,
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
   * Adds a delete.
   *
   * @param columnFamily from {@link FfmStore#columnFamilyId}; 0 is "default"
   * @param key not null
   * @return this
   */
  public FfmWriteBatch delete(int columnFamily, byte[] key) {
    Objects.requireNonNull(key, "key");
    checkOpen();
    try {
      Native.check(
          (int)
              Native.WRITE_BATCH_DELETE.invokeExact(
                  handle,
                  columnFamily,
                  MemorySegment.ofArray(key),
                  (long) key.length,
                  slots.message),
          slots.message);
    } catch (Throwable t) {
      throw Native.rethrow(t);
    }
    return this;
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
