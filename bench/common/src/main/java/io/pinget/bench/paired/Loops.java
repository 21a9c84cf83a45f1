// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.paired;

import java.lang.invoke.LambdaMetafactory;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The loop of every side that reads one key, or one batch, per step, so that a row gives only its
 * read. Each loop is written twice, once for side a and once for side b: a JVM measures one
 * comparison, so each copy's call of the read sees one class and the JIT inlines it, as it would a
 * loop written in the row's own lambda (see {@link Side}). The two copies must stay identical.
 */
public final class Loops {
  private Loops() {}

  /** A read of one key. */
  @FunctionalInterface
  public interface KeyRead {
    /**
     * Reads the key at position p of the visiting order and hands what it read to bh.
     *
     * @param p a position in [0, n)
     * @param bh consumes the result
     * @throws Exception what the read throws; the comparison fails
     */
    void read(int p, Blackhole bh) throws Exception;
  }

  /** A read of one batch. */
  @FunctionalInterface
  public interface BatchRead {
    /**
     * Reads batch b, the keys at positions [b * batch, (b + 1) * batch) of the visiting order.
     *
     * @param b a batch in [0, count)
     * @param bh consumes the result
     * @throws Exception what the read throws; the comparison fails
     */
    void read(int b, Blackhole bh) throws Exception;
  }

  private static final MethodType READ =
      MethodType.methodType(void.class, int.class, Blackhole.class);

  /**
   * The read of a row that a method of rows' class defines: the method named after the row in camel
   * case ({@code pinned_view}: {@code pinnedView}, the name of its JMH method too) that takes a
   * position and a Blackhole. A {@code _twin} row is its row under another name, for the controls.
   * The read is made as javac makes a method reference, so that the JIT inlines it alike.
   *
   * @param lookup a lookup with private access to rows' class ({@code MethodHandles.lookup()} in
   *     it)
   * @param rows the object whose method reads
   * @param row the row's name
   * @return the read, or null if rows' class has no such method
   */
  public static KeyRead keyRead(MethodHandles.Lookup lookup, Object rows, String row) {
    String base = row.endsWith("_twin") ? row.substring(0, row.length() - "_twin".length()) : row;
    StringBuilder name = new StringBuilder();
    for (String word : base.split("_")) {
      if (name.length() == 0) {
        name.append(word);
      } else if (!word.isEmpty()) {
        name.append(Character.toUpperCase(word.charAt(0))).append(word, 1, word.length());
      }
    }
    MethodHandle method;
    try {
      method = lookup.findVirtual(rows.getClass(), name.toString(), READ);
    } catch (NoSuchMethodException e) {
      return null;
    } catch (IllegalAccessException e) {
      throw new IllegalArgumentException(row + ": " + e.getMessage(), e);
    }
    try {
      return (KeyRead)
          LambdaMetafactory.metafactory(
                  lookup,
                  "read",
                  MethodType.methodType(KeyRead.class, rows.getClass()),
                  READ,
                  method,
                  READ)
              .getTarget()
              .invoke(rows);
    } catch (Throwable t) {
      throw new IllegalStateException(row + ": " + t, t);
    }
  }

  /**
   * A side of single-key reads: ops reads from position start, wrapping at n.
   *
   * @param sideA whether it is side a of its comparison
   * @param n the positions of the visiting order
   * @param read one key's read
   * @return the side
   */
  public static Side keys(boolean sideA, int n, KeyRead read) {
    return sideA ? new KeysA(n, read) : new KeysB(n, read);
  }

  /**
   * A side of batched reads: one batch per batch operations, from the batch holding position start,
   * wrapping at count.
   *
   * @param sideA whether it is side a of its comparison
   * @param batch keys per batch
   * @param count batches of the visiting order
   * @param read one batch's read
   * @return the side
   */
  public static Side batches(boolean sideA, int batch, int count, BatchRead read) {
    return sideA ? new BatchesA(batch, count, read) : new BatchesB(batch, count, read);
  }

  private record KeysA(int n, KeyRead read) implements Side {
    @Override
    public void run(int start, int ops, Blackhole bh) throws Exception {
      int p = start;
      for (int i = 0; i < ops; i++) {
        read.read(p, bh);
        if (++p == n) {
          p = 0;
        }
      }
    }
  }

  private record KeysB(int n, KeyRead read) implements Side {
    @Override
    public void run(int start, int ops, Blackhole bh) throws Exception {
      int p = start;
      for (int i = 0; i < ops; i++) {
        read.read(p, bh);
        if (++p == n) {
          p = 0;
        }
      }
    }
  }

  private record BatchesA(int batch, int count, BatchRead read) implements Side {
    @Override
    public void run(int start, int ops, Blackhole bh) throws Exception {
      int b = (start / batch) % count;
      for (int i = 0; i < ops; i += batch) {
        read.read(b, bh);
        if (++b == count) {
          b = 0;
        }
      }
    }
  }

  private record BatchesB(int batch, int count, BatchRead read) implements Side {
    @Override
    public void run(int start, int ops, Blackhole bh) throws Exception {
      int b = (start / batch) % count;
      for (int i = 0; i < ops; i += batch) {
        read.read(b, bh);
        if (++b == count) {
          b = 0;
        }
      }
    }
  }
}
