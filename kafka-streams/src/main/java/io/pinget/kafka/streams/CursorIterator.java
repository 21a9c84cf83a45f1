// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams;

import io.pinget.Cursor;
import io.pinget.PingetException;
import io.pinget.StoreClosedException;
import java.nio.ByteBuffer;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * A Kafka iterator over a pinget cursor: entries come in batches (up to {@link #BATCH}) lent by one
 * JNI call; each entry's key and value are turned into K and V from the cursor's views (the value
 * read in place: what the value function copies or allocates is its own). The cursor reads the
 * snapshot it took when the iterator was made, as Kafka's RocksDB iterators do.
 *
 * <p>Kafka uses an iterator from one thread, but its store closes open iterators from the stream
 * thread while an interactive query may still read one; every method is synchronized so that close
 * never frees the cursor under a batch being read. Closed (by the caller or by the store's close),
 * it throws {@link InvalidStateStoreException}, as Kafka's do.
 */
final class CursorIterator<K, V> implements KeyValueIterator<K, V> {
  /**
   * The batches: the first of {@link #FIRST_BATCH} entries, the others of {@link #BATCH} (enough to
   * amortize a crossing, few enough to stay in cache). A new cursor makes two views per entry of
   * the largest batch it has lent, and most ranges are short.
   */
  static final int BATCH = 64;

  static final int FIRST_BATCH = 16;

  private final String storeName;
  private final Cursor cursor;
  private final boolean forward;
  private final Function<ByteBuffer, K> key;
  private final Function<ByteBuffer, V> value;
  private final Set<CursorIterator<?, ?>> open;
  private int index;
  private int count;
  private int batch = FIRST_BATCH;
  private boolean exhausted; // a batch came back short: the cursor would lend no more
  private boolean closed;

  /**
   * REQUIRES: cursor not yet positioned; this iterator owns it.
   *
   * @param key the Kafka key from a stored key's view (see {@link Keys})
   * @param value V from a value's view, valid during the call only
   * @param open the store's open iterators: this one is in it until it closes
   */
  CursorIterator(
      String storeName,
      Cursor cursor,
      boolean forward,
      Function<ByteBuffer, K> key,
      Function<ByteBuffer, V> value,
      Set<CursorIterator<?, ?>> open) {
    this.storeName = storeName;
    this.cursor = cursor;
    this.forward = forward;
    this.key = key;
    this.value = value;
    this.open = open;
    if (forward) {
      cursor.seekToFirst();
    } else {
      cursor.seekToLast();
    }
    open.add(this);
  }

  @Override
  public synchronized boolean hasNext() {
    if (closed) {
      throw new InvalidStateStoreException("pinget iterator for store " + storeName + " is closed");
    }
    if (index < count) {
      return true;
    }
    if (exhausted) {
      return false;
    }
    try {
      count = forward ? cursor.next(batch) : cursor.prev(batch);
      exhausted = count < batch;
      batch = BATCH;
    } catch (StoreClosedException e) {
      throw new InvalidStateStoreException("store " + storeName + " is closed", e);
    } catch (PingetException e) {
      throw new ProcessorStateException("pinget store " + storeName + ": iterator failed", e);
    }
    index = 0;
    return count > 0;
  }

  @Override
  public synchronized KeyValue<K, V> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    int i = index++;
    return new KeyValue<>(key.apply(cursor.key(i)), value.apply(cursor.value(i)));
  }

  @Override
  public synchronized K peekNextKey() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return key.apply(cursor.key(index));
  }

  @Override
  public synchronized void close() {
    if (!closed) {
      closed = true;
      cursor.close();
      open.remove(this);
    }
  }
}
