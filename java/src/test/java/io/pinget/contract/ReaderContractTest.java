// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.contract;

import static io.pinget.contract.FaultMatrix.fault;
import static io.pinget.contract.Faults.KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinget.ColumnFamily;
import io.pinget.Cursor;
import io.pinget.Options;
import io.pinget.PinnedBatch;
import io.pinget.PinnedView;
import io.pinget.ReadOptions;
import io.pinget.Reader;
import io.pinget.Snapshot;
import io.pinget.Store;
import io.pinget.StoreClosedException;
import io.pinget.TestSupport;
import io.pinget.WriteBatch;
import io.pinget.WriteOptions;
import io.pinget.contract.FaultMatrix.Fault;
import io.pinget.contract.FaultMatrix.Method;
import io.pinget.contract.FaultMatrix.Range;
import io.pinget.rocksjava.RocksJavaReader;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;

/**
 * The contract's order of checks on the JNI doors: {@link Store} and {@link RocksJavaReader}, every
 * public method, every fault alone and every pair (see {@link FaultMatrix}). The FFM binding runs
 * the same matrix (java-ffm: FfmContractTest).
 */
class ReaderContractTest {
  private final List<AutoCloseable> open = new ArrayList<>();
  private Path dir;
  private Store other;
  private ColumnFamily foreignFamily;
  private Snapshot foreignSnapshot;

