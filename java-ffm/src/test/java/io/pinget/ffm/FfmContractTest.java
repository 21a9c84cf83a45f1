// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.ffm;

import static io.pinget.contract.FaultMatrix.fault;
import static io.pinget.contract.Faults.KEY;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pinget.ColumnFamily;
import io.pinget.Options;
import io.pinget.ReadOptions;
import io.pinget.Snapshot;
import io.pinget.Store;
import io.pinget.StoreClosedException;
import io.pinget.TestSupport;
import io.pinget.WriteBatch;
import io.pinget.WriteOptions;
import io.pinget.contract.FaultMatrix;
import io.pinget.contract.FaultMatrix.Fault;
import io.pinget.contract.FaultMatrix.Method;
import io.pinget.contract.Faults;
import io.pinget.contract.ReaderMethods;
import io.pinget.contract.Signatures;
import io.pinget.contract.Signatures.Role;
import io.pinget.contract.Signatures.Spec;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract's order of checks on the FFM door: every public method of {@link FfmStore} and its
 * handles, every fault alone and every pair, as the JNI doors are tested (io.pinget.contract). On
 * Java 22+ a buffer or segment of a closed Arena, or of another thread's confined Arena, is a fault
 * too.
 */
class FfmContractTest {
  private final List<AutoCloseable> open = new ArrayList<>();

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

  /** Memory of an Arena that is closed. */
  private static MemorySegment deadSegment() {
    Arena arena = Arena.ofConfined();
    MemorySegment s = arena.allocate(64);
    arena.close();
    return s;
  }

