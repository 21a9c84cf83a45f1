"""The paired harnesses' self-tests: sides of known ratio.

io.pinget.bench.paired.SelfTest (Java, 11 JVMs per comparison) and
pinget_paired (C++, one process) measure once:twice, once:five_fourths and
once:once_twin (the same code twice per operation, five times per four
operations, and written again): known ratios 2, 1.25 and 1.

Two kinds of check, kept apart because only one of them is a test:
  shape   what the harness wrote, whatever the machine's speed: every
          comparison present, every round timed on both clocks with a finite
          positive time, both orders of a pair run, enough rounds for an
          interval. ./test/run (bench/run --smoke) fails on these.
  timing  that the ratios come out right: the known ratio inside the 99.9%
          interval, the interval narrower than MAX_HALF_WIDTH, and 1 outside
          it for twice and five_fourths. A slow or busy machine can fail
          these, so they are a benchmark check: bench/run's measuring profiles
          report them (the report's "Paired harness on this machine"); they
          never fail a test.
"""
import math

from . import parse, stats

EXPECTED = {"twice": 2.0, "five_fourths": 1.25, "once_twin": 1.0}
MAX_HALF_WIDTH = 0.05
CLOCK_FIELDS = ("ns_a", "ns_b", "cpu_a", "cpu_b")


def _shape_faults(forks):
    faults = []
    for i, c in enumerate(forks):
        n = len(c["a_first"])
        if n == 0:
            faults.append(f"process {i}: no rounds")
            continue
        for field in CLOCK_FIELDS:
            xs = c.get(field) or []
            if len(xs) != n:
                faults.append(f"process {i}: {len(xs)} {field} for {n} pairs")
            elif not all(math.isfinite(x) and x > 0 for x in xs):
                faults.append(f"process {i}: a {field} that is not a positive time")
    orders = {f for c in forks for f in c["a_first"]}
    if orders != {True, False}:
        faults.append("the pairs ran in one order only (the harness must randomize it)")
    return faults


def _timing_faults(p, want):
    faults = []
    if not p["low"] <= want <= p["high"]:
        faults.append(f"the interval misses {want}")
    hw = stats.half_width(p)
    if hw > MAX_HALF_WIDTH:
        faults.append(f"half-width {hw:.1%} above {MAX_HALF_WIDTH:.0%}")
    if want != 1.0 and p["low"] <= 1.0:
        faults.append("the interval holds 1")
    return faults


def check(comparisons, timing=False):
    """Checks the self-test comparisons: their shape always, their ratios with
    timing. Returns (results, failures): results a list of dicts (where, want,
    stats, faults: the timing faults, judged or not), failures the lines that
    fail the check asked for."""
    results, failures = [], []
    groups = parse.group_comparisons(comparisons)
    for suite in sorted({key[0] for key in groups}):
        missing = set(EXPECTED) - {key[4] for key in groups if key[0] == suite}
        if missing:
            failures.append(f"{suite}: no once:{', once:'.join(sorted(missing))}")
    for key, forks in sorted(groups.items()):
        suite, _, a, _, b, _, _ = key
        if a != "once" or b not in EXPECTED:
            failures.append(f"{suite} {a}:{b}: not a self-test comparison")
            continue
        want = EXPECTED[b]
        shape = _shape_faults(forks)
        if shape:
            failures += [f"{suite} {a}:{b}: {f}" for f in shape]
            continue
        p = stats.paired(forks)
        interval = ("no interval" if p["low"] is None
                    else f"[{p['low']:.4f}, {p['high']:.4f}]")
        where = (f"{suite} {a}:{b} ({len(forks)} processes, {p['n']} pairs, interval over "
                 f"{p['unit']}s): {p['median']:.4f} {interval}")
        if p["low"] is None:
            failures.append(f"{where}: too few {p['unit']}s for a 99.9% interval")
            continue
        faults = _timing_faults(p, want)
        results.append({"suite": suite, "b": b, "where": where, "want": want, "stats": p,
                        "faults": faults})
        if timing:
            failures += [f"{where}: {f}" for f in faults]
    return results, failures


def section(judged):
    """The report's lines for the self-tests of a measuring run, from
    check(comparisons, timing=True): each known ratio against what this
    machine measured, and the verdict."""
    results, failures = judged
    lines = ["Before the real pairs, each harness measured sides of known ratio (a chain of "
             "dependent steps once, twice, five times per four operations, and written again "
             "per operation). Where a known ratio misses its interval, or an interval is wider "
             f"than ±{MAX_HALF_WIDTH:.0%}, this machine was too noisy during the run for its "
             "paired ratios to be read at face value.", "",
             "| harness | comparison | known | measured | 99.9% interval | verdict |",
             "|---|---|---|---|---|---|"]
    for r in results:
        p = r["stats"]
        verdict = "; ".join(r["faults"]) or "resolved"
        lines.append(f"| {r['suite']} | once:{r['b']} | {r['want']} | {p['median']:.4f} | "
                     f"[{p['low']:.4f}, {p['high']:.4f}] | {verdict} |")
    shape = [f for f in failures if not any(f.startswith(r["where"]) for r in results)]
    if shape:
        lines += ["", "Self-test output that could not be judged:"] + [f"- {f}" for f in shape]
    return lines


def console_line(judged):
    """The console's line for check(comparisons, timing=True)."""
    results, failures = judged
    if not failures:
        return f"paired harness self-test: {len(results)} of {len(results)} known ratios resolved"
    return (f"paired harness self-test: {len(failures)} faults (this machine was noisy: "
            "read the paired ratios with care; see the report)")
