// Copyright pinget authors. Licensed under the Apache License 2.0.
package io.pinget.bench.paired;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The command line of a paired run: a list of comparisons, each measured by {@link Paired} in JVMs
 * of its own (forks, as JMH's), which hold the comparison's two sides and nothing else: no other
 * comparison's code shares their JIT profiles. Writes one JSON file with every comparison's rounds
 * (bench/tools/pinget_report reads it).
 *
 * <pre>
 *   --compare=A:B@SIZE,...  sides by row name, "/16" for a batch; SIZE in bytes or a shape name
 *   --pairs=100 --round-ms=20 --warmup-ms=1500:10000 --forks=1 --keys=1000 --seed=42
 *   --lock=true --out=FILE
 * </pre>
 *
 * <p>--forks=0 measures in this JVM (for debugging: the comparisons then share it). --lock=true
 * holds JMH's lock while measuring (see {@link #machineLock}).
 */
public final class Runner {
  private Runner() {}

  /** One comparison: sides a and b at one size (or data shape). */
  public record Spec(String a, int batchA, String b, int batchB, String size) {
    static Spec parse(String s) {
      int at = s.lastIndexOf('@');
      int colon = s.indexOf(':');
      if (at < 0 || colon < 0 || colon > at) {
        throw new IllegalArgumentException("comparison " + s + ": A:B@SIZE");
      }
      String[] a = side(s.substring(0, colon));
      String[] b = side(s.substring(colon + 1, at));
      return new Spec(
          a[0], Integer.parseInt(a[1]), b[0], Integer.parseInt(b[1]), s.substring(at + 1));
    }

    private static String[] side(String s) {
      int slash = s.indexOf('/');
      return slash < 0
          ? new String[] {s, "1"}
          : new String[] {s.substring(0, slash), s.substring(slash + 1)};
    }

    @Override
    public String toString() {
      return name(a, batchA) + ":" + name(b, batchB) + "@" + size;
    }

    private static String name(String row, int batch) {
      return batch == 1 ? row : row + "/" + batch;
    }
  }

  /** The data and the two sides of one comparison, open. */
  public interface Opened extends AutoCloseable {
    /**
     * The side that the ratio's numerator is the speed of.
     *
     * @return side a
     */
    Paired.Entry a();

    /**
     * The other side.
     *
     * @return side b
     */
    Paired.Entry b();

    /**
     * Positions in the visiting order: start keys are drawn from [0, positions).
     *
     * @return at least 1
     */
    int positions();

    /**
     * The values' size in bytes.
     *
     * @return the size
     */
    int valueSize();

    @Override
    void close() throws Exception;
  }

  /** Opens the sides a benchmark JAR knows. */
  public interface Factory {
    /**
     * Opens the data of one comparison and its two sides.
     *
     * @param spec the comparison
     * @param keys the requested key count
     * @return the open comparison; the caller closes it
     * @throws Exception when the data cannot be opened or a side is unknown
     */
    Opened open(Spec spec, int keys) throws Exception;
  }

  /**
   * JMH's own way (on JDK 17 and later) of keeping a consumed value alive: the compiler treats
   * Blackhole.consumeCompiler as a blackhole. The same flags as JMH's forks, so that the paired
   * rows consume results as the JMH rows do.
   */
  static final List<String> BLACKHOLE_FLAGS =
      List.of(
          "-XX:+UnlockDiagnosticVMOptions",
          "-XX:+UnlockExperimentalVMOptions",
          "-XX:CompileCommand=quiet",
          "-XX:CompileCommand=blackhole,org/openjdk/jmh/infra/Blackhole.consumeCompiler",
          "-DcompilerBlackholesEnabled=true");

  /**
   * The heap of each fork committed and touched at start-up. Without it, a JVM whose young
   * generation has not yet been recycled by a collection allocates into pages it has never touched,
   * and each first touch is a page fault: on the Firecracker VM of docs/benchmarks.md 2 to 3 us per
   * 4 KiB page the guest had used before and about 7 us for one it never had, so an allocating side
   * (rocksdbjni's {@code get} of 64 KiB: 16 pages per get) ran at 14 us per get in some JVMs and 60
   * or 137 us in others (docs/benchmarks.md, "The allocating get's slow JVMs"). A pre-touched heap
   * is the state of a JVM that has run for a while; a side that allocates nothing is not affected.
   */
  static final List<String> HEAP_FLAGS = List.of("-XX:+AlwaysPreTouch");

  private static final String CHALLENGE =
      "Today's password is swordfish. I understand instantiating Blackholes directly is"
          + " dangerous.";

  /**
   * Runs the command line.
   *
   * @param args see the class comment
   * @param factory opens the sides
   * @param mainClass the class whose main calls this, started in each fork
   * @throws Exception on any failure (the exit status is then non-zero)
   */
  public static void main(String[] args, Factory factory, Class<?> mainClass) throws Exception {
    List<Spec> specs = new ArrayList<>();
    int pairs = 100;
    long roundMs = 20;
    long warmMin = 1500;
    long warmMax = 10_000;
    int forks = 1;
    int keys = 1000;
    long seed = 42;
    Path out = null;
    boolean child = false;
    boolean lock = true;
    int fork = 0;
    for (String arg : args) {
      String v = arg.substring(arg.indexOf('=') + 1);
      if (arg.startsWith("--compare=")) {
        for (String s : v.split(",")) {
          specs.add(Spec.parse(s));
        }
      } else if (arg.startsWith("--pairs=")) {
        pairs = Integer.parseInt(v);
      } else if (arg.startsWith("--round-ms=")) {
        roundMs = Long.parseLong(v);
      } else if (arg.startsWith("--warmup-ms=")) {
        String[] w = v.split(":");
        warmMin = Long.parseLong(w[0]);
        warmMax = w.length > 1 ? Long.parseLong(w[1]) : Math.max(warmMin, warmMax);
      } else if (arg.startsWith("--forks=")) {
        forks = Integer.parseInt(v);
      } else if (arg.startsWith("--keys=")) {
        keys = Integer.parseInt(v);
      } else if (arg.startsWith("--seed=")) {
        seed = Long.parseLong(v);
      } else if (arg.startsWith("--lock=")) {
        lock = !v.equals("false");
      } else if (arg.startsWith("--out=")) {
        out = Path.of(v);
      } else if (arg.startsWith("--child-fork=")) {
        child = true;
        fork = Integer.parseInt(v);
      } else {
        throw new IllegalArgumentException("unknown argument " + arg);
      }
    }
    if (specs.isEmpty() || out == null || pairs < 1 || roundMs < 1 || forks < 0) {
      throw new IllegalArgumentException("usage: --compare=A:B@SIZE,... --out=FILE [options]");
    }
    Paired.Config config =
        new Paired.Config(
            pairs, roundMs * 1_000_000, warmMin * 1_000_000, warmMax * 1_000_000, seed);
    if (child) {
      Files.writeString(out, measure(factory, specs.get(0), keys, config, fork));
      return;
    }
    List<String> results = new ArrayList<>();
    try (FileLock held = lock ? machineLock() : null) {
      measureAll(specs, keys, config, forks, seed, factory, mainClass, out, results);
    }
    StringBuilder json = new StringBuilder();
    json.append("{\"harness\": \"java\", \"java\": ")
        .append(quote(System.getProperty("java.vm.name") + " " + Runtime.version()))
        .append(", \"comparisons\": [\n")
        .append(String.join(",\n", results))
        .append("\n]}\n");
    Files.writeString(out, json.toString());
  }

  /**
   * JMH's own lock (its Runner takes it for a run): held while this run measures, so that a JMH run
   * and a paired run on one machine wait for each other instead of disturbing each other. Waits
   * while another process holds it.
   */
  private static FileLock machineLock() throws IOException, InterruptedException {
    Path file = Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock");
    FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    boolean said = false;
    while (true) {
      FileLock lock = channel.tryLock();
      if (lock != null) {
        return lock; // released, with its channel, when this JVM exits
      }
      if (!said) {
        System.out.println("paired: waiting for " + file + " (another benchmark is running)");
        said = true;
      }
      Thread.sleep(5000);
    }
  }

  private static void measureAll(
      List<Spec> specs,
      int keys,
      Paired.Config config,
      int forks,
      long seed,
      Factory factory,
      Class<?> mainClass,
      Path out,
      List<String> results)
      throws Exception {
    for (int i = 0; i < specs.size(); i++) {
      Spec spec = specs.get(i);
      for (int f = 0; f < Math.max(1, forks); f++) {
        // Each comparison and fork draws its own orders and start keys.
        long s = seed + 1000L * i + f;
        Paired.Config c =
            new Paired.Config(
                config.pairs(),
                config.roundNanos(),
                config.warmupMinNanos(),
                config.warmupMaxNanos(),
                s);
        long t0 = System.nanoTime();
        if (forks == 0) {
          results.add(measure(factory, spec, keys, c, f));
        } else {
          results.add(fork(mainClass, spec, keys, c, f, out));
        }
        System.out.printf(
            Locale.ROOT,
            "paired %s fork %d: %.1f s%n",
            spec,
            f + 1,
            (System.nanoTime() - t0) / 1e9);
      }
    }
  }

  /** Measures one comparison in this JVM: its JSON object. */
  private static String measure(
      Factory factory, Spec spec, int keys, Paired.Config config, int fork) throws Exception {
    Blackhole bh = new Blackhole(CHALLENGE);
    try (Opened opened = factory.open(spec, keys)) {
      Paired.Result r = Paired.measure(opened.a(), opened.b(), opened.positions(), config, bh);
      return toJson(spec, opened, config, fork, r);
    }
  }

  /** Measures one comparison in a new JVM: its JSON object. */
  private static String fork(
      Class<?> mainClass, Spec spec, int keys, Paired.Config c, int fork, Path out)
      throws IOException, InterruptedException {
    Path part = Files.createTempFile(out.toAbsolutePath().getParent(), "paired-", ".json");
    try {
      List<String> cmd = new ArrayList<>();
      cmd.add(
          ProcessHandle.current()
              .info()
              .command()
              .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
      List<String> inherited = ManagementFactory.getRuntimeMXBean().getInputArguments();
      cmd.addAll(inherited);
      for (List<String> flags : List.of(BLACKHOLE_FLAGS, HEAP_FLAGS)) {
        for (String flag : flags) {
          // The caller's own choice wins: -XX:-AlwaysPreTouch turns HEAP_FLAGS' off.
          String opposite = flag.replaceFirst("^-XX:\\+", "-XX:-");
          if (!inherited.contains(flag) && !inherited.contains(opposite)) {
            cmd.add(flag);
          }
        }
      }
      cmd.add("-cp");
      cmd.add(System.getProperty("java.class.path"));
      cmd.add(mainClass.getName());
      cmd.add("--compare=" + spec);
      cmd.add("--pairs=" + c.pairs());
      cmd.add("--round-ms=" + c.roundNanos() / 1_000_000);
      cmd.add(
          "--warmup-ms=" + c.warmupMinNanos() / 1_000_000 + ":" + c.warmupMaxNanos() / 1_000_000);
      cmd.add("--keys=" + keys);
      cmd.add("--seed=" + c.seed());
      cmd.add("--out=" + part);
      cmd.add("--child-fork=" + fork);
      Process p = new ProcessBuilder(cmd).inheritIO().start();
      int status = p.waitFor();
      if (status != 0) {
        throw new IllegalStateException("paired fork of " + spec + " exited with " + status);
      }
      return Files.readString(part, StandardCharsets.UTF_8);
    } finally {
      Files.deleteIfExists(part);
    }
  }

  private static String toJson(
      Spec spec, Opened opened, Paired.Config c, int fork, Paired.Result r) {
    StringBuilder s = new StringBuilder("{");
    s.append("\"a\": ").append(quote(opened.a().row()));
    s.append(", \"a_batch\": ").append(opened.a().batch());
    s.append(", \"b\": ").append(quote(opened.b().row()));
    s.append(", \"b_batch\": ").append(opened.b().batch());
    s.append(", \"size\": ").append(quote(spec.size()));
    s.append(", \"value_size\": ").append(opened.valueSize());
    s.append(", \"keys\": ").append(opened.positions());
    s.append(", \"fork\": ").append(fork);
    s.append(", \"seed\": ").append(c.seed());
    s.append(", \"round_ms\": ").append(c.roundNanos() / 1_000_000);
    s.append(", \"ops_a\": ").append(r.opsA());
    s.append(", \"ops_b\": ").append(r.opsB());
    s.append(", \"warmup_ms\": ").append(r.warmupNanos() / 1_000_000);
    s.append(", \"jit_settled\": ").append(r.jitSettled());
    s.append(", \"compile_ms_measured\": ").append(r.compileMillisMeasured());
    s.append(", \"jvm_args\": [");
    List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
    for (int i = 0; i < args.size(); i++) {
      s.append(i == 0 ? "" : ", ").append(quote(args.get(i)));
    }
    s.append("]");
    s.append(",\n  \"ns_a\": ").append(numbers(r.nsA()));
    s.append(",\n  \"ns_b\": ").append(numbers(r.nsB()));
    s.append(",\n  \"cpu_a\": ").append(numbers(r.cpuA()));
    s.append(",\n  \"cpu_b\": ").append(numbers(r.cpuB()));
    s.append(",\n  \"a_first\": [");
    for (int i = 0; i < r.aFirst().length; i++) {
      s.append(i == 0 ? "" : ", ").append(r.aFirst()[i]);
    }
    s.append("],\n  \"gcs_a\": ").append(Arrays.toString(r.gcsA()));
    s.append(", \"gcs_b\": ").append(Arrays.toString(r.gcsB()));
    return s.append("}").toString();
  }

  private static String numbers(double[] xs) {
    StringBuilder s = new StringBuilder("[");
    for (int i = 0; i < xs.length; i++) {
      s.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.3f", xs[i]));
    }
    return s.append("]").toString();
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
