// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.paired;

import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Paired, interleaved measurement of two sides in one JVM: after a warm-up of both, {@code pairs}
 * pairs of rounds, each pair one round of each side back to back, in an order drawn per pair, both
 * starting at the same key drawn per pair. A round is a fixed number of operations per side,
 * calibrated in the warm-up to last about {@code roundNanos}. Each round's time per operation is
 * recorded; the ratio of a pair's two rounds is the measurement (bench/tools computes its median
 * and interval), so that what slows the machine down for longer than a pair cancels out.
 */
public final class Paired {
  private Paired() {}

  /**
   * A named side.
   *
   * @param row the row it measures (summary.json's strategy name)
   * @param batch keys per batch (1: single gets); its operations are keys
   * @param unit operations per call of its own unit of work: rounds are multiples of it
   * @param side the loop
   */
  public record Entry(String row, int batch, int unit, Side side) {
    public Entry {
      if (unit < 1 || batch < 1) {
        throw new IllegalArgumentException(row + ": unit and batch must be at least 1");
      }
    }
  }

  /**
   * How long and how often.
   *
   * @param pairs measured pairs of rounds
   * @param roundNanos the target length of one round
   * @param warmupMinNanos the warm-up lasts at least this long (both sides, interleaved)
   * @param warmupMaxNanos and at most this long
   * @param seed for the per-pair order and start key (the run is repeatable up to timing)
   */
  public record Config(
      int pairs, long roundNanos, long warmupMinNanos, long warmupMaxNanos, long seed) {}

  /**
   * The rounds of one comparison.
   *
   * @param opsA operations per round of side a (fixed after the warm-up)
   * @param opsB the same for b
   * @param nsA a's nanoseconds per operation in each pair (wall clock)
   * @param nsB b's, pair by pair
   * @param cpuA a's nanoseconds per operation in each pair of this thread's CPU time plus the GC
   *     pauses that ended during the round: the round's cost without the time other processes took
   *     the CPU from it (on a busy machine, the wall clock's ratios are blurred by that)
   * @param cpuB the same for b
   * @param aFirst whether a ran first in each pair
   * @param gcsA collections that ended during each of a's rounds
   * @param gcsB the same for b
   * @param warmupNanos how long the warm-up lasted
   * @param jitSettled whether the warm-up ended because the JIT had compiled nothing for {@link
   *     #QUIET_NANOS}, rather than at warmupMaxNanos
   * @param compileMillisMeasured JIT compilation time spent while the pairs ran
   */
  public record Result(
      int opsA,
      int opsB,
      double[] nsA,
      double[] nsB,
      double[] cpuA,
      double[] cpuB,
      boolean[] aFirst,
      int[] gcsA,
      int[] gcsB,
      long warmupNanos,
      boolean jitSettled,
      long compileMillisMeasured) {}

  /** The warm-up ends once the JIT has compiled nothing for this long (and warmupMin passed). */
  static final long QUIET_NANOS = 500_000_000L;

  /** Calibration uses the median of this many last warm-up rounds of each side. */
  private static final int CALIBRATION_ROUNDS = 5;

  /**
   * Warms both sides up, then measures the pairs.
   *
   * @param a one side
   * @param b the other
   * @param keys the number of positions in the visiting order (start keys are drawn from them)
   * @param config how long and how often
   * @param bh consumes every result of both sides
   * @return the rounds
   * @throws Exception what a side throws
   */
  public static Result measure(Entry a, Entry b, int keys, Config config, Blackhole bh)
      throws Exception {
    Random random = new Random(config.seed());
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    List<GarbageCollectorMXBean> gcs = ManagementFactory.getGarbageCollectorMXBeans();

    // Warm-up: the same interleaving as the measurement, with round sizes growing towards the
    // target as the code gets compiled.
    int opsA = a.unit();
    int opsB = b.unit();
    double[] lastA = new double[CALIBRATION_ROUNDS];
    double[] lastB = new double[CALIBRATION_ROUNDS];
    int warmRounds = 0;
    Side sideA = a.side();
    Side sideB = b.side();
    long[] t = new long[2];
    warmMeasuring(gcs, bh, t);
    long begin = System.nanoTime();
    long compiled = jit.getTotalCompilationTime();
    long lastCompile = begin;
    boolean settled = false;
    while (true) {
      int start = random.nextInt(keys);
      boolean aFirst = random.nextBoolean();
      long ta;
      long tb;
      if (aFirst) {
        time(sideA, start, opsA, bh, t);
        ta = t[0];
        time(sideB, start, opsB, bh, t);
        tb = t[0];
      } else {
        time(sideB, start, opsB, bh, t);
        tb = t[0];
        time(sideA, start, opsA, bh, t);
        ta = t[0];
      }
      lastA[warmRounds % CALIBRATION_ROUNDS] = (double) ta / opsA;
      lastB[warmRounds % CALIBRATION_ROUNDS] = (double) tb / opsB;
      warmRounds++;
      opsA = resize(opsA, ta, a.unit(), config.roundNanos());
      opsB = resize(opsB, tb, b.unit(), config.roundNanos());
      long now = System.nanoTime();
      long c = jit.getTotalCompilationTime();
      if (c != compiled) {
        compiled = c;
        lastCompile = now;
      }
      if (warmRounds >= CALIBRATION_ROUNDS && now - begin >= config.warmupMinNanos()) {
        if (now - lastCompile >= QUIET_NANOS) {
          settled = true;
          break;
        }
        if (now - begin >= config.warmupMaxNanos()) {
          break;
        }
      }
    }
    long warmup = System.nanoTime() - begin;
    opsA = calibrate(lastA, a.unit(), config.roundNanos());
    opsB = calibrate(lastB, b.unit(), config.roundNanos());

    int n = config.pairs();
    double[] nsA = new double[n];
    double[] nsB = new double[n];
    double[] cpuA = new double[n];
    double[] cpuB = new double[n];
    boolean[] first = new boolean[n];
    int[] gcsA = new int[n];
    int[] gcsB = new int[n];
    long compiledBefore = jit.getTotalCompilationTime();
    for (int i = 0; i < n; i++) {
      int start = random.nextInt(keys);
      first[i] = random.nextBoolean();
      long g0 = collections(gcs);
      if (first[i]) {
        time(sideA, start, opsA, bh, t);
        nsA[i] = (double) t[0] / opsA;
        cpuA[i] = (double) t[1] / opsA;
        long g1 = collections(gcs);
        time(sideB, start, opsB, bh, t);
        nsB[i] = (double) t[0] / opsB;
        cpuB[i] = (double) t[1] / opsB;
        gcsA[i] = (int) (g1 - g0);
        gcsB[i] = (int) (collections(gcs) - g1);
      } else {
        time(sideB, start, opsB, bh, t);
        nsB[i] = (double) t[0] / opsB;
        cpuB[i] = (double) t[1] / opsB;
        long g1 = collections(gcs);
        time(sideA, start, opsA, bh, t);
        nsA[i] = (double) t[0] / opsA;
        cpuA[i] = (double) t[1] / opsA;
        gcsB[i] = (int) (g1 - g0);
        gcsA[i] = (int) (collections(gcs) - g1);
      }
    }
    long compileMillis = jit.getTotalCompilationTime() - compiledBefore;
    return new Result(
        opsA, opsB, nsA, nsB, cpuA, cpuB, first, gcsA, gcsB, warmup, settled, compileMillis);
  }