  @BeforeEach
  void setUp() {
    dir = TestSupport.newDir("contract");
    other = keep(Store.open(dir.resolve("other"), new Options().columnFamilies("cf")));
    foreignFamily = other.columnFamily("cf");
    foreignSnapshot = keep(other.snapshot());
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  private <T extends AutoCloseable> T keep(T t) {
    open.add(t);
    return t;
  }

  private static void assertHolds(FaultMatrix.Result r, String door) {
    assertTrue(
        r.failures().isEmpty(),
        door
            + ": "
            + r.failures().size()
            + " of "
            + r.checks()
            + " checks out of order:\n  "
            + String.join("\n  ", r.failures().subList(0, Math.min(30, r.failures().size()))));
    System.out.println(door + ": " + r.checks() + " checks in the contract's order");
  }

  @Test
  void storeChecksInTheContractsOrder() {
    Store store = keep(Store.open(dir.resolve("store")));
    store.put(KEY, "v".getBytes(StandardCharsets.UTF_8));
    Store closed = Store.open(dir.resolve("closed"));
    PinnedView viewOfClosed = keep(closed.newPinnedView());
    PinnedBatch batchOfClosed = keep(closed.newPinnedBatch());
    Cursor cursorOfClosed = closed.newCursor();
    closed.close();
    Cursor closedCursor = store.newCursor();
    closedCursor.close();
    Snapshot closedSnapshot = store.snapshot();
    closedSnapshot.close();
    PinnedView closedView = store.newPinnedView();
    closedView.close();
    PinnedBatch closedBatch = store.newPinnedBatch();
    closedBatch.close();
    List<Method> methods =
        new ArrayList<>(
            ReaderMethods.of(
                new ReaderMethods.Door(
                    () -> store,
                    () -> closed,
                    () -> closedView,
                    () -> viewOfClosed,
                    () -> closedBatch,
                    () -> batchOfClosed,
                    () -> closedCursor,
                    () -> cursorOfClosed,
                    ReaderMethods.optionsContent(foreignFamily, foreignSnapshot, closedSnapshot))));
    methods.addAll(storeOnly(store, closed));
    assertHolds(FaultMatrix.run(methods), "Store");
  }

  /** Store's writes and its calls on column families. */
  private List<Method> storeOnly(Store store, Store closed) {
    Fault closedStore = fault("closed", () -> closed, StoreClosedException.class);
    Supplier<WriteOptions> wo = () -> WriteOptions.DEFAULT;
    Fault noOptions = Faults.nullOf("options");
    Fault[] woContent = {
      fault(
          "column family of another store",
          () -> WriteOptions.DEFAULT.withColumnFamily(foreignFamily),
          IllegalArgumentException.class)
    };
    Supplier<Range> key = () -> new Range(KEY, 0, KEY.length);
    Supplier<Range> value = () -> new Range(new byte[4], 0, 4);
    Supplier<ByteBuffer> keyBuffer = () -> ByteBuffer.allocateDirect(KEY.length).put(0, KEY);
    Fault[] family = {
      Faults.nullOf("columnFamily"),
      fault("of another store", () -> foreignFamily, IllegalArgumentException.class)
    };
    List<Method> m = new ArrayList<>();
    m.add(
        new Method(
                "put(options, key, off, len, value, off, len)",
                a -> {
                  s(a).put(
                          w(a[1]),
                          r(a[2]).array(),
                          r(a[2]).off(),
                          r(a[2]).len(),
                          r(a[3]).array(),
                          r(a[3]).off(),
                          r(a[3]).len());
                  return null;
                })
            .slot("store", () -> store, closedStore)
            .slot("options", wo, noOptions)
            .slot("key", key, Faults.keyRange())
            .slot("value", value, Faults.arrayRange())
            .content(1, woContent));
    m.add(
        new Method(
                "put(options, ByteBuffer, ByteBuffer)",
                a -> {
                  s(a).put(w(a[1]), (ByteBuffer) a[2], (ByteBuffer) a[3]);
                  return null;
                })
            .slot("store", () -> store, closedStore)
            .slot("options", wo, noOptions)
            .slot("key", keyBuffer, Faults.keyBuffer())
            .slot("value", () -> ByteBuffer.allocateDirect(1), Faults.valueBuffer())
            .content(1, woContent));
    m.add(
        new Method(
                "delete(options, key, off, len)",
                a -> {
                  s(a).delete(w(a[1]), r(a[2]).array(), r(a[2]).off(), r(a[2]).len());
                  return null;
                })
            .slot("store", () -> store, closedStore)
            .slot("options", wo, noOptions)
            .slot(
                "key",
                () -> new Range("gone".getBytes(StandardCharsets.UTF_8), 0, 4),
                Faults.keyRange())
            .content(1, woContent));
    m.add(
        new Method(
                "delete(options, ByteBuffer)",
                a -> {
                  s(a).delete(w(a[1]), (ByteBuffer) a[2]);
                  return null;
                })
            .slot("store", () -> store, closedStore)
            .slot("options", wo, noOptions)
            .slot("key", () -> ByteBuffer.allocateDirect(4).put(0, (byte) 'g'), Faults.keyBuffer())
            .content(1, woContent));
    WriteBatch closedWrites = keep(new WriteBatch());
    closedWrites.close();
    WriteBatch foreignWrites = keep(new WriteBatch().put(foreignFamily, KEY, KEY));
    m.add(
        new Method(
                "write(options, batch)",
                a -> {
                  s(a).write(w(a[1]), (WriteBatch) a[2]);
                  return null;
                })
            .slot("store", () -> store, closedStore)
            .slot("options", wo, noOptions)
            .slot(
                "batch",
                WriteBatch::new,
                Faults.nullOf("batch"),
                fault("closed", () -> closedWrites, IllegalStateException.class),
                fault("of another store", () -> foreignWrites, IllegalArgumentException.class))
            .content(1, woContent));
    m.add(
        new Method(
                "property(columnFamily, name)",
                a -> s(a).property((ColumnFamily) a[1], (String) a[2]))
            .slot("store", () -> store, closedStore)
            .slot("columnFamily", () -> ColumnFamily.DEFAULT, family)
            .slot(
                "name",
                () -> "rocksdb.stats",
                Faults.nullOf("name"),
                fault("unpaired surrogate", () -> "x\uD800", IllegalArgumentException.class)));
    m.add(
        new Method(
                "flush(columnFamily)",
                a -> {
                  s(a).flush((ColumnFamily) a[1]);
                  return null;
                })
            .slot("store", () -> store, closedStore)
            .slot("columnFamily", () -> ColumnFamily.DEFAULT, family));
    m.add(
        new Method("columnFamily(name)", a -> s(a).columnFamily((String) a[1]))
            .slot("store", () -> store, closedStore)
            .slot(
                "name",
                () -> "default",
                Faults.nullOf("name"),
                fault("unknown", () -> "nope", IllegalArgumentException.class),
                fault("unpaired surrogate", () -> "x\uD800", IllegalArgumentException.class)));
    m.add(new Method("snapshot()", a -> s(a).snapshot()).slot("store", () -> store, closedStore));
    // The write batch's own calls: the batch (closed), then the column family (null; of another
    // store than the one the batch already writes to), then the key and the value.
    Store mine = keep(Store.open(dir.resolve("mine"), new Options().columnFamilies("cf")));
    ColumnFamily myFamily = mine.columnFamily("cf");
    Supplier<WriteBatch> myWrites = () -> keep(new WriteBatch().put(myFamily, KEY, KEY));
    WriteBatch closedWrite = keep(new WriteBatch());
    closedWrite.close();
    Fault closedBatch = fault("closed", () -> closedWrite, IllegalStateException.class);
    m.add(
        new Method(
                "WriteBatch.put(columnFamily, key, off, len, value, off, len)",
                a -> {
                  ((WriteBatch) a[0]) // returns itself: not a result to close
                      .put(
                          (ColumnFamily) a[1],
                          r(a[2]).array(),
                          r(a[2]).off(),
                          r(a[2]).len(),
                          r(a[3]).array(),
                          r(a[3]).off(),
                          r(a[3]).len());
                  return null;
                })
            .slot("batch", myWrites, closedBatch)
            .slot("columnFamily", () -> ColumnFamily.DEFAULT, family)
            .slot("key", key, Faults.keyRange())
            .slot("value", value, Faults.arrayRange()));
    m.add(
        new Method(
                "WriteBatch.put(columnFamily, ByteBuffer, ByteBuffer)",
                a -> {
                  ((WriteBatch) a[0])
                      .put((ColumnFamily) a[1], (ByteBuffer) a[2], (ByteBuffer) a[3]);
                  return null;
                })
            .slot("batch", myWrites, closedBatch)
            .slot("columnFamily", () -> ColumnFamily.DEFAULT, family)
            .slot("key", keyBuffer, Faults.keyBuffer())
            .slot("value", () -> ByteBuffer.allocateDirect(1), Faults.valueBuffer()));
    m.add(
        new Method(
                "WriteBatch.delete(columnFamily, key, off, len)",
                a -> {
                  ((WriteBatch) a[0])
                      .delete((ColumnFamily) a[1], r(a[2]).array(), r(a[2]).off(), r(a[2]).len());
                  return null;
                })
            .slot("batch", myWrites, closedBatch)
            .slot("columnFamily", () -> ColumnFamily.DEFAULT, family)
            .slot("key", key, Faults.keyRange()));
    m.add(
        new Method(
                "WriteBatch.delete(columnFamily, ByteBuffer)",
                a -> {
                  ((WriteBatch) a[0]).delete((ColumnFamily) a[1], (ByteBuffer) a[2]);
                  return null;
                })
            .slot("batch", myWrites, closedBatch)
            .slot("columnFamily", () -> ColumnFamily.DEFAULT, family)
            .slot("key", keyBuffer, Faults.keyBuffer()));
    return m;
  }

  @Test
  void rocksJavaReaderChecksInTheContractsOrder() throws Exception {
    RocksDB.loadLibrary();
    RocksDB db = keep(RocksDB.open(dir.resolve("rocksjava").toString()));
    db.put(KEY, "v".getBytes(StandardCharsets.UTF_8));
    RocksJavaReader rocksJava = keep(RocksJavaReader.open(db));
    RocksJavaReader closedRocksJava = RocksJavaReader.open(db);
    Store reader = rocksJava.store();
    Store closed = closedRocksJava.store();
    PinnedView viewOfClosed = keep(closed.newPinnedView());
    PinnedBatch batchOfClosed = keep(closed.newPinnedBatch());
    Cursor cursorOfClosed = closed.newCursor();
    closedRocksJava.close();
    Cursor closedCursor = reader.newCursor();
    closedCursor.close();
    org.rocksdb.Snapshot rocksSnapshot = db.getSnapshot();
    Snapshot closedSnapshot = rocksJava.snapshot(rocksSnapshot);
    closedSnapshot.close();
    PinnedView closedView = reader.newPinnedView();
    closedView.close();
    PinnedBatch closedBatch = reader.newPinnedBatch();
    closedBatch.close();
    List<Method> methods =
        new ArrayList<>(
            ReaderMethods.of(
                new ReaderMethods.Door(
                    () -> reader,
                    () -> closed,
                    () -> closedView,
                    () -> viewOfClosed,
                    () -> closedBatch,
                    () -> batchOfClosed,
                    () -> closedCursor,
                    () -> cursorOfClosed,
                    ReaderMethods.optionsContent(foreignFamily, foreignSnapshot, closedSnapshot))));
    // The reader's own calls: closed first, then the argument.
    ColumnFamilyHandle handle =
        keep(
            db.createColumnFamily(
                new ColumnFamilyDescriptor("cf".getBytes(StandardCharsets.UTF_8))));
    Fault closedReader = fault("closed", () -> closedRocksJava, StoreClosedException.class);
    methods.add(
        new Method(
                "columnFamily(handle)",
                a -> ((RocksJavaReader) a[0]).columnFamily((ColumnFamilyHandle) a[1]))
            .slot("reader", () -> rocksJava, closedReader)
            .slot(
                "handle",
                db::getDefaultColumnFamily,
                Faults.nullOf("handle"),
                fault("not given to open", () -> handle, IllegalArgumentException.class)));
    methods.add(
        new Method(
                "snapshot(rocksSnapshot)",
                a -> ((RocksJavaReader) a[0]).snapshot((org.rocksdb.Snapshot) a[1]))
            .slot("reader", () -> rocksJava, closedReader)
            .slot("snapshot", () -> rocksSnapshot, Faults.nullOf("snapshot")));
    try {
      assertHolds(FaultMatrix.run(methods), "RocksJavaReader");
    } finally {
      for (AutoCloseable c : List.<AutoCloseable>of(closedSnapshot)) {
        c.close();
      }
      db.releaseSnapshot(rocksSnapshot);
    }
  }

  /** The matrix can fail: a door that checks out of order is caught. */
  @Test
  void theMatrixCatchesChecksOutOfOrder() {
    Method wrong =
        new Method(
                "checks its second argument first",
                a -> {
                  if (a[2] == null) {
                    throw new NullPointerException("second");
                  }
                  if (a[1] == null) {
                    throw new NullPointerException("first");
                  }
                  if (((String) a[1]).isEmpty()) {
                    throw new IllegalArgumentException("first is empty");
                  }
                  return null;
                })
            .slot("receiver", () -> "r")
            .slot("first", () -> "x", fault("empty", () -> "", IllegalArgumentException.class))
            .slot("second", () -> "y", Faults.nullOf("second"));
    FaultMatrix.Result r = FaultMatrix.run(List.of(wrong));
    assertEquals(3, r.checks());
    assertEquals(1, r.failures().size(), String.valueOf(r.failures()));
    Method keepsSizes =
        new Method(
                "a batch that leaves its sizes alone when refused",
                a -> {
                  if (a[1] == null) {
                    throw new NullPointerException("keys");
                  }
                  return null;
                })
            .slot("receiver", () -> "r")
            .slot("keys", () -> "k", Faults.nullOf("keys"))
            .slot("sizes", () -> new int[2])
            .sizes(2);
    r = FaultMatrix.run(List.of(keepsSizes));
    assertEquals(1, r.checks());
    assertEquals(1, r.failures().size(), String.valueOf(r.failures()));
    assertTrue(r.failures().get(0).contains("sizes[0] is 12345"), r.failures().get(0));
  }

  /** The suite derives Reader's methods: a read that Store has and Reader lacks would go unseen. */
  @Test
  void everyStoreReadIsInTheReaderContract() {
    for (java.lang.reflect.Method m : Store.class.getMethods()) {
      if (!Modifier.isStatic(m.getModifiers()) && Signatures.reads().test(m)) {
        try {
          Reader.class.getMethod(m.getName(), m.getParameterTypes());
        } catch (NoSuchMethodException e) {
          throw new AssertionError("Store." + m.getName() + " is a read that Reader lacks", e);
        }
      }
    }
  }

  /** A read's slots follow from its signature, and a parameter that no role fits fails. */
  @Test
  void signaturesDeriveTheSlotsAndRefuseAnUnknownParameter() {
    interface Fake {
      int read(ReadOptions options, byte[] key, int off, int len, ByteBuffer dst, int[] sizes);

      int odd(ReadOptions options, String key);
    }
    Signatures.Roles roles = new Signatures.Roles(new Fault[0], Map.of());
    Signatures.Receiver fake = new Signatures.Receiver("fake", () -> null);
    List<Method> read = Signatures.of(Fake.class, m -> m.getName().equals("read"), fake, roles);
    assertEquals("[Fake.read(options, key, off, len, dst, sizes)]", read.toString());
    List<String> slots = new ArrayList<>();
    read.get(0).slots.forEach(slot -> slots.add(slot.name() + "@" + slot.arg()));
    assertEquals(
        List.of("fake@0", "options@1", "key@2", "dst@3", "sizes@4", "content of options@1"),
        slots);
    assertEquals(4, read.get(0).sizesArg);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Signatures.of(Fake.class, m -> m.getName().equals("odd"), fake, roles));
    assertTrue(e.getMessage().contains("class java.lang.String"), e.getMessage());
  }

  static Store s(Object[] a) {
    return (Store) a[0];
  }

  static WriteOptions w(Object x) {
    return (WriteOptions) x;
  }

  static Range r(Object x) {
    return (Range) x;
  }
}
