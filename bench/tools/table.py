#!/usr/bin/env python3
"""Prints a Google Benchmark JSON file from pinget_bench as one table.

Rows are strategies, columns value sizes; each cell is the mean ns per
operation with its standard deviation over repetitions, and the copies and
bytes copied per operation read from pinget's counters ("-" where pinget does
not count: native_pinned, memcpy).
"""
import json
import sys
from collections import defaultdict

ORDER = ["string_copy", "buffer_copy", "pinned_view", "native_pinned", "memcpy"]


def parse_name(name):
    """'pinned_view/size:128/keys:1000/...' -> ('pinned_view', {...})."""
    parts = name.split("/")
    fields = dict(p.split(":", 1) for p in parts[1:] if ":" in p)
    return parts[0], fields


def main(path):
    with open(path) as f:
        data = json.load(f)
    cells = defaultdict(dict)  # (strategy, keys, residency, batch) -> size -> {}
    for b in data["benchmarks"]:
        if b.get("error_occurred"):
            print(f"error: {b['name']}: {b.get('error_message')}", file=sys.stderr)
            continue
        agg = b.get("aggregate_name")
        if agg not in ("mean", "stddev"):
            continue
        strategy, f = parse_name(b["run_name"])
        row = (strategy, f["keys"], f["residency"], f["batch"])
        cell = cells[row].setdefault(int(f["size"]), {})
        cell[agg] = b
    sizes = sorted({s for row in cells.values() for s in row})
    head = f"{'strategy':<14}{'keys':>7} {'residency':<12}{'batch':>6}"
    for s in sizes:
        head += f" | {str(s) + ' B: ns/op':>22} {'copies':>6} {'bytes':>8}"
    print(head)
    print("-" * len(head))

    def key(row):
        s, k, r, b = row
        return (r, int(k), int(b), ORDER.index(s) if s in ORDER else 99)

    for row in sorted(cells, key=key):
        strategy, keys, residency, batch = row
        line = f"{strategy:<14}{keys:>7} {residency:<12}{batch:>6}"
        for s in sizes:
            c = cells[row].get(s)
            if not c or "mean" not in c:
                line += f" | {'':>22} {'':>6} {'':>8}"
                continue
            mean = c["mean"]
            sd = c.get("stddev", {}).get("real_time", 0.0)
            ns = f"{mean['real_time']:.1f} ± {sd:.1f}"
            copies = mean.get("copies_per_op")
            nbytes = mean.get("bytes_copied_per_op")
            line += f" | {ns:>22} {'-' if copies is None else f'{copies:.2f}':>6}"
            line += f" {'-' if nbytes is None else f'{nbytes:.0f}':>8}"
        print(line)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