  /**
   * Sides that do nothing, of three classes: the timing code compiled over them calls a side
   * through a call site of many receivers, so that neither real side is inlined into it (nor traps
   * its compiled code when it first comes).
   */
  private static final Side[] NOTHING = {
    (start, ops, bh) -> {},
    (start, ops, bh) -> bh.consume(start),
    (start, ops, bh) -> bh.consume(ops)
  };

  /**
   * Compiles the code that times the pairs before the warm-up: left to compile while the pairs
   * ran, at its 256th call (the 128th pair), it changed the FFM decoded get's time by 12% in the
   * JVMs that started slow (docs/benchmarks.md, "Paired: the harness compiled before it measures").
   * The warm-up then waits for the JIT to go quiet.
   */
  private static void warmMeasuring(List<GarbageCollectorMXBean> gcs, Blackhole bh, long[] t)
      throws Exception {
    Random random = new Random(0);
    long sink = 0;
    for (int i = 0; i < WARM_MEASURING_CALLS; i++) {
      time(NOTHING[i % NOTHING.length], random.nextInt(1000), 1, bh, t);
      sink += collections(gcs) + t[1] + (random.nextBoolean() ? 1 : 0);
    }
    bh.consume(sink);
  }

  /** Enough calls for the JIT's last tier (C2 compiles a method after about 5,000 to 15,000). */
  private static final int WARM_MEASURING_CALLS = 20_000;

  /**
   * One round: wall-clock nanoseconds into t[0]; into t[1] this thread's CPU nanoseconds plus the
   * pauses of the collections that ended in the round (a thread stopped for a collection is not on
   * its CPU, but the collection is the cost of what it allocated).
   */
  private static void time(Side side, int start, int ops, Blackhole bh, long[] t)
      throws Exception {
    long p0 = pauseMillis();
    long c0 = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    side.run(start, ops, bh);
    long t1 = System.nanoTime();
    long c1 = THREADS.getCurrentThreadCpuTime();
    t[0] = t1 - t0;
    t[1] = c1 - c0 + (pauseMillis() - p0) * 1_000_000;
  }

  /**
   * Milliseconds of collection pauses so far: every collector's time but the concurrent ones',
   * which run beside the application instead of stopping it.
   */
  private static long pauseMillis() {
    long ms = 0;
    for (GarbageCollectorMXBean gc : PAUSING) {
      ms += Math.max(0, gc.getCollectionTime());
    }
    return ms;
  }

  private static final List<GarbageCollectorMXBean> PAUSING =
      ManagementFactory.getGarbageCollectorMXBeans().stream()
          .filter(gc -> !gc.getName().contains("Concurrent"))
          .toList();

  // The process's CPU time has a resolution of 10 ms here; a thread's, of nanoseconds.
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private static long collections(List<GarbageCollectorMXBean> gcs) {
    long n = 0;
    for (GarbageCollectorMXBean gc : gcs) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }

  /** The next warm-up round's size: towards the target, at most 4 times the last. */
  static int resize(int ops, long nanos, int unit, long target) {
    double perOp = Math.max(1.0, (double) nanos / ops);
    long want = Math.min(4L * ops, (long) (target / perOp));
    return toUnit(want, unit);
  }

  /** A round's size from the median time per operation of the last warm-up rounds. */
  static int calibrate(double[] nsPerOp, int unit, long target) {
    double[] sorted = nsPerOp.clone();
    Arrays.sort(sorted);
    double median = sorted[sorted.length / 2];
    return toUnit((long) (target / Math.max(1.0, median)), unit);
  }

  private static int toUnit(long ops, int unit) {
    long units = Math.max(1, Math.min(ops / unit, Integer.MAX_VALUE / unit));
    return (int) (units * unit);
  }
}
