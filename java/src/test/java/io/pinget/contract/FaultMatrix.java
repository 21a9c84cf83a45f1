// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.contract;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * The contract's order of checks, tested the same way on every door (the JNI API, the RocksJava
 * reader, the FFM binding): a public method is described as its slots, in the order the contract
 * checks them (the receiver, then each argument in signature order, then the options' content),
 * each with a valid value and the faults it can carry. Every fault alone, and every pair of faults
 * in two slots, must throw exactly the exception of the earlier slot's fault; a batch refused by
 * its checks must leave every element of its sizes at -1 (docs/misuse.md).
 */
public final class FaultMatrix {
  private FaultMatrix() {}

  /** A wrong value for a slot, and the exception the contract gives it. */
  public record Fault(String name, Supplier<?> value, Class<? extends Throwable> expected) {}

  /**
   * One step of the check order: its value goes into args[arg]. A content slot faults an earlier
   * argument's content (its faults replace that argument) and has no value of its own.
   */
  public record Slot(
      String name, int arg, Supplier<?> valid, List<Fault> faults, boolean content) {}

  /** Runs the method with args[0] the receiver. */
  @FunctionalInterface
  public interface Call {
    Object run(Object[] args) throws Throwable;
  }

  /** A byte[] range argument (array, offset, length), one slot. */
  public record Range(byte[] array, int off, int len) {}

  /** A method under test: its slots in check order. */
  public static final class Method {
    final String name;
    final Call call;
    final List<Slot> slots = new ArrayList<>();
    int arity;
    int sizesArg = -1;

    public Method(String name, Call call) {
      this.name = name;
      this.call = call;
    }

    /** The next argument (or the receiver, first), checked after those before it. */
    public Method slot(String slotName, Supplier<?> valid, Fault... faults) {
      slots.add(new Slot(slotName, arity++, valid, List.of(faults), false));
      return this;
    }

    /**
     * Faults of an earlier argument's content, checked after every argument (the read or write
     * options' column family and snapshot): their values replace args[arg].
     */
    public Method content(int arg, Fault... faults) {
      Slot of = slots.get(arg);
      slots.add(new Slot("content of " + of.name(), arg, of.valid(), List.of(faults), true));
      return this;
    }

    /**
     * args[arg] is a batch's sizes (after a refusal, every element must be -1) or a batched decoded
     * read's outputs (every element null, or -1 for longs).
     */
    public Method sizes(int arg) {
      sizesArg = arg;
      return this;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** What a run found: how many checks, and each one that failed. */
  public record Result(int checks, List<String> failures) {}

  /** Runs every single and pairwise fault of each method. */
  public static Result run(List<Method> methods) {
    int checks = 0;
    List<String> failures = new ArrayList<>();
    for (Method m : methods) {
      // The valid call must work, or no fault proves anything.
      try {
        close(m.call.run(args(m)));
      } catch (Throwable t) {
        failures.add(m + " with valid arguments threw " + t);
        continue;
      }
      for (int i = 0; i < m.slots.size(); i++) {
        Slot a = m.slots.get(i);
        for (Fault fa : a.faults()) {
          checks++;
          expect(m, List.of(a), List.of(fa), failures);
          for (int j = i + 1; j < m.slots.size(); j++) {
            Slot b = m.slots.get(j);
            if (b.arg() == a.arg()) {
              continue; // one argument holds one fault
            }
            for (Fault fb : b.faults()) {
              checks++;
              expect(m, List.of(a, b), List.of(fa, fb), failures);
            }
          }
        }
      }
    }
    return new Result(checks, failures);
  }

  private static Object[] args(Method m) {
    Object[] args = new Object[m.arity];
    for (Slot s : m.slots) {
      if (!s.content()) {
        args[s.arg()] = s.valid().get();
      }
    }
    return args;
  }

  /** faults.get(0), in the earliest slot, must win. */
  private static void expect(Method m, List<Slot> slots, List<Fault> faults, List<String> out) {
    Object[] args = args(m);
    for (int k = 0; k < slots.size(); k++) {
      args[slots.get(k).arg()] = faults.get(k).value().get();
    }
    int[] sizes = m.sizesArg >= 0 && args[m.sizesArg] instanceof int[] s ? s : null;
    if (sizes != null) {
      Arrays.fill(sizes, 12345);
    }
    // A batched decoded read's outputs: null (objects) or -1 (longs, read with missing = -1).
    Object[] outs = m.sizesArg >= 0 && args[m.sizesArg] instanceof Object[] o ? o : null;
    long[] longs = m.sizesArg >= 0 && args[m.sizesArg] instanceof long[] l ? l : null;
    if (outs != null) {
      Arrays.fill(outs, "unset");
    }
    if (longs != null) {
      Arrays.fill(longs, 12345);
    }
    Class<? extends Throwable> want = faults.get(0).expected();
    String what = m + " with " + describe(slots, faults);
    try {
      close(m.call.run(args));
      out.add(what + ": threw nothing, expected " + want.getSimpleName());
      return;
    } catch (Throwable t) {
      if (t.getClass() != want) {
        out.add(what + ": threw " + t + ", expected " + want.getSimpleName());
        return;
      }
    }
    if (sizes != null) {
      for (int i = 0; i < sizes.length; i++) {
        if (sizes[i] != -1) {
          out.add(what + ": sizes[" + i + "] is " + sizes[i] + " after the refusal, not -1");
          return;
        }
      }
    }
    for (int i = 0; outs != null && i < outs.length; i++) {
      if (outs[i] != null) {
        out.add(what + ": out[" + i + "] is " + outs[i] + " after the refusal, not null");
        return;
      }
    }
    for (int i = 0; longs != null && i < longs.length; i++) {
      if (longs[i] != -1) {
        out.add(what + ": out[" + i + "] is " + longs[i] + " after the refusal, not -1");
        return;
      }
    }
  }

  private static String describe(List<Slot> slots, List<Fault> faults) {
    StringBuilder s = new StringBuilder();
    for (int k = 0; k < slots.size(); k++) {
      s.append(k == 0 ? "" : " and ").append(slots.get(k).name()).append(" ");
      s.append(faults.get(k).name());
    }
    return s.toString();
  }

  private static void close(Object result) throws Exception {
    if (result instanceof AutoCloseable c) {
      c.close();
    }
  }

  /** A fault. */
  public static Fault fault(String name, Supplier<?> value, Class<? extends Throwable> expected) {
    return new Fault(name, value, expected);
  }
}
