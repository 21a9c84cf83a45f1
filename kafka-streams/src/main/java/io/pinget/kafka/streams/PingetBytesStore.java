// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.kafka.streams;

import io.pinget.Cursor;
import io.pinget.CursorOptions;
import io.pinget.Options;
import io.pinget.PingetException;
import io.pinget.ReadOptions;
import io.pinget.Store;
import io.pinget.StoreClosedException;
import io.pinget.ValueDecoder;
import io.pinget.WriteBatch;
import io.pinget.WriteOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.processor.BatchingStateRestoreCallback;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.HeadersBytesStore;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.TimestampedBytesStore;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;

/**
 * A Kafka Streams key-value bytes store on pinget's own engine (RocksDB 11.8.1 inside pinget's JNI
 * library, beside whatever rocksdbjni Kafka loads): the innermost store of Kafka's stack, beneath
 * its metering, change-logging and (for the bytes supplier) caching layers, which Kafka adds.
 *
 * <p><b>Files and offsets.</b> The database lives in the task's state directory, {@code
 * <state.dir>/<application>/<task>/pinget/<store>}. The store does not manage its changelog offsets
 * ({@link #managesOffsets()} is false): Kafka keeps them in its checkpoint file and, under
 * exactly-once, wipes and restores a store that was not closed cleanly. Writes skip RocksDB's
 * write-ahead log, as Kafka's RocksDB store does (the changelog is the log); {@link #commit}
 * flushes the memtable before Kafka writes the checkpoint.
 *
 * <p><b>Reads.</b> {@code get} is pinget's pinnable_copy (P + 1 copies into one new array, as
 * rocksdbjni's {@code get}); iterators copy each key and value once into new arrays from a cursor
 * that reads values in place. {@link #get(Bytes, ValueDecoder)} decodes from pinned memory with no
 * copy. Keys are stored behind a tag byte ({@link Keys}) so that Kafka's empty key is a key here
 * too.
 *
 * <p>Thread-safe: the stream thread writes while interactive queries read. Use after {@link
 * #close()} throws {@link InvalidStateStoreException}; pinget's errors become {@link
 * ProcessorStateException}, from iterators too. IQv2's position counts the input records written
 * since the store opened: it is not restored from the changelog nor kept across opens (Kafka's
 * RocksDB store keeps both), so a bounded query waits for new input after a restart or restore.
 */
public class PingetBytesStore implements KeyValueStore<Bytes, byte[]> {
  /** The folder under the task's state directory that holds its pinget stores. */
  public static final String DIR = "pinget";

  // The changelog is the store's log, as for Kafka's RocksDB store.
  private static final WriteOptions WRITE = WriteOptions.DEFAULT.withDisableWal(true);
  private static final Function<ByteBuffer, Bytes> KEY = k -> Bytes.wrap(Keys.kafkaKey(k));
  private static final Function<ByteBuffer, byte[]> VALUE = PingetBytesStore::copy;

  private final String name;
  private final Options options;
  private final Set<CursorIterator<?, ?>> iterators = ConcurrentHashMap.newKeySet();
  // The offsets of the input records this store has seen since it opened, for IQv2's position
  // bounds (Kafka's RocksDB store also persists it; this store starts each open empty).
  private final Position position = Position.emptyPosition();
  private volatile StateStoreContext context;
  private volatile Store store;
  private volatile boolean open;
  // Written since the last flush: a commit with nothing new (every commit of an idle task, every
  // record of a TopologyTestDriver) makes no RocksDB flush.
  private volatile boolean dirty;

  PingetBytesStore(String name, Options options) {
    this.name = Objects.requireNonNull(name, "name");
    this.options = Objects.requireNonNull(options, "options");
  }

  /** The timestamped form ({@code [8-byte timestamp][value]} values), for the DSL's stores. */
  static final class Timestamped extends PingetBytesStore implements TimestampedBytesStore {
    Timestamped(String name, Options options) {
      super(name, options);
    }
  }

