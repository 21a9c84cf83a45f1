#!/usr/bin/env python3
"""Checks the paired harnesses' self-tests (selftest-*.json).

    check_paired.py FILE...           their shape only (bench/run --smoke, so
                                      ./test/run): what a slow machine cannot
                                      fail; the measured ratios are printed,
                                      not judged
    check_paired.py --timing FILE...  also that each known ratio comes out
                                      right (a benchmark check: bench/run's
                                      measuring profiles report it)

What each check holds is in pinget_report/selftest.py. Exits non-zero on any
failure of the checks asked for.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pinget_report import parse, selftest  # noqa: E402


def main(argv):
    timing = "--timing" in argv
    paths = [a for a in argv if a != "--timing"]
    comparisons = []
    for path in paths:
        comparisons += parse.paired_comparisons(path)
    results, failures = selftest.check(comparisons, timing)
    for r in results:
        judged = "judged" if timing else "not judged: a time"
        print(f"check_paired: {r['where']}, known {r['want']} ({judged})")
    for f in failures:
        print(f"paired self-test failed: {f}", file=sys.stderr)
    print(f"check_paired: {len(results)} comparisons, {len(failures)} failures")
    return 1 if failures or not results else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
