// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.contract;

import static io.pinget.contract.FaultMatrix.fault;

import io.pinget.CursorOptions;
import io.pinget.ReadOptions;
import io.pinget.contract.FaultMatrix.Fault;
import io.pinget.contract.FaultMatrix.Method;
import io.pinget.contract.FaultMatrix.Range;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A door's read methods as FaultMatrix methods, derived from their signatures: each parameter's
 * slot follows from its type and place, in the contract's terms (docs/misuse.md): the read options,
 * then the key (the first {@code byte[]}, range or {@code ByteBuffer}), then a destination (a later
 * one, or a {@code MemorySegment}), a batch's keys, destinations and sizes, a decoder, a batched
 * decoded read's output array; a {@code long} after a decoder is its missing value (-1). A read
 * method added to a door is in its contract suite without a line of test, and a parameter that no
 * role fits fails the suite, so the roles grow with the API.
 */
public final class Signatures {
  private Signatures() {}

  /** A parameter's role in the contract: its slot's name, and its valid value and faults. */
  public enum Role {
    KEY_RANGE("key"),
    WHOLE_KEY("key"),
    KEY_BUFFER("key"),
    DST_RANGE("dst"),
    DST_BUFFER("dst"),
    DST_SEGMENT("dst"),
    KEYS("keys"),
    DST_ARRAYS("dsts"),
    DST_BUFFERS("dsts"),
    SIZES("sizes"),
    OUT_OBJECTS("out"),
    OUT_LONGS("out");

    final String slot;

    Role(String slot) {
      this.slot = slot;
    }
  }

  /** A role's valid value and faults. */
  public record Spec(Supplier<?> valid, Fault... faults) {}

  /** The receiver's slot: its name, a valid one, and its faults (closed, of a closed store). */
  public record Receiver(String name, Supplier<?> open, Fault... faults) {}

  /**
   * What a door's roles are: read options whose content is wrong for it, its decoders (a valid one
   * per decoder interface), and any role's spec that is not the JNI API's.
   */
  public static final class Roles {
    final Fault[] optionsContent;
    final Map<Class<?>, Supplier<?>> decoders;
    final Map<Role, Spec> specs = new EnumMap<>(Role.class);

    public Roles(Fault[] optionsContent, Map<Class<?>, Supplier<?>> decoders) {
      this.optionsContent = optionsContent;
      this.decoders = decoders;
      Supplier<Range> key = () -> new Range(Faults.KEY, 0, Faults.KEY.length);
      specs.put(Role.KEY_RANGE, new Spec(key, Faults.keyRange()));
      specs.put(Role.WHOLE_KEY, new Spec(() -> Faults.KEY, Faults.wholeKey()));
      specs.put(
          Role.KEY_BUFFER,
          new Spec(
              () -> ByteBuffer.allocateDirect(Faults.KEY.length).put(0, Faults.KEY),
              Faults.keyBuffer()));
      specs.put(
          Role.DST_RANGE, new Spec(() -> new Range(new byte[64], 0, 64), Faults.arrayRange()));
      specs.put(Role.DST_BUFFER, new Spec(Faults::direct, Faults.dstBuffer()));
      specs.put(Role.KEYS, new Spec(Faults::twoKeys, Faults.keys()));
      specs.put(Role.DST_ARRAYS, new Spec(Faults::twoArrays, Faults.arrays()));
      specs.put(Role.DST_BUFFERS, new Spec(Faults::twoBuffers, Faults.buffers()));
      specs.put(Role.SIZES, new Spec(() -> new int[2], Faults.sizes()));
      specs.put(
          Role.OUT_OBJECTS, new Spec(() -> new Object[2], Faults.outputs(() -> new Object[1])));
      specs.put(Role.OUT_LONGS, new Spec(() -> new long[2], Faults.outputs(() -> new long[1])));
    }

    /** Replaces a role's spec (the FFM door's destinations fault on dead memory too). */
    public Roles with(Role role, Spec spec) {
      specs.put(role, spec);
      return this;
    }
  }

