// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.paired;

import java.util.Random;

/**
 * Sides of known ratio for testing the harness. An operation of {@code once} is a chain of {@link
 * #STEPS} dependent multiply-xor steps over an array, whose result is consumed. {@code twice} is
 * the same loop making two of those per operation, {@code five_fourths} five per four operations,
 * and {@code once_twin} is {@code once} written again (a separate lambda with the same code). So
 * {@code once:twice} must measure 2, {@code once:five_fourths} 1.25 and {@code once:once_twin} 1,
 * each within its interval; bench/tools/check_paired.py checks them (bench/run --smoke). The steps
 * depend on each other, so that neither the JIT nor the CPU can overlap them.
 *
 * <pre>
 *   java -cp benchmarks.jar io.pinget.bench.paired.SelfTest \
 *       --compare=once:twice@synthetic,once:once_twin@synthetic --out=F
 * </pre>
 */
public final class SelfTest implements Runner.Factory {
  /** Steps of one {@code once} operation: about 4 cycles each, some microseconds in all. */
  static final int STEPS = 4096;

  private static final int SIZE = 1 << 13; // 32 KiB of ints: in the L1 data cache

  /** Rounds are multiples of 4 operations, so that five_fourths makes exactly 1.25 times more. */
  private static final int UNIT = 4;

  private final int[] data = new int[SIZE];

  SelfTest() {
    Random random = new Random(7);
    for (int i = 0; i < SIZE; i++) {
      data[i] = random.nextInt();
    }
  }

  public static void main(String[] args) throws Exception {
    Runner.main(args, new SelfTest(), SelfTest.class);
  }

  /**
   * The chain: steps dependent steps from position from, continuing from h. bench/run keeps it from
   * being inlined, so that every side runs one compiled copy of it.
   */
  static int chain(int[] data, int from, int steps, int h) {
    for (int i = 0; i < steps; i++) {
      h = (h ^ data[(from + i) & (SIZE - 1)]) * 0x9E3779B1;
    }
    return h;
  }

  private Side side(String name) {
    int[] d = data;
    switch (name) {
      case "once":
        return (start, ops, bh) -> {
          for (int i = 0; i < ops; i++) {
            bh.consume(chain(d, start + i, STEPS, i));
          }
        };
      case "once_twin":
        return (start, ops, bh) -> {
          for (int i = 0; i < ops; i++) {
            bh.consume(chain(d, start + i, STEPS, i));
          }
        };
      case "twice":
        return (start, ops, bh) -> {
          for (int i = 0; i < 2 * ops; i++) {
            bh.consume(chain(d, start + i, STEPS, i));
          }
        };
      case "five_fourths":
        return (start, ops, bh) -> {
          for (int i = 0; i < ops + ops / UNIT; i++) {
            bh.consume(chain(d, start + i, STEPS, i));
          }
        };
      default:
        throw new IllegalArgumentException("unknown synthetic side " + name);
    }
  }

  @Override
  public Runner.Opened open(Runner.Spec spec, int keys) {
    Paired.Entry a = new Paired.Entry(spec.a(), 1, UNIT, side(spec.a()));
    Paired.Entry b = new Paired.Entry(spec.b(), 1, UNIT, side(spec.b()));
    return new Runner.Opened() {
      @Override
      public Paired.Entry a() {
        return a;
      }

      @Override
      public Paired.Entry b() {
        return b;
      }

      @Override
      public int positions() {
        return SIZE;
      }

      @Override
      public int valueSize() {
        return 0;
      }

      @Override
      public void close() {}
    };
  }
}
