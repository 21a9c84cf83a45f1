// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.contract;

import static io.pinget.contract.FaultMatrix.fault;
import static io.pinget.contract.Faults.KEY;

import io.pinget.Cursor;
import io.pinget.LongDecoder;
import io.pinget.PinnedBatch;
import io.pinget.PinnedView;
import io.pinget.ReadOptions;
import io.pinget.Reader;
import io.pinget.Snapshot;
import io.pinget.StoreClosedException;
import io.pinget.ValueDecoder;
import io.pinget.contract.FaultMatrix.Fault;
import io.pinget.contract.FaultMatrix.Method;
import io.pinget.contract.FaultMatrix.Range;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Every public method of the {@link Reader} contract as FaultMatrix methods, for any door that is a
 * Reader (Store, RocksJavaReader). The door supplies an open reader holding {@link Faults#KEY}, a
 * closed one, and read options whose content is wrong.
 */
public final class ReaderMethods {
  private ReaderMethods() {}

  /** What a door provides. */
  public record Door(
      Supplier<Reader> open,
      Supplier<Reader> closed,
      Supplier<PinnedView> closedView,
      Supplier<PinnedView> viewOfClosedReader,
      Supplier<PinnedBatch> closedBatch,
      Supplier<PinnedBatch> batchOfClosedReader,
      Supplier<Cursor> closedCursor,
      Supplier<Cursor> cursorOfClosedReader,
      Fault[] optionsContent) {}

  /** Read options whose column family or snapshot is wrong for door's reader. */
  public static Fault[] optionsContent(
      io.pinget.ColumnFamily foreignFamily, Snapshot foreignSnapshot, Snapshot closedSnapshot) {
    return new Fault[] {
      fault(
          "column family of another store",
          () -> ReadOptions.DEFAULT.withColumnFamily(foreignFamily),
          IllegalArgumentException.class),
      fault(
          "snapshot of another store",
          () -> ReadOptions.DEFAULT.withSnapshot(foreignSnapshot),
          IllegalArgumentException.class),
      fault(
          "closed snapshot",
          () -> ReadOptions.DEFAULT.withSnapshot(closedSnapshot),
          IllegalStateException.class)
    };
  }

  public static List<Method> of(Door d) {
    Fault closedReader = fault("closed", d.closed(), StoreClosedException.class);
    Map<Class<?>, Supplier<?>> decoders =
        Map.of(
            ValueDecoder.class,
            () -> (ValueDecoder<Integer>) ByteBuffer::remaining,
            LongDecoder.class,
            () -> (LongDecoder) v -> v.remaining());
    Signatures.Roles roles = new Signatures.Roles(d.optionsContent(), decoders);
    List<Method> m = new ArrayList<>();
    m.addAll(
        Signatures.of(
            Reader.class,
            Signatures.contract(),
            new Signatures.Receiver("reader", d.open(), closedReader),
            roles));
    // The handles: the handle first, then its reader, then the arguments.
    m.addAll(
        Signatures.of(
            PinnedView.class,
            Signatures.reads(),
            new Signatures.Receiver(
                "view",
                () -> d.open().get().newPinnedView(),
                fault("closed", d.closedView(), IllegalStateException.class),
                fault("of a closed reader", d.viewOfClosedReader(), StoreClosedException.class)),
            roles));
    m.addAll(
        Signatures.of(
            PinnedBatch.class,
            Signatures.reads(),
            new Signatures.Receiver(
                "batch",
                () -> d.open().get().newPinnedBatch(),
                fault("closed", d.closedBatch(), IllegalStateException.class),
                fault("of a closed reader", d.batchOfClosedReader(), StoreClosedException.class)),
            roles));

    // Scans: the cursor first, then its reader, then the arguments.
    Supplier<Range> key = () -> new Range(KEY, 0, KEY.length);
    Supplier<ByteBuffer> keyBuffer = () -> ByteBuffer.allocateDirect(KEY.length).put(0, KEY);
    Supplier<Range> dst = () -> new Range(new byte[64], 0, 64);
    Fault[] cursor = {
      fault("closed", d.closedCursor(), IllegalStateException.class),
      fault("of a closed reader", d.cursorOfClosedReader(), StoreClosedException.class)
    };
    Supplier<Cursor> openCursor = () -> d.open().get().newCursor();
    Supplier<Cursor> lentCursor =
        () -> {
          Cursor c = d.open().get().newCursor();
          c.seekToFirst();
          c.next(1);
          return c;
        };
    m.add(
        new Method(
                "Cursor.seek(key, off, len)",
                a -> {
                  ((Cursor) a[0]).seek(k(a[1]).array(), k(a[1]).off(), k(a[1]).len());
                  return null;
                })
            .slot("cursor", openCursor, cursor)
            .slot("key", key, Faults.keyRange()));
    m.add(
        new Method(
                "Cursor.seek(ByteBuffer)",
                a -> {
                  ((Cursor) a[0]).seek(b(a[1]));
                  return null;
                })
            .slot("cursor", openCursor, cursor)
            .slot("key", keyBuffer, Faults.keyBuffer()));
    m.add(
        new Method(
                "Cursor.seekForPrev(key, off, len)",
                a -> {
                  ((Cursor) a[0]).seekForPrev(k(a[1]).array(), k(a[1]).off(), k(a[1]).len());
                  return null;
                })
            .slot("cursor", openCursor, cursor)
            .slot("key", key, Faults.keyRange()));
    Fault[] max = {
      fault("0", () -> 0, IllegalArgumentException.class),
      fault("negative", () -> -1, IllegalArgumentException.class)
    };
    m.add(
        new Method("Cursor.next(max)", a -> ((Cursor) a[0]).next((Integer) a[1]))
            .slot("cursor", openCursor, cursor)
            .slot("max", () -> 16, max));
    m.add(
        new Method("Cursor.prev(max)", a -> ((Cursor) a[0]).prev((Integer) a[1]))
            .slot("cursor", openCursor, cursor)
            .slot("max", () -> 16, max));
    Fault[] entry = {
      fault("past the batch", () -> 1, IndexOutOfBoundsException.class),
      fault("negative", () -> -1, IndexOutOfBoundsException.class)
    };
    m.add(
        new Method("Cursor.key(i)", a -> ((Cursor) a[0]).key((Integer) a[1]))
            .slot(
                "cursor",
                lentCursor,
                fault("closed", d.closedCursor(), IllegalStateException.class))
            .slot("i", () -> 0, entry));
    m.add(
        new Method("Cursor.value(i)", a -> ((Cursor) a[0]).value((Integer) a[1]))
            .slot(
                "cursor",
                lentCursor,
                fault("closed", d.closedCursor(), IllegalStateException.class))
            .slot("i", () -> 0, entry));
    m.add(
        new Method(
                "Cursor.copyValue(i, dst, off, len)",
                a ->
                    ((Cursor) a[0])
                        .copyValue((Integer) a[1], k(a[2]).array(), k(a[2]).off(), k(a[2]).len()))
            .slot(
                "cursor",
                lentCursor,
                fault("closed", d.closedCursor(), IllegalStateException.class))
            .slot("i", () -> 0, entry)
            .slot("dst", dst, Faults.arrayRange()));
    m.add(
        new Method(
                "Cursor.forEach(visitor)", a -> ((Cursor) a[0]).forEach((Cursor.EntryVisitor) a[1]))
            .slot("cursor", openCursor, cursor)
            .slot(
                "visitor",
                () -> (Cursor.EntryVisitor) (key2, value) -> true,
                Faults.nullOf("visitor")));
    return m;
  }

  static Range k(Object x) {
    return (Range) x;
  }

  static ByteBuffer b(Object x) {
    return (ByteBuffer) x;
  }
}