  /** Memory of a confined Arena that another thread owns (left open). */
  private static MemorySegment foreignSegment() {
    AtomicReference<MemorySegment> made = new AtomicReference<>();
    Thread t = new Thread(() -> made.set(Arena.ofConfined().allocate(64)));
    t.start();
    try {
      t.join();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    return made.get();
  }

  /** A direct destination's faults on Java 22+: the JNI API's, and dead or foreign memory. */
  private static Fault[] dstBuffer() {
    List<Fault> all = new ArrayList<>(List.of(Faults.dstBuffer()));
    all.add(
        fault(
            "of a closed Arena", () -> deadSegment().asByteBuffer(), IllegalStateException.class));
    all.add(
        fault(
            "of another thread's Arena",
            () -> foreignSegment().asByteBuffer(),
            WrongThreadException.class));
    return all.toArray(Fault[]::new);
  }

  @Test
  void ffmStoreChecksInTheContractsOrder() {
    Path dir = TestSupport.newDir("ffm-contract");
    FfmStore store = keep(FfmStore.open(dir.resolve("store")));
    store.put(KEY, "v".getBytes(StandardCharsets.UTF_8));
    FfmStore other = keep(FfmStore.open(dir.resolve("other"), new Options().columnFamilies("cf")));
    ColumnFamily foreignFamily = other.columnFamily("cf");
    Snapshot foreignSnapshot = keep(other.snapshot());
    Store jni = keep(Store.open(dir.resolve("jni")));
    Snapshot jniSnapshot = keep(jni.snapshot());
    Snapshot closedSnapshot = store.snapshot();
    closedSnapshot.close();
    FfmStore closed = FfmStore.open(dir.resolve("closed"));
    FfmPinnedView viewOfClosed = keep(closed.newPinnedView());
    FfmPinnedBatch batchOfClosed = keep(closed.newPinnedBatch());
    FfmCursor cursorOfClosed = closed.newCursor();
    closed.close();
    FfmPinnedView closedView = store.newPinnedView();
    closedView.close();
    FfmPinnedBatch closedBatch = store.newPinnedBatch();
    closedBatch.close();

    Fault closedStore = fault("closed", () -> closed, StoreClosedException.class);
    Fault noOptions = Faults.nullOf("options");
    List<Fault> contentList =
        new ArrayList<>(
            List.of(ReaderMethods.optionsContent(foreignFamily, foreignSnapshot, closedSnapshot)));
    contentList.add(
        fault(
            "snapshot of a store opened through the JNI API",
            () -> ReadOptions.DEFAULT.withSnapshot(jniSnapshot),
            IllegalArgumentException.class));
    Fault[] content = contentList.toArray(Fault[]::new);
    List<Fault> buffers = new ArrayList<>(List.of(Faults.buffers()));
    buffers.add(
        fault(
            "element of a closed Arena",
            () -> new ByteBuffer[] {Faults.direct(), deadSegment().asByteBuffer()},
            IllegalStateException.class));
    buffers.add(
        fault(
            "element of another thread's Arena",
            () -> new ByteBuffer[] {Faults.direct(), foreignSegment().asByteBuffer()},
            WrongThreadException.class));
    Signatures.Roles roles =
        new Signatures.Roles(
                content,
                Map.of(
                    SegmentDecoder.class,
                    () -> (SegmentDecoder<Long>) MemorySegment::byteSize,
                    LongSegmentDecoder.class,
                    () -> (LongSegmentDecoder) MemorySegment::byteSize))
            .with(Role.DST_BUFFER, new Spec(Faults::direct, dstBuffer()))
            .with(Role.DST_BUFFERS, new Spec(Faults::twoBuffers, buffers.toArray(Fault[]::new)))
            .with(
                Role.DST_SEGMENT,
                new Spec(
                    () -> Arena.ofAuto().allocate(64),
                    Faults.nullOf("dst"),
                    fault(
                        "of a closed Arena",
                        FfmContractTest::deadSegment,
                        IllegalStateException.class),
                    fault(
                        "of another thread's Arena",
                        FfmContractTest::foreignSegment,
                        WrongThreadException.class),
                    fault(
                        "read-only",
                        () -> Arena.ofAuto().allocate(64).asReadOnly(),
                        IllegalArgumentException.class)));
    // The reads, then the handles': the handle first, then its store, then the arguments.
    List<Method> m = new ArrayList<>();
    m.addAll(
        Signatures.of(
            FfmStore.class,
            Signatures.reads(),
            new Signatures.Receiver("store", () -> store, closedStore),
            roles));
    m.addAll(
        Signatures.of(
            FfmPinnedView.class,
            Signatures.reads(),
            new Signatures.Receiver(
                "view",
                store::newPinnedView,
                fault("closed", () -> closedView, IllegalStateException.class),
                fault("of a closed store", () -> viewOfClosed, StoreClosedException.class)),
            roles));
    m.addAll(
        Signatures.of(
            FfmPinnedBatch.class,
            Signatures.reads(),
            new Signatures.Receiver(
                "batch",
                store::newPinnedBatch,
                fault("closed", () -> closedBatch, IllegalStateException.class),
                fault("of a closed store", () -> batchOfClosed, StoreClosedException.class)),
            roles));

    // Writes, snapshots and column families.
    Supplier<byte[]> key = () -> KEY;
    Supplier<WriteOptions> wo = () -> WriteOptions.DEFAULT;
    Fault[] woContent = {
      fault(
          "column family of another store",
          () -> WriteOptions.DEFAULT.withColumnFamily(foreignFamily),
          IllegalArgumentException.class)
    };
    m.add(
        new Method(
                "put(options, key, value)",
                a -> {
                  s(a).put((WriteOptions) a[1], (byte[]) a[2], (byte[]) a[3]);
                  return null;
                })
            .slot("store", () -> store, closedStore)
            .slot("options", wo, noOptions)
            .slot("key", key, Faults.wholeKey())
            .slot("value", () -> new byte[1], Faults.nullOf("value"))
            .content(1, woContent));
    m.add(
        new Method(
                "delete(options, key)",
                a -> {
                  s(a).delete((WriteOptions) a[1], (byte[]) a[2]);
                  return null;
                })
            .slot("store", () -> store, closedStore)
            .slot("options", wo, noOptions)
            .slot("key", () -> "gone".getBytes(StandardCharsets.UTF_8), Faults.wholeKey())
            .content(1, woContent));
    WriteBatch closedWrites = new WriteBatch();
    closedWrites.close();
    WriteBatch foreignWrites = keep(new WriteBatch().put(foreignFamily, KEY, KEY));
    m.add(
        new Method(
                "write(options, batch)",
                a -> {
                  s(a).write((WriteOptions) a[1], (WriteBatch) a[2]);
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
        new Method("columnFamily(name)", a -> s(a).columnFamily((String) a[1]))
            .slot("store", () -> store, closedStore)
            .slot(
                "name",
                () -> "default",
                Faults.nullOf("name"),
                fault("unknown", () -> "nope", IllegalArgumentException.class),
                fault("unpaired surrogate", () -> "x\uD800", IllegalArgumentException.class)));
    m.add(
        new Method(
                "flush(columnFamily)",
                a -> {
                  s(a).flush((ColumnFamily) a[1]);
                  return null;
                })
            .slot("store", () -> store, closedStore)
            .slot(
                "columnFamily",
                () -> ColumnFamily.DEFAULT,
                Faults.nullOf("columnFamily"),
                fault("of another store", () -> foreignFamily, IllegalArgumentException.class)));
    m.add(
        new Method(
                "compact(columnFamily)",
                a -> {
                  s(a).compact((ColumnFamily) a[1]);
                  return null;
                })
            .slot("store", () -> store, closedStore)
            .slot(
                "columnFamily",
                () -> ColumnFamily.DEFAULT,
                Faults.nullOf("columnFamily"),
                fault("of another store", () -> foreignFamily, IllegalArgumentException.class)));
    m.add(new Method("snapshot()", a -> s(a).snapshot()).slot("store", () -> store, closedStore));
    // Scans: the cursor first, then its store, then the arguments.
    FfmCursor closedCursor = store.newCursor();
    closedCursor.close();
    Fault[] cursor = {
      fault("closed", () -> closedCursor, IllegalStateException.class),
      fault("of a closed store", () -> cursorOfClosed, StoreClosedException.class)
    };
    m.add(
        new Method(
                "FfmCursor.seek(key)",
                a -> {
                  ((FfmCursor) a[0]).seek((byte[]) a[1]);
                  return null;
                })
            .slot("cursor", store::newCursor, cursor)
            .slot("key", key, Faults.wholeKey()));
    m.add(
        new Method(
                "FfmCursor.seekForPrev(key)",
                a -> {
                  ((FfmCursor) a[0]).seekForPrev((byte[]) a[1]);
                  return null;
                })
            .slot("cursor", store::newCursor, cursor)
            .slot("key", key, Faults.wholeKey()));
    m.add(
        new Method(
                "FfmCursor.seekToFirst()",
                a -> {
                  ((FfmCursor) a[0]).seekToFirst();
                  return null;
                })
            .slot("cursor", store::newCursor, cursor));
    m.add(
        new Method(
                "FfmCursor.seekToLast()",
                a -> {
                  ((FfmCursor) a[0]).seekToLast();
                  return null;
                })
            .slot("cursor", store::newCursor, cursor));
    Fault[] max = {
      fault("0", () -> 0, IllegalArgumentException.class),
      fault("negative", () -> -1, IllegalArgumentException.class)
    };
    m.add(
        new Method("FfmCursor.next(max)", a -> ((FfmCursor) a[0]).next((Integer) a[1]))
            .slot("cursor", store::newCursor, cursor)
            .slot("max", () -> 16, max));
    m.add(
        new Method("FfmCursor.prev(max)", a -> ((FfmCursor) a[0]).prev((Integer) a[1]))
            .slot("cursor", store::newCursor, cursor)
            .slot("max", () -> 16, max));
    // An entry: the cursor (closed: whatever the index), then the index against the batch.
    Supplier<FfmCursor> lent =
        () -> {
          FfmCursor c = store.newCursor();
          c.seekToFirst();
          c.next(1);
          return c;
        };
    Fault[] entry = {
      fault("past the batch", () -> 1, IndexOutOfBoundsException.class),
      fault("negative", () -> -1, IndexOutOfBoundsException.class)
    };
    m.add(
        new Method("FfmCursor.key(i)", a -> ((FfmCursor) a[0]).key((Integer) a[1]))
            .slot("cursor", lent, fault("closed", () -> closedCursor, IllegalStateException.class))
            .slot("i", () -> 0, entry));
    m.add(
        new Method("FfmCursor.value(i)", a -> ((FfmCursor) a[0]).value((Integer) a[1]))
            .slot("cursor", lent, fault("closed", () -> closedCursor, IllegalStateException.class))
            .slot("i", () -> 0, entry));
    m.add(
        new Method(
                "FfmCursor.forEach(visitor)",
                a -> ((FfmCursor) a[0]).forEach((FfmCursor.EntryVisitor) a[1]))
            .slot("cursor", store::newCursor, cursor)
            .slot(
                "visitor",
                () -> (FfmCursor.EntryVisitor) (k, v) -> true,
                Faults.nullOf("visitor")));

    FaultMatrix.Result r = FaultMatrix.run(m);
    assertTrue(
        r.failures().isEmpty(),
        "FfmStore: "
            + r.failures().size()
            + " of "
            + r.checks()
            + " checks out of order:\n  "
            + String.join("\n  ", r.failures().subList(0, Math.min(30, r.failures().size()))));
    System.out.println("FfmStore: " + r.checks() + " checks in the contract's order");
  }

  static FfmStore s(Object[] a) {
    return (FfmStore) a[0];
  }
}