  /**
   * The public instance methods of type that which selects, each a FaultMatrix method, ordered by
   * name, then by {@code Method.toString()}.
   *
   * @throws IllegalArgumentException if which selects none, or for a parameter that no role fits
   */
  public static List<Method> of(
      Class<?> type, Predicate<java.lang.reflect.Method> which, Receiver receiver, Roles roles) {
    List<Method> out = new ArrayList<>();
    Arrays.stream(type.getMethods())
        .filter(m -> !Modifier.isStatic(m.getModifiers()) && !m.isBridge() && which.test(m))
        .sorted(
            Comparator.comparing(java.lang.reflect.Method::getName)
                .thenComparing(java.lang.reflect.Method::toString))
        .forEach(
            m -> out.add(method(type.getSimpleName() + "." + m.getName(), m, receiver, roles)));
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no method of " + type + " is selected");
    }
    return out;
  }

  /** The abstract methods of a read contract (an interface): all but isClosed() and close(). */
  public static Predicate<java.lang.reflect.Method> contract() {
    return m -> !m.isDefault() && !m.getName().equals("isClosed") && !m.getName().equals("close");
  }

  /** A class's reads: the methods whose options come first, and the read handles' factories. */
  public static Predicate<java.lang.reflect.Method> reads() {
    return m -> {
      Class<?>[] p = m.getParameterTypes();
      return p.length > 0
          ? p[0] == ReadOptions.class || p[0] == CursorOptions.class
          : m.getName().startsWith("newPinned");
    };
  }

  /** A slot of the method being derived. */
  private record Slot(String name, Supplier<?> valid, Fault... faults) {}

  private static Method method(
      String name, java.lang.reflect.Method m, Receiver receiver, Roles roles) {
    Class<?>[] p = m.getParameterTypes();
    List<String> names = new ArrayList<>();
    List<Slot> slots = new ArrayList<>();
    // How each Java argument comes from the matrix's args (args[0] is the receiver).
    List<Function<Object[], Object>> javaArgs = new ArrayList<>();
    boolean key = false;
    boolean keys = false;
    int sizes = -1;
    int options = -1;
    Fault[] content = null;
    for (int i = 0; i < p.length; i++) {
      int a = slots.size() + 1;
      if (p[i] == ReadOptions.class || p[i] == CursorOptions.class) {
        boolean cursor = p[i] == CursorOptions.class;
        content = cursor ? cursorContent(roles.optionsContent) : roles.optionsContent;
        options = a;
        names.add("options");
        javaArgs.add(x -> x[a]);
        slots.add(
            new Slot(
                "options",
                cursor ? () -> CursorOptions.DEFAULT : () -> ReadOptions.DEFAULT,
                Faults.nullOf("options")));
      } else if (p[i] == long.class && i > 0 && roles.decoders.containsKey(p[i - 1])) {
        names.add("missing");
        javaArgs.add(x -> -1L);
      } else if (roles.decoders.containsKey(p[i])) {
        names.add("decoder");
        javaArgs.add(x -> x[a]);
        slots.add(new Slot("decoder", roles.decoders.get(p[i]), Faults.nullOf("decoder")));
      } else {
        Role role;
        if (p[i] == byte[].class && rangeAt(p, i + 1)) {
          role = key || keys ? Role.DST_RANGE : Role.KEY_RANGE;
          names.add(role.slot + ", off, len");
          javaArgs.add(x -> ((Range) x[a]).array());
          javaArgs.add(x -> ((Range) x[a]).off());
          javaArgs.add(x -> ((Range) x[a]).len());
          i += 2;
        } else {
          role = roleOf(p[i], key || keys, keys);
          if (role == null) {
            throw new IllegalArgumentException(
                "parameter " + i + " of " + m + ": no role of the contract fits " + p[i]);
          }
          names.add(role == Role.KEY_BUFFER ? "ByteBuffer" : role.slot);
          javaArgs.add(x -> x[a]);
        }
        key |= role.slot.equals("key");
        keys |= role == Role.KEYS;
        if (role == Role.SIZES || role == Role.OUT_OBJECTS || role == Role.OUT_LONGS) {
          sizes = a;
        }
        Spec spec = roles.specs.get(role);
        slots.add(new Slot(role.slot, spec.valid(), spec.faults()));
      }
    }
    Method made =
        new Method(name + "(" + String.join(", ", names) + ")", x -> call(m, x, javaArgs))
            .slot(receiver.name(), receiver.open(), receiver.faults());
    for (Slot s : slots) {
      made.slot(s.name(), s.valid(), s.faults());
    }
    if (content != null) {
      made.content(options, content);
    }
    return sizes >= 0 ? made.sizes(sizes) : made;
  }

  private static boolean rangeAt(Class<?>[] p, int i) {
    return i + 1 < p.length && p[i] == int.class && p[i + 1] == int.class;
  }

  /** A parameter's role, once a key (or a batch's keys) has come before it or not. */
  private static Role roleOf(Class<?> type, boolean key, boolean keys) {
    if (type == byte[].class) {
      return key ? null : Role.WHOLE_KEY;
    }
    if (type == ByteBuffer.class) {
      return key ? Role.DST_BUFFER : Role.KEY_BUFFER;
    }
    if (type.getName().equals("java.lang.foreign.MemorySegment")) {
      return key ? Role.DST_SEGMENT : null;
    }
    if (type == byte[][].class) {
      return keys ? Role.DST_ARRAYS : Role.KEYS;
    }
    if (type == ByteBuffer[].class) {
      return Role.DST_BUFFERS;
    }
    if (type == int[].class) {
      return Role.SIZES;
    }
    if (type == Object[].class) {
      return Role.OUT_OBJECTS;
    }
    if (type == long[].class) {
      return Role.OUT_LONGS;
    }
    return null;
  }

  /** The read options' content faults, in cursor options. */
  private static Fault[] cursorContent(Fault[] readOptions) {
    Fault[] out = new Fault[readOptions.length];
    for (int i = 0; i < out.length; i++) {
      Fault f = readOptions[i];
      out[i] =
          fault(
              f.name(),
              () -> CursorOptions.DEFAULT.withReadOptions((ReadOptions) f.value().get()),
              f.expected());
    }
    return out;
  }

  private static Object call(
      java.lang.reflect.Method m, Object[] x, List<Function<Object[], Object>> javaArgs)
      throws Throwable {
    Object[] args = new Object[javaArgs.size()];
    for (int i = 0; i < args.length; i++) {
      args[i] = javaArgs.get(i).apply(x);
    }
    try {
      return m.invoke(x[0], args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