  /** The form with headers and a timestamp in each value (DslStoreFormat.HEADERS, Kafka 4.3 on). */
  static final class WithHeaders extends PingetBytesStore implements HeadersBytesStore {
    WithHeaders(String name, Options options) {
      super(name, options);
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void init(StateStoreContext context, StateStore root) {
    Path dir = context.stateDir().toPath().resolve(DIR).resolve(name);
    try {
      Files.createDirectories(dir);
      store = Store.open(dir, options);
    } catch (IOException | PingetException e) {
      throw new ProcessorStateException("cannot open pinget store " + name + " at " + dir, e);
    }
    this.context = context;
    open = true;
    context.register(root, (BatchingStateRestoreCallback) this::restoreAll);
  }

  /** Changelog records in order: a null value deletes. One write batch per call. */
  private void restoreAll(Collection<KeyValue<byte[], byte[]>> records) {
    write("restore", batch -> records.forEach(r -> add(batch, r.key, r.value)));
  }

  /** One write batch, filled by fill: all of it written, or none (what names it in errors). */
  private void write(String what, Consumer<WriteBatch> fill) {
    Store s = live();
    try (WriteBatch batch = new WriteBatch()) {
      fill.accept(batch);
      s.write(WRITE, batch);
      dirty = true;
    } catch (StoreClosedException e) {
      throw closed(e);
    } catch (PingetException e) {
      throw failed(what, e);
    }
  }

  private static void add(WriteBatch batch, byte[] key, byte[] value) {
    if (value == null) {
      batch.delete(Keys.stored(key));
    } else {
      batch.put(Keys.stored(key), value);
    }
  }

  @Override
  public void put(Bytes key, byte[] value) {
    Objects.requireNonNull(key, "key cannot be null");
    Store s = live();
    byte[] k = Keys.stored(key.get());
    try {
      if (value == null) {
        s.delete(WRITE, k, 0, k.length);
      } else {
        s.put(WRITE, k, 0, k.length, value, 0, value.length);
      }
      dirty = true;
      StoreQueryUtils.updatePosition(position, context);
    } catch (StoreClosedException e) {
      throw closed(e);
    } catch (PingetException e) {
      throw failed("put", e);
    }
  }

  /** As Kafka's RocksDB store: a get, then a put if absent (one writer per task). */
  @Override
  public byte[] putIfAbsent(Bytes key, byte[] value) {
    byte[] old = get(key);
    if (old == null) {
      put(key, value);
    }
    return old;
  }

  @Override
  public void putAll(List<KeyValue<Bytes, byte[]>> entries) {
    write(
        "putAll",
        batch -> {
          for (KeyValue<Bytes, byte[]> e : entries) {
            Objects.requireNonNull(e.key, "key cannot be null");
            add(batch, e.key.get(), e.value);
          }
        });
    StoreQueryUtils.updatePosition(position, context);
  }

  @Override
  public byte[] delete(Bytes key) {
    byte[] old = get(key);
    put(key, null);
    return old;
  }

  /** pinnable_copy: P + 1 copies into one new array (rocksdbjni's get makes the same). */
  @Override
  public byte[] get(Bytes key) {
    Objects.requireNonNull(key, "key cannot be null");
    Store s = live();
    try {
      return s.pinnableCopy(ReadOptions.DEFAULT, Keys.direct(key.get()));
    } catch (StoreClosedException e) {
      throw closed(e);
    } catch (PingetException e) {
      throw failed("get", e);
    }
  }

  /**
   * Gets key's value and decodes it from pinned memory: P copies (0 from the block cache), no
   * array. The rules of {@link ValueDecoder} apply: the buffer is valid during the call only. This
   * reads the store itself: beneath a Kafka record cache it does not see writes the cache still
   * holds.
   *
   * @param key not null
   * @param decoder not null
   * @param <T> what the value becomes
   * @return the decoded value, or null if the key is absent
   */
  public <T> T get(Bytes key, ValueDecoder<T> decoder) {
    Objects.requireNonNull(key, "key cannot be null");
    return decode(key.get(), decoder);
  }

  <T> T decode(byte[] key, ValueDecoder<T> decoder) {
    Objects.requireNonNull(decoder, "decoder");
    Store s = live();
    try {
      return s.get(ReadOptions.DEFAULT, Keys.direct(key), decoder);
    } catch (StoreClosedException e) {
      throw closed(e);
    } catch (PingetException e) {
      throw failed("get", e);
    }
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> range(Bytes from, Bytes to) {
    return range(raw(from), raw(to), true, KEY, VALUE);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseRange(Bytes from, Bytes to) {
    return range(raw(from), raw(to), false, KEY, VALUE);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> all() {
    return iterate(Keys.FIRST, Keys.PAST_ALL, true, KEY, VALUE);
  }

  @Override
  public KeyValueIterator<Bytes, byte[]> reverseAll() {
    return iterate(Keys.FIRST, Keys.PAST_ALL, false, KEY, VALUE);
  }

  /** Keys that start with the serialized prefix (serialized with a null topic, as Kafka does). */
  @Override
  public <PS extends Serializer<P>, P> KeyValueIterator<Bytes, byte[]> prefixScan(
      P prefix, PS prefixKeySerializer) {
    return prefixScan(prefixKeySerializer.serialize(null, prefix), KEY, VALUE);
  }

  /**
   * Kafka's range: from and to inclusive, null unbounded; from after to is an empty range (Kafka's
   * RocksDB store returns an empty iterator for it too).
   */
  <K, V> KeyValueIterator<K, V> range(
      byte[] from,
      byte[] to,
      boolean forward,
      Function<ByteBuffer, K> key,
      Function<ByteBuffer, V> value) {
    byte[] lower = Keys.from(from);
    byte[] upper = Keys.through(to);
    if (from != null && to != null && Arrays.compareUnsigned(from, to) > 0) {
      upper = lower; // nothing lies at or after lower and before it
    }
    return iterate(lower, upper, forward, key, value);
  }

  <K, V> KeyValueIterator<K, V> prefixScan(
      byte[] prefix, Function<ByteBuffer, K> key, Function<ByteBuffer, V> value) {
    byte[] lower = Keys.stored(prefix);
    return iterate(lower, Keys.pastPrefix(lower), true, key, value);
  }

  private <K, V> KeyValueIterator<K, V> iterate(
      byte[] lower,
      byte[] upper,
      boolean forward,
      Function<ByteBuffer, K> key,
      Function<ByteBuffer, V> value) {
    // Under the lock close() takes, so that close() sees every iterator made before it: one it
    // missed would keep the database (and its lock file) open after the store closed.
    synchronized (this) {
      Store s = live();
      try {
        Cursor cursor = s.newCursor(CursorOptions.DEFAULT.withBounds(lower, upper));
        try {
          return new CursorIterator<>(name, cursor, forward, key, value, iterators);
        } catch (RuntimeException e) {
          cursor.close();
          throw e;
        }
      } catch (StoreClosedException e) {
        throw closed(e);
      } catch (PingetException e) {
        throw failed("iterator", e);
      }
    }
  }

  /**
   * IQv2: a {@link DecodedKeyQuery} decodes from pinned memory; Kafka's key and range queries are
   * answered as its RocksDB store answers them (through get and range), with this store's position.
   */
  @Override
  @SuppressWarnings("unchecked")
  public <R> QueryResult<R> query(Query<R> query, PositionBound bound, QueryConfig config) {
    if (query instanceof DecodedKeyQuery) {
      // As Kafka's handleBasicQueries: refused below the bound, errors returned, not thrown.
      int partition = context.taskId().partition();
      if (!StoreQueryUtils.isPermitted(position, bound, partition)) {
        return QueryResult.notUpToBound(position, bound, partition);
      }
      DecodedKeyQuery<R> q = (DecodedKeyQuery<R>) query;
      QueryResult<R> result;
      try {
        result = QueryResult.forResult(decode(q.key().get(), q.decoder()));
      } catch (RuntimeException e) {
        result = QueryResult.forFailure(FailureReason.STORE_EXCEPTION, e.toString());
      }
      result.setPosition(position.copy());
      return result;
    }
    return StoreQueryUtils.handleBasicQueries(query, bound, config, this, position, context);
  }

  @Override
  public Position getPosition() {
    return position;
  }

  @Override
  public long approximateNumEntries() {
    Store s = live();
    try {
      String n = s.property("rocksdb.estimate-num-keys");
      return n == null ? 0 : Long.parseUnsignedLong(n);
    } catch (StoreClosedException e) {
      throw closed(e);
    }
  }

  /**
   * Flushes the memtable if anything was written since the last flush: writes skip the WAL, so this
   * is what makes them durable before Kafka checkpoints their offsets. Kafka 4.4 deprecates flush()
   * for commit(), which calls it; Kafka 4.3 calls flush() itself.
   */
  @Override
  @SuppressWarnings("deprecation")
  public void flush() {
    Store s = live();
    if (!dirty) {
      return;
    }
    try {
      dirty = false; // a write racing with this flush sets it again
      s.flush();
    } catch (StoreClosedException e) {
      throw closed(e);
    } catch (PingetException e) {
      throw failed("flush", e);
    }
  }

  @Override
  public void commit(Map<TopicPartition, Long> changelogOffsets) {
    flush();
  }

  /**
   * False: Kafka keeps this store's changelog offsets in its checkpoint file (Kafka 4.4 deprecates
   * the method, and wraps such a store in its legacy checkpointing; Kafka 4.3 writes the task's).
   */
  @Override
  @SuppressWarnings("deprecation")
  public boolean managesOffsets() {
    return false;
  }

  /** Closes open iterators, then the database. Idempotent. */
  @Override
  public synchronized void close() {
    if (!open) {
      return;
    }
    open = false;
    for (CursorIterator<?, ?> it : iterators) {
      it.close();
    }
    store.close();
  }

  @Override
  public boolean persistent() {
    return true;
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  private Store live() {
    Store s = store;
    if (!open || s == null) {
      throw new InvalidStateStoreException("Store " + name + " is currently closed");
    }
    return s;
  }

  private InvalidStateStoreException closed(StoreClosedException e) {
    return new InvalidStateStoreException("Store " + name + " is currently closed", e);
  }

  private ProcessorStateException failed(String what, PingetException e) {
    return new ProcessorStateException("pinget store " + name + ": " + what + " failed", e);
  }

  private static byte[] raw(Bytes key) {
    return key == null ? null : key.get();
  }

  /** One copy of a view (its position unchanged) into a new array. */
  static byte[] copy(ByteBuffer view) {
    byte[] out = new byte[view.remaining()];
    view.get(view.position(), out);
    return out;
  }
}
