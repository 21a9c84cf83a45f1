#!/usr/bin/env python3
"""ab_ratios.py DIR: the per-row ratio of two alternating JMH sides.

DIR holds host-N.json and jar-N.json (JMH's JSON results of round N, run one
after the other: bench/toolchain-ab). For every benchmark and parameter set
present in every round, each round gives the ratio jar/host of throughput;
the table shows their geometric mean with a 95% t interval over rounds
(errors of single JMH runs are not used: the rounds' spread is the noise).
A row is "faster" or "slower" only when the interval does not reach 1.0.
"""
import glob
import json
import math
import os
import re
import statistics
import sys

# Two-sided 95% Student t quantiles by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365,
       8: 2.306, 9: 2.262, 10: 2.228}


def rows(path):
    with open(path) as f:
        results = json.load(f)
    out = {}
    for r in results:
        name = r["benchmark"].rsplit(".", 2)
        params = ",".join(f"{k}={v}" for k, v in sorted(r.get("params", {}).items())
                          if k not in ("keys", "residency"))
        out[f"{name[-2]}.{name[-1]} {params}"] = r["primaryMetric"]["score"]
    return out


def ratios(pairs):
    """[(row, host ops/s, jar/host, low, high, verdict)] for (host, jar) rounds."""
    keys = sorted(set.intersection(*(set(h) & set(j) for h, j in pairs)))
    t = T95.get(len(pairs) - 1, 1.96)
    out = []
    for key in keys:
        logs = [math.log(j[key] / h[key]) for h, j in pairs]
        mean = statistics.fmean(logs)
        half = t * statistics.stdev(logs) / math.sqrt(len(logs))
        lo, hi = math.exp(mean - half), math.exp(mean + half)
        verdict = "faster" if lo > 1 else "slower" if hi < 1 else "within noise"
        host = statistics.fmean(h[key] for h, _ in pairs)
        out.append((key, host, math.exp(mean), lo, hi, verdict))
    return out


def main(folder):
    rounds = sorted({int(m.group(1)) for p in glob.glob(os.path.join(folder, "host-*.json"))
                     if (m := re.search(r"host-(\d+)\.json$", p))})
    pairs = [(rows(os.path.join(folder, f"host-{n}.json")),
              rows(os.path.join(folder, f"jar-{n}.json"))) for n in rounds
             if os.path.exists(os.path.join(folder, f"jar-{n}.json"))]
    if len(pairs) < 2:
        sys.exit(f"ab_ratios: fewer than two complete rounds in {folder}")
    print(f"{len(pairs)} rounds; jar/host throughput, geometric mean and 95% interval over rounds")
    print(f"{'row':58} {'host ops/s':>14} {'jar/host':>9} {'95% interval':>17}  verdict")
    counts = {"faster": 0, "slower": 0, "within noise": 0}
    for key, host, ratio, lo, hi, verdict in ratios(pairs):
        counts[verdict] += 1
        print(f"{key:58} {host:14,.0f} {ratio:9.3f} {lo:8.3f}..{hi:<8.3f}  {verdict}")
    print(", ".join(f"{n} {v}" for v, n in counts.items()))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
