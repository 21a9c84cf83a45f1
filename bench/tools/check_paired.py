#!/usr/bin/env python3
"""Checks the paired harnesses on sides of known ratio (bench/run --smoke).

Reads selftest-*.json, written by io.pinget.bench.paired.SelfTest (Java,
11 JVMs per comparison) and pinget_paired (C++, one process) with the
comparisons once:twice, once:five_fourths and once:once_twin (the same code
twice per operation, five times per four operations, and written again).
Each must come out at its known ratio (2, 1.25, 1) within its 99.9%
interval, the interval must be narrower than MAX_HALF_WIDTH, and
once:five_fourths's interval must exclude 1 (the harness resolves a 25%
difference). Exits non-zero on any failure.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pinget_report import parse, stats  # noqa: E402

EXPECTED = {"twice": 2.0, "five_fourths": 1.25, "once_twin": 1.0}
MAX_HALF_WIDTH = 0.05


def check(comparisons, report=lambda line: None):
    """(checked, failures) for the self-test comparisons; report(line) gets
    each comparison's figures."""
    failures, checked = [], 0
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
        p = stats.paired(forks)
        interval = ("no interval" if p["low"] is None
                    else f"[{p['low']:.4f}, {p['high']:.4f}]")
        where = (f"{suite} {a}:{b} ({len(forks)} processes, {p['n']} pairs, interval over "
                 f"{p['unit']}s): {p['median']:.4f} {interval}")
        checked += 1
        if p["low"] is None:
            failures.append(f"{where}: too few {p['unit']}s for a 99.9% interval")
            continue
        if not p["low"] <= want <= p["high"]:
            failures.append(f"{where}: the interval misses {want}")
        hw = stats.half_width(p)
        if hw > MAX_HALF_WIDTH:
            failures.append(f"{where}: half-width {hw:.1%} above {MAX_HALF_WIDTH:.0%}")
        if want != 1.0 and p["low"] <= 1.0:
            failures.append(f"{where}: the interval holds 1")
        report(f"check_paired: {where}, want {want}")
    return checked, failures


def main(paths):
    comparisons = []
    for path in paths:
        comparisons += parse.paired_comparisons(path)
    checked, failures = check(comparisons, print)
    for f in failures:
        print(f"paired self-test failed: {f}", file=sys.stderr)
    print(f"check_paired: {checked} comparisons, {len(failures)} failures")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
