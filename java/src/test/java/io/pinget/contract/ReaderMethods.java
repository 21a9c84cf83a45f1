// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.contract;

import static io.pinget.contract.FaultMatrix.fault;
import static io.pinget.contract.Faults.KEY;

import io.pinget.Cursor;
import io.pinget.CursorOptions;
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
    Supplier<ReadOptions> ro = () -> ReadOptions.DEFAULT;
    Fault noOptions = Faults.nullOf("options");
    Supplier<Range> key = () -> new Range(KEY, 0, KEY.length);
    Supplier<ByteBuffer> keyBuffer = () -> ByteBuffer.allocateDirect(KEY.length).put(0, KEY);
    Supplier<Range> dst = () -> new Range(new byte[64], 0, 64);
    List<Method> m = new ArrayList<>();

    m.add(
        new Method(
                "stringCopy(options, key, off, len)",
                a -> r(a).stringCopy(o(a[1]), k(a[2]).array(), k(a[2]).off(), k(a[2]).len()))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", key, Faults.keyRange())
            .content(1, d.optionsContent()));
    m.add(
        new Method("stringCopy(options, ByteBuffer)", a -> r(a).stringCopy(o(a[1]), b(a[2])))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", keyBuffer, Faults.keyBuffer())
            .content(1, d.optionsContent()));
    m.add(
        new Method(
                "pinnableCopy(options, key, off, len)",
                a -> r(a).pinnableCopy(o(a[1]), k(a[2]).array(), k(a[2]).off(), k(a[2]).len()))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", key, Faults.keyRange())
            .content(1, d.optionsContent()));
    m.add(
        new Method("pinnableCopy(options, ByteBuffer)", a -> r(a).pinnableCopy(o(a[1]), b(a[2])))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", keyBuffer, Faults.keyBuffer())
            .content(1, d.optionsContent()));
    m.add(
        new Method(
                "bufferCopy(options, key, off, len, dst, off, len)",
                a ->
                    r(a).bufferCopy(
                            o(a[1]),
                            k(a[2]).array(),
                            k(a[2]).off(),
                            k(a[2]).len(),
                            k(a[3]).array(),
                            k(a[3]).off(),
                            k(a[3]).len()))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", key, Faults.keyRange())
            .slot("dst", dst, Faults.arrayRange())
            .content(1, d.optionsContent()));
    m.add(
        new Method(
                "bufferCopy(options, ByteBuffer, dst, off, len)",
                a ->
                    r(a).bufferCopy(
                            o(a[1]), b(a[2]), k(a[3]).array(), k(a[3]).off(), k(a[3]).len()))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", keyBuffer, Faults.keyBuffer())
            .slot("dst", dst, Faults.arrayRange())
            .content(1, d.optionsContent()));
    m.add(
        new Method(
                "directCopy(options, key, off, len, dst)",
                a ->
                    r(a).directCopy(
                            o(a[1]), k(a[2]).array(), k(a[2]).off(), k(a[2]).len(), b(a[3])))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", key, Faults.keyRange())
            .slot("dst", Faults::direct, Faults.dstBuffer())
            .content(1, d.optionsContent()));
    m.add(
        new Method(
                "directCopy(options, ByteBuffer, dst)",
                a -> r(a).directCopy(o(a[1]), b(a[2]), b(a[3])))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", keyBuffer, Faults.keyBuffer())
            .slot("dst", Faults::direct, Faults.dstBuffer())
            .content(1, d.optionsContent()));
    m.add(
        new Method(
                "pinnedValue(options, key, off, len)",
                a -> r(a).pinnedValue(o(a[1]), k(a[2]).array(), k(a[2]).off(), k(a[2]).len()))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", key, Faults.keyRange())
            .content(1, d.optionsContent()));
    m.add(
        new Method("pinnedValue(options, ByteBuffer)", a -> r(a).pinnedValue(o(a[1]), b(a[2])))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", keyBuffer, Faults.keyBuffer())
            .content(1, d.optionsContent()));
    m.add(
        new Method("newPinnedView()", a -> r(a).newPinnedView())
            .slot("reader", d.open(), closedReader));
    m.add(
        new Method("newPinnedBatch()", a -> r(a).newPinnedBatch())
            .slot("reader", d.open(), closedReader));
    m.add(
        new Method(
                "multiGetBufferCopy(options, keys, dsts, sizes)",
                a -> {
                  r(a).multiGetBufferCopy(o(a[1]), (byte[][]) a[2], (byte[][]) a[3], (int[]) a[4]);
                  return null;
                })
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("keys", Faults::twoKeys, Faults.keys())
            .slot("dsts", Faults::twoArrays, Faults.arrays())
            .slot("sizes", () -> new int[2], Faults.sizes())
            .content(1, d.optionsContent())
            .sizes(4));
    m.add(
        new Method(
                "multiGetDirectCopy(options, keys, dsts, sizes)",
                a -> {
                  r(a).multiGetDirectCopy(
                          o(a[1]), (byte[][]) a[2], (ByteBuffer[]) a[3], (int[]) a[4]);
                  return null;
                })
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("keys", Faults::twoKeys, Faults.keys())
            .slot("dsts", Faults::twoBuffers, Faults.buffers())
            .slot("sizes", () -> new int[2], Faults.sizes())
            .content(1, d.optionsContent())
            .sizes(4));

    // Decode on read: the decoder is checked after the key, before the options' content.
    Supplier<ValueDecoder<Integer>> decoder = () -> ByteBuffer::remaining;
    Supplier<LongDecoder> longDecoder = () -> v -> v.remaining();
    Fault noDecoder = Faults.nullOf("decoder");
    m.add(
        new Method(
                "get(options, key, off, len, decoder)",
                a ->
                    r(a).get(
                            o(a[1]),
                            k(a[2]).array(),
                            k(a[2]).off(),
                            k(a[2]).len(),
                            (ValueDecoder<?>) a[3]))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", key, Faults.keyRange())
            .slot("decoder", decoder, noDecoder)
            .content(1, d.optionsContent()));
    m.add(
        new Method(
                "get(options, ByteBuffer, decoder)",
                a -> r(a).get(o(a[1]), b(a[2]), (ValueDecoder<?>) a[3]))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", keyBuffer, Faults.keyBuffer())
            .slot("decoder", decoder, noDecoder)
            .content(1, d.optionsContent()));
    m.add(
        new Method(
                "getLong(options, key, off, len, decoder, missing)",
                a ->
                    r(a).getLong(
                            o(a[1]),
                            k(a[2]).array(),
                            k(a[2]).off(),
                            k(a[2]).len(),
                            (LongDecoder) a[3],
                            -1))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", key, Faults.keyRange())
            .slot("decoder", longDecoder, noDecoder)
            .content(1, d.optionsContent()));
    m.add(
        new Method(
                "getLong(options, ByteBuffer, decoder, missing)",
                a -> r(a).getLong(o(a[1]), b(a[2]), (LongDecoder) a[3], -1))
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("key", keyBuffer, Faults.keyBuffer())
            .slot("decoder", longDecoder, noDecoder)
            .content(1, d.optionsContent()));
    m.add(
        new Method(
                "multiGet(options, keys, decoder, out)",
                a -> {
                  r(a).multiGet(o(a[1]), (byte[][]) a[2], (ValueDecoder<?>) a[3], (Object[]) a[4]);
                  return null;
                })
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("keys", Faults::twoKeys, Faults.keys())
            .slot("decoder", decoder, noDecoder)
            .slot("out", () -> new Object[2], Faults.outputs(() -> new Object[1]))
            .content(1, d.optionsContent())
            .sizes(4));
    m.add(
        new Method(
                "multiGetLong(options, keys, decoder, missing, out)",
                a -> {
                  r(a).multiGetLong(
                          o(a[1]), (byte[][]) a[2], (LongDecoder) a[3], -1, (long[]) a[4]);
                  return null;
                })
            .slot("reader", d.open(), closedReader)
            .slot("options", ro, noOptions)
            .slot("keys", Faults::twoKeys, Faults.keys())
            .slot("decoder", longDecoder, noDecoder)
            .slot("out", () -> new long[2], Faults.outputs(() -> new long[1]))
            .content(1, d.optionsContent())
            .sizes(4));

    // The handles: the handle first, then its reader, then the arguments.
    Fault[] view =
        new Fault[] {
          fault("closed", d.closedView(), IllegalStateException.class),
          fault("of a closed reader", d.viewOfClosedReader(), StoreClosedException.class)
        };
    Supplier<PinnedView> openView = () -> d.open().get().newPinnedView();
    m.add(
        new Method(
                "PinnedView.get(options, key, off, len)",
                a ->
                    ((PinnedView) a[0]).get(o(a[1]), k(a[2]).array(), k(a[2]).off(), k(a[2]).len()))
            .slot("view", openView, view)
            .slot("options", ro, noOptions)
            .slot("key", key, Faults.keyRange())
            .content(1, d.optionsContent()));
    m.add(
        new Method(
                "PinnedView.get(options, ByteBuffer)",
                a -> ((PinnedView) a[0]).get(o(a[1]), b(a[2])))
            .slot("view", openView, view)
            .slot("options", ro, noOptions)
            .slot("key", keyBuffer, Faults.keyBuffer())
            .content(1, d.optionsContent()));
    m.add(
        new Method(
                "PinnedBatch.get(options, keys)",
                a -> ((PinnedBatch) a[0]).get(o(a[1]), (byte[][]) a[2]))
            .slot(
                "batch",
                () -> d.open().get().newPinnedBatch(),
                fault("closed", d.closedBatch(), IllegalStateException.class),
                fault("of a closed reader", d.batchOfClosedReader(), StoreClosedException.class))
            .slot("options", ro, noOptions)
            .slot("keys", Faults::twoKeys, Faults.keys())
            .content(1, d.optionsContent()));

    // Scans: the cursor first, then its reader, then the arguments.
    List<Fault> cursorContent = new ArrayList<>();
    for (Fault f : d.optionsContent()) {
      cursorContent.add(
          fault(
              f.name(),
              () -> CursorOptions.DEFAULT.withReadOptions((ReadOptions) f.value().get()),
              f.expected()));
    }
    m.add(
        new Method("newCursor(options)", a -> r(a).newCursor((CursorOptions) a[1]))
            .slot("reader", d.open(), closedReader)
            .slot("options", () -> CursorOptions.DEFAULT, Faults.nullOf("options"))
            .content(1, cursorContent.toArray(Fault[]::new)));
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

  static Reader r(Object[] a) {
    return (Reader) a[0];
  }

  static ReadOptions o(Object x) {
    return (ReadOptions) x;
  }

  static Range k(Object x) {
    return (Range) x;
  }

  static ByteBuffer b(Object x) {
    return (ByteBuffer) x;
  }
}
