// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs on Java 22+ against the plain JAR (its META-INF/versions/22 classes apply only to a JAR):
 * every method that takes a direct buffer, given one whose Arena is closed, throws
 * IllegalStateException before the native call, as key, value or destination, where it would
 * otherwise read or write freed memory; a buffer of a live Arena is still read. Compiled for Java
 * 17, so the FFM API is reached by reflection. Exits 1 on any mismatch.
 *
 * <p>{@code java -cp target/pinget-0.1.0-SNAPSHOT.jar:target/test-classes io.pinget.ClosedArenaMain
 * [dir]}
 */
public final class ClosedArenaMain {
  private ClosedArenaMain() {}

  /** A direct buffer of size bytes over a new confined Arena, and that Arena. */
  private static Object[] arenaBuffer(int size) throws ReflectiveOperationException {
    Class<?> arenas = Class.forName("java.lang.foreign.Arena");
    Object arena = arenas.getMethod("ofConfined").invoke(null);
    Object segment = arenas.getMethod("allocate", long.class).invoke(arena, (long) size);
    ByteBuffer buffer =
        (ByteBuffer)
            Class.forName("java.lang.foreign.MemorySegment")
                .getMethod("asByteBuffer")
                .invoke(segment);
    return new Object[] {buffer, arena};
  }

  public static void main(String[] args) throws Exception {
    Path dir = args.length > 0 ? Paths.get(args[0]) : Files.createTempDirectory("pinget-arena");
    Files.createDirectories(dir);
    byte[] key = "arena-key".getBytes();
    byte[] value = "arena-value".getBytes();

    Object[] live = arenaBuffer(key.length);
    ByteBuffer liveKey = (ByteBuffer) live[0];
    liveKey.put(key).flip();
    Object[] dead = arenaBuffer(64);
    ByteBuffer deadBuffer = (ByteBuffer) dead[0];
    ((AutoCloseable) dead[1]).close();

    List<String> failures = new ArrayList<>();
    try (Store store = Store.open(dir.resolve("db"));
        PinnedView view = store.newPinnedView();
        WriteBatch batch = new WriteBatch()) {
      store.put(key, value);
      ByteBuffer direct = ByteBuffer.allocateDirect(64);
      ReadOptions r = ReadOptions.DEFAULT;
      WriteOptions w = WriteOptions.DEFAULT;
      ColumnFamily cf = ColumnFamily.DEFAULT;
      byte[] dst = new byte[64];
      Runnable[] calls = {
        () -> store.directCopy(key, deadBuffer),
        () -> store.directCopy(r, key, 0, key.length, deadBuffer),
        () -> store.directCopy(r, deadBuffer, direct),
        () -> store.directCopy(r, liveKey.duplicate(), deadBuffer),
        () -> store.bufferCopy(r, deadBuffer, dst, 0, dst.length),
        () -> store.stringCopy(r, deadBuffer),
        () -> store.pinnableCopy(r, deadBuffer),
        () -> store.pinnedValue(r, deadBuffer).close(),
        () -> view.get(r, deadBuffer),
        () -> store.put(w, deadBuffer, direct),
        () -> store.put(w, liveKey.duplicate(), deadBuffer),
        () -> store.delete(w, deadBuffer),
        () -> batch.put(cf, deadBuffer, direct),
        () -> batch.delete(cf, deadBuffer),
        () ->
            store.multiGetDirectCopy(
                r, new byte[][] {key}, new ByteBuffer[] {deadBuffer}, new int[1]),
      };
      for (int i = 0; i < calls.length; i++) {
        try {
          calls[i].run();
          failures.add("call " + i + " did not throw");
        } catch (IllegalStateException expected) {
          if (!expected.getMessage().contains("closed")) {
            failures.add("call " + i + ": " + expected);
          }
        } catch (RuntimeException e) {
          failures.add("call " + i + ": " + e);
        }
      }
      // Nothing was written through a dead buffer, and a live Arena's buffer still reads.
      if (store.stringCopy(r, liveKey.duplicate()) == null) {
        failures.add("a live Arena's key did not read the value");
      }
      ((AutoCloseable) live[1]).close();
    }
    System.out.println(failures.isEmpty() ? "closed arena: OK" : "closed arena: " + failures);
    if (!failures.isEmpty()) {
      System.exit(1);
    }
  }
}
