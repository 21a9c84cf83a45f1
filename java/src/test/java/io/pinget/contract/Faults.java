// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.contract;

import static io.pinget.contract.FaultMatrix.fault;

import io.pinget.contract.FaultMatrix.Fault;
import io.pinget.contract.FaultMatrix.Range;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;

/** The faults every door's arguments can carry, with the contract's exception for each. */
public final class Faults {
  private Faults() {}

  /** A present key (its value is a few bytes). */
  public static final byte[] KEY = "contract-key".getBytes(StandardCharsets.UTF_8);

  public static Fault nullOf(String what) {
    return fault("null", () -> null, NullPointerException.class);
  }

  /** A byte[] key range: null, out of the array, empty. */
  public static Fault[] keyRange() {
    return new Fault[] {
      fault("null", () -> new Range(null, 0, 0), NullPointerException.class),
      fault("out of range", () -> new Range(KEY, 2, KEY.length), IndexOutOfBoundsException.class),
      fault("empty", () -> new Range(KEY, 1, 0), IllegalArgumentException.class)
    };
  }

  /** A whole byte[] key: null, empty. */
  public static Fault[] wholeKey() {
    return new Fault[] {
      fault("null", () -> null, NullPointerException.class),
      fault("empty", () -> new byte[0], IllegalArgumentException.class)
    };
  }

  /** A direct ByteBuffer key: null, a heap buffer, empty. */
  public static Fault[] keyBuffer() {
    return new Fault[] {
      fault("null", () -> null, NullPointerException.class),
      fault("heap", () -> ByteBuffer.wrap(KEY), IllegalArgumentException.class),
      fault("empty", () -> ByteBuffer.allocateDirect(4).position(4), IllegalArgumentException.class)
    };
  }

  /** A byte[] range a value or a destination: null, out of the array. */
  public static Fault[] arrayRange() {
    return new Fault[] {
      fault("null", () -> new Range(null, 0, 0), NullPointerException.class),
      fault("out of range", () -> new Range(new byte[8], 4, 5), IndexOutOfBoundsException.class)
    };
  }

  /** A direct, writable destination: null, a heap buffer, read-only. */
  public static Fault[] dstBuffer() {
    return new Fault[] {
      fault("null", () -> null, NullPointerException.class),
      fault("heap", () -> ByteBuffer.allocate(64), IllegalArgumentException.class),
      fault(
          "read-only",
          () -> ByteBuffer.allocateDirect(64).asReadOnlyBuffer(),
          ReadOnlyBufferException.class)
    };
  }

  /** A direct value to write: null, a heap buffer. */
  public static Fault[] valueBuffer() {
    return new Fault[] {
      fault("null", () -> null, NullPointerException.class),
      fault("heap", () -> ByteBuffer.wrap(KEY), IllegalArgumentException.class)
    };
  }

  /** A batch's keys (valid: two of them): null, an element null, an element empty. */
  public static Fault[] keys() {
    return new Fault[] {
      fault("null", () -> null, NullPointerException.class),
      fault("element null", () -> new byte[][] {KEY, null}, NullPointerException.class),
      fault("element empty", () -> new byte[][] {KEY, {}}, IllegalArgumentException.class)
    };
  }

  public static byte[][] twoKeys() {
    return new byte[][] {KEY, "absent".getBytes(StandardCharsets.UTF_8)};
  }

  /** A batch's byte[] destinations for two keys: null, of the wrong length, an element null. */
  public static Fault[] arrays() {
    return new Fault[] {
      fault("null", () -> null, NullPointerException.class),
      fault("wrong length", () -> new byte[3][8], IllegalArgumentException.class),
      fault("element null", () -> new byte[][] {new byte[8], null}, NullPointerException.class)
    };
  }

  public static byte[][] twoArrays() {
    return new byte[][] {new byte[64], new byte[64]};
  }

  /**
   * A batch's direct destinations for two keys: null, of the wrong length, an element null, heap,
   * read-only.
   */
  public static Fault[] buffers() {
    return new Fault[] {
      fault("null", () -> null, NullPointerException.class),
      fault("wrong length", () -> new ByteBuffer[] {direct()}, IllegalArgumentException.class),
      fault("element null", () -> new ByteBuffer[] {direct(), null}, NullPointerException.class),
      fault(
          "element heap",
          () -> new ByteBuffer[] {direct(), ByteBuffer.allocate(64).position(3)},
          IllegalArgumentException.class),
      fault(
          "element read-only",
          () -> new ByteBuffer[] {direct(), direct().asReadOnlyBuffer()},
          ReadOnlyBufferException.class)
    };
  }

  public static ByteBuffer[] twoBuffers() {
    return new ByteBuffer[] {direct(), direct()};
  }

  public static ByteBuffer direct() {
    return ByteBuffer.allocateDirect(64);
  }

  /** A batch's sizes for two keys: null, too short. */
  public static Fault[] sizes() {
    return new Fault[] {
      fault("null", () -> null, NullPointerException.class),
      fault("too short", () -> new int[1], IllegalArgumentException.class)
    };
  }

  /**
   * A batched decoded read's output array for two keys: null, too short (tooShort makes one of the
   * right type).
   */
  public static Fault[] outputs(java.util.function.Supplier<?> tooShort) {
    return new Fault[] {
      fault("null", () -> null, NullPointerException.class),
      fault("too short", tooShort, IllegalArgumentException.class)
    };
  }
}
