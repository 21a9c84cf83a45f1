#!/usr/bin/env python3
"""Turns one bench/results/<stamp>/ folder into summary.json and report.md.

Reads native*.json (Google Benchmark), jmh*.json (JMH) and env.json
(machine, versions, commands; written by bench/run). Writes:
  summary.json            DESIGN.md's schema, rows for the first key count
  summary-keys<N>.json    the same for every other key count (--full)
  report.md, charts/*.svg
Every figure comes from the input files; what a suite cannot measure is null.
"""
import argparse
import json
import math
import os
import re
import sys
from collections import defaultdict

# Two-sided 99.9% Student t quantiles by degrees of freedom (as JMH reports
# its score error), for turning repetitions into an error bar.
T999 = {1: 636.62, 2: 31.599, 3: 12.924, 4: 8.610, 5: 6.869, 6: 5.959,
        7: 5.408, 8: 5.041, 9: 4.781, 10: 4.587, 11: 4.437, 12: 4.318,
        13: 4.221, 14: 4.140, 15: 4.073, 19: 3.883, 24: 3.745, 29: 3.659,
        39: 3.551, 59: 3.460, 119: 3.373}


def t999(dof):
    if dof <= 0:
        return float("nan")
    best = max(k for k in T999 if k <= dof)
    return T999[best] if dof < 120 else 3.291


def snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def native_rows(path):
    """Rows from a Google Benchmark JSON run with repetitions."""
    with open(path) as f:
        data = json.load(f)
    groups = defaultdict(dict)
    counts = {}
    for b in data["benchmarks"]:
        if b.get("error_occurred"):
            raise SystemExit(f"native benchmark failed: {b['name']}: "
                             f"{b.get('error_message')}")
        if b.get("run_type") == "aggregate":
            groups[b["run_name"]][b["aggregate_name"]] = b
            counts[b["run_name"]] = b.get("repetitions", 1)
        else:
            groups[b["run_name"]].setdefault("runs", []).append(b)
    rows = []
    for run_name, g in groups.items():
        parts = run_name.split("/")
        strategy = parts[0]
        f = dict(p.split(":", 1) for p in parts[1:] if ":" in p)
        if "mean" in g:
            mean = g["mean"]
            sd = g.get("stddev", {}).get("real_time", 0.0)
            n = counts.get(run_name, 1)
        else:
            mean = g["runs"][0]
            sd, n = None, 1
        batch = int(f.get("batch", 1))
        ns = mean["real_time"] / batch  # real_time unit is ns (default)
        ops = 1e9 / ns
        err = None
        if sd is not None and n > 1:
            err = ops * (sd / mean["real_time"]) * t999(n - 1) / math.sqrt(n)
        rows.append({
            "suite": "native", "strategy": strategy,
            "value_size": int(f["size"]),
            "residency": f.get("residency", "block_cache"), "batch": batch,
            "keys": int(f.get("keys", 0)), "key_bytes": int(f.get("key_bytes", 15)),
            "ops_per_s": ops, "ops_per_s_error": err, "ns_per_op": ns,
            "copies_per_op": mean.get("copies_per_op"),
            "bytes_copied_per_op": mean.get("bytes_copied_per_op"),
            "alloc_bytes_per_op": None,
            "allocs_per_op": mean.get("allocs_per_op"),
            "file_reads_per_op": mean.get("file_reads_per_op"),
            "file_bytes_per_op": mean.get("file_bytes_per_op"),
        })
    return rows


HOT_KEY_VALUE_BYTES = 26  # FfmGetBenchmark's hot key: one key, a 26-byte value


def jmh_rows(path):
    """Rows from JMH's JSON (throughput mode, -prof gc, pinget aux counters)."""
    with open(path) as f:
        data = json.load(f)
    rows = []
    for b in data:
        method = b["benchmark"].rsplit(".", 1)[1]
        p = b.get("params", {})
        pm = b["primaryMetric"]
        unit = pm["scoreUnit"]  # ops/s, ops/ms or ops/us
        scale = {"ops/s": 1.0, "ops/ms": 1e3, "ops/us": 1e6, "ops/ns": 1e9}[unit]
        ops = float(pm["score"]) * scale
        err = float(pm["scoreError"]) * scale  # "NaN" with one iteration
        sec = b.get("secondaryMetrics", {})

        def per_op(name):
            m = sec.get(name)
            if m is None or float(pm["score"]) == 0:
                return None
            return float(m["score"]) / float(pm["score"])

        alloc = sec.get("gc.alloc.rate.norm")
        strategy = snake(method)
        if "lookup" in p:  # LookupBenchmark: one row per point-lookup profile
            strategy += "@" + p["lookup"]
        if "path" in p:  # FilePathBenchmark: one row per file-path profile
            strategy += "@" + p["path"]
        value_size = int(p.get("valueSize", 0))
        if b["benchmark"].endswith("FfmGetBenchmark." + method):
            # Run on a JDK 22+ (bench/jmh-ffm): rows apart from the JDK 17 suite's.
            strategy = "jdk25_" + strategy
            if p.get("shape") == "hot_key":
                value_size = HOT_KEY_VALUE_BYTES
        rows.append({
            "suite": "jmh", "strategy": strategy,
            "value_size": value_size,
            "residency": p.get("residency", "block_cache"),
            "batch": int(p.get("batch", 1)),
            "keys": int(p.get("keys", 0)), "key_bytes": int(p.get("keyBytes", 15)),
            "ops_per_s": ops, "ops_per_s_error": None if math.isnan(err) else err,
            "ns_per_op": 1e9 / ops if ops else None,
            "copies_per_op": per_op("copies"),
            "bytes_copied_per_op": per_op("bytesCopied"),
            "alloc_bytes_per_op": None if alloc is None else float(alloc["score"]),
            "allocs_per_op": per_op("allocations"),
            "file_reads_per_op": per_op("fileReads"),
            "file_bytes_per_op": per_op("fileBytesRead"),
        })
    return rows


SCHEMA_FIELDS = ["suite", "strategy", "value_size", "residency", "batch",
                 "ops_per_s", "ops_per_s_error", "ns_per_op", "copies_per_op",
                 "bytes_copied_per_op", "alloc_bytes_per_op", "file_reads_per_op",
                 "file_bytes_per_op"]
RESIDENCIES = ["block_cache", "memtable", "file"]


def to_schema(rows):
    return [{k: r[k] for k in SCHEMA_FIELDS} for r in rows]


# The native suite's and JMH DataSet's cap on one data set.
MAX_DATA_BYTES = 4 << 30


def find(rows, suite, strategy, size, residency="block_cache", batch=1):
    for r in rows:
        if (r["suite"], r["strategy"], r["value_size"], r["residency"],
                r["batch"]) == (suite, strategy, size, residency, batch):
            return r
    return None


def ratio(a, b):
    """(a/b, error) for two rows' throughput, errors combined in quadrature."""
    if a is None or b is None:
        return None, None
    r = a["ops_per_s"] / b["ops_per_s"]
    if a["ops_per_s_error"] is None or b["ops_per_s_error"] is None:
        return r, None  # one iteration: no error to give
    ea = a["ops_per_s_error"] / a["ops_per_s"]
    eb = b["ops_per_s_error"] / b["ops_per_s"]
    return r, r * math.hypot(ea, eb)


def fmt(x, digits=2):
    if x is None:
        return "n/a"
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return "n/a"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


def charts(rows, out_dir):
    """SVG charts; returns the file names written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(os.path.join(out_dir, "charts"), exist_ok=True)
    written = []
    single = [r for r in rows if r["residency"] == "block_cache" and r["batch"] == 1
              and "@" not in r["strategy"] and not r["strategy"].startswith("jdk25_")]
    for suite in ("jmh", "native"):
        rs = [r for r in single if r["suite"] == suite and r["strategy"] != "jni_nop"]
        if not rs:
            continue
        fig, ax = plt.subplots(figsize=(8, 5))
        for strategy in sorted({r["strategy"] for r in rs}):
            pts = sorted((r["value_size"], r["ops_per_s"], r["ops_per_s_error"] or 0)
                         for r in rs if r["strategy"] == strategy)
            ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                        yerr=[p[2] for p in pts], marker="o", capsize=3,
                        label=strategy)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("value size (bytes)")
        ax.set_ylabel("gets per second (log)")
        ax.set_title(f"{suite}: throughput, block cache, single gets")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        name = f"charts/throughput_{suite}.svg"
        fig.savefig(os.path.join(out_dir, name), bbox_inches="tight")
        plt.close(fig)
        written.append(name)

    # The three residencies side by side: one panel each, same axes.
    for suite in ("jmh", "native"):
        rs = [r for r in rows if r["suite"] == suite and r["batch"] == 1
              and "@" not in r["strategy"] and r["strategy"] != "jni_nop"
              and not r["strategy"].startswith("memcpy") and r["value_size"]]
        places = [p for p in RESIDENCIES if any(r["residency"] == p for r in rs)]
        if len(places) < 2:
            continue
        fig, axes = plt.subplots(1, len(places), figsize=(5 * len(places), 5),
                                 sharey=True, squeeze=False)
        for ax, place in zip(axes[0], places):
            here = [r for r in rs if r["residency"] == place]
            for strategy in sorted({r["strategy"] for r in here}):
                pts = sorted((r["value_size"], r["ns_per_op"],
                              ns_err(r)[1] or 0) for r in here if r["strategy"] == strategy)
                ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                            yerr=[p[2] for p in pts], marker="o", capsize=3, label=strategy)
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("value size (bytes)")
            ax.set_title(place)
            ax.grid(True, which="both", alpha=0.3)
        axes[0][0].set_ylabel("ns per get (log)")
        axes[0][-1].legend(fontsize=7)
        fig.suptitle(f"{suite}: single gets by residency")
        name = f"charts/residency_{suite}.svg"
        fig.savefig(os.path.join(out_dir, name), bbox_inches="tight")
        plt.close(fig)
        written.append(name)

    for metric, label in (("copies_per_op", "value copies per get"),
                          ("alloc_bytes_per_op", "bytes allocated per get (JMH, -prof gc)")):
        rs = [r for r in single if r[metric] is not None]
        if not rs:
            continue
        sizes = sorted({r["value_size"] for r in rs})
        names = sorted({(r["suite"], r["strategy"]) for r in rs})
        fig, ax = plt.subplots(figsize=(9, 5))
        width = 0.8 / max(1, len(sizes))
        for i, size in enumerate(sizes):
            vals = []
            for suite, strategy in names:
                r = next((r for r in rs if (r["suite"], r["strategy"], r["value_size"])
                          == (suite, strategy, size)), None)
                vals.append(r[metric] if r else 0)
            ax.bar([j + i * width for j in range(len(names))], vals, width,
                   label=f"{size} B")
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(names))])
        ax.set_xticklabels([f"{s}\n{t}" for s, t in names], rotation=45,
                           ha="right", fontsize=7)
        ax.set_ylabel(label)
        ax.set_title(f"{label}, block cache")
        ax.legend(fontsize=8)
        if metric == "alloc_bytes_per_op":
            ax.set_yscale("symlog", linthresh=16)
        name = f"charts/{metric}.svg"
        fig.savefig(os.path.join(out_dir, name), bbox_inches="tight")
        plt.close(fig)
        written.append(name)
    return written


def table(rows, suite):
    rs = [r for r in rows if r["suite"] == suite]
    if not rs:
        return []
    out = ["| strategy | size | residency | batch | ops/s | ± (99.9%) | ns/op | "
           "copies/op | bytes copied/op | allocs/op | alloc bytes/op | file reads/op |",
           "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in sorted(rs, key=lambda r: (r["residency"], r["batch"], r["value_size"],
                                       r["strategy"])):
        out.append(f"| {r['strategy']} | {r['value_size']} | {r['residency']} | "
                   f"{r['batch']} | {fmt(r['ops_per_s'])} | {fmt(r['ops_per_s_error'])} | "
                   f"{fmt(r['ns_per_op'], 1)} | {fmt(r['copies_per_op'])} | "
                   f"{fmt(r['bytes_copied_per_op'], 0)} | {fmt(r['allocs_per_op'])} | "
                   f"{fmt(r['alloc_bytes_per_op'], 1)} | {fmt(r['file_reads_per_op'])} |")
    return out


def file_section(rows):
    """Single gets of values that live in files (a block cache of 1/16 of the
    data), beside the same strategy's block-cache row of the same run."""
    rs = [r for r in rows if r["residency"] == "file" and r["batch"] == 1
          and "@" not in r["strategy"]]
    if not rs:
        return []
    lines = ["Single gets over a data set 16 times the block cache: most gets read their "
             "block from the SST file (held by the OS page cache). *F* is the reads of file "
             "bytes into memory per get, counted by pinget's file system wrapper; copies per "
             "get count F, then RocksDB's copy P and the strategy's own. Rows that pinget "
             "does not count (peers, `native_pinned`) show n/a, not 0. *vs block cache*: "
             "this row's time over the same row's with every value in the block cache.", "",
             "| suite | size | strategy | ns/get ± | vs block cache | F per get | "
             "file bytes/get | copies/get | alloc bytes/get |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    for r in sorted(rs, key=lambda r: (r["suite"], r["value_size"], r["ns_per_op"])):
        ns, e = ns_err(r)
        base = find(rows, r["suite"], r["strategy"], r["value_size"])
        q, qe = ratio(base, r)
        vs = "n/a" if q is None else f"{fmt(q)}× ± {fmt(qe)}"
        lines.append(f"| {r['suite']} | {r['value_size']} | `{r['strategy']}` | "
                     f"{fmt(ns, 0)} ± {fmt(e, 0)} | {vs} | {fmt(r['file_reads_per_op'])} | "
                     f"{fmt(r['file_bytes_per_op'], 0)} | {fmt(r['copies_per_op'])} | "
                     f"{fmt(r['alloc_bytes_per_op'], 1)} |")
    return lines


def console_table(rows):
    """Block-cache single gets: ns per get ± error and copies per get, one line
    per suite x strategy, one column per value size (printed by bench/run)."""
    rs = [r for r in rows if r["residency"] == "block_cache" and r["batch"] == 1]
    sizes = sorted({r["value_size"] for r in rs if r["value_size"]})
    out = [f"{'suite':<7}{'strategy':<24}" + "".join(
        f"{str(n) + ' B: ns/get':>22}{'copies':>8}" for n in sizes)]
    for suite, strategy in sorted({(r["suite"], r["strategy"]) for r in rs}):
        line = f"{suite:<7}{strategy:<24}"
        for n in sizes:
            r = find(rs, suite, strategy, n)
            if r is None:
                line += f"{'':>22}{'':>8}"
                continue
            err = r["ops_per_s_error"]
            pct = "" if err is None else f" ± {100 * err / r['ops_per_s']:.0f}%"
            line += f"{fmt(r['ns_per_op'], 1) + pct:>22}{fmt(r['copies_per_op']):>8}"
        out.append(line)
    return out


# The report's targets, as data. "ratio" rows compare two rows' throughput
# (for "latency" rows: native throughput / Java throughput, i.e. Java latency /
# native latency) against a threshold, at the sizes listed ("jmh" = every JMH
# size from 128 B, "all" = every JMH size); "value" rows check one field of a
# row; "same" rows expect a ratio of 1 within error.
KIB = 1024
TARGETS = [
    {"kind": "ratio", "a": "pinned_view", "b": "rocksdbjni_get", "at_least": 8,
     "sizes": [64 * KIB]},
    {"kind": "ratio", "a": "pinned_view", "b": "rocksdbjni_get_direct", "at_least": 2.5,
     "sizes": [64 * KIB]},
    # The same-instance rows: pinget through a RocksJavaReader over the very
    # RocksDB object that the rocksdbjni rows read.
    {"kind": "ratio", "a": "rocksjava_pinned_view", "b": "rocksdbjni_get", "at_least": 8,
     "sizes": [64 * KIB], "note": "same instance"},
    {"kind": "ratio", "a": "rocksjava_pinned_view", "b": "rocksdbjni_get_direct",
     "at_least": 2.5, "sizes": [64 * KIB], "note": "same instance"},
    {"kind": "latency", "a": "rocksjava_pinned_view", "at_most": 1.15, "sizes": [64 * KIB]},
    {"kind": "ratio", "a": "pinned_view", "b": "buffer_copy", "at_least": 1.0, "sizes": "jmh"},
    {"kind": "latency", "a": "pinned_view", "at_most": 1.15, "sizes": "all"},
    {"kind": "value", "field": "alloc_bytes_per_op", "below": 16, "unit": "B/op",
     "strategies": ["buffer_copy", "direct_copy", "pinned_view", "rocksjava_buffer_copy",
                    "rocksjava_direct_copy", "rocksjava_pinned_view"], "sizes": "jmh"},
    {"kind": "value", "field": "bytes_copied_per_op", "equal": 0, "unit": "B/op",
     "strategies": ["pinned_view"], "sizes": "jmh"},
    {"kind": "best", "among": ["string_copy", "pinnable_copy", "buffer_copy", "direct_copy",
                               "pinned_view"], "b": "rocksdbjni_get", "at_least": 1.0,
     "sizes": [128]},
    # One engine on both sides: the same algorithm (Get into a PinnableSlice,
    # then one copy into a new byte[]) must measure the same.
    {"kind": "same", "a": "pinnable_copy", "b": "rocksdbjni_get", "sizes": "jmh"},
    # Batches, per key: the latency of row a over that of row b, each row named
    # (suite, strategy, batch).
    *[t for b in (16, 64) for t in (
        {"kind": "per_key", "a": ("jmh", "pinned_view", b), "b": ("jmh", "pinned_view", 1),
         "at_most": 0.6, "sizes": [128]},
        {"kind": "per_key", "a": ("jmh", "pinned_view", b),
         "b": ("jmh", "rocksdbjni_multiget", b), "at_most": 1 / 1.5, "sizes": [128]},
        # The batch's JNI tax in one process (the C++ batches run inside the
        # JVM), and across processes against the native suite.
        {"kind": "per_key", "a": ("jmh", "pinned_view", b),
         "b": ("jmh", "native_batch_loop", b), "at_most": 1.10, "sizes": [128]},
        {"kind": "per_key", "a": ("jmh", "pinned_view", b), "b": ("native", "pinned_view", b),
         "at_most": 1.10, "sizes": [128]})],
    # The JNI tax of one crossing, in one process: Java pinned_view over the
    # same gets made in C++ inside that JVM.
    {"kind": "per_key", "a": ("jmh", "pinned_view", 1), "b": ("jmh", "native_pinned_loop", 1),
     "at_most": 1.10, "sizes": [128]},
    {"kind": "per_key", "a": ("jmh", "pinned_view", 1), "b": ("jmh", "native_pinned_loop", 1),
     "at_most": 1.05, "sizes": "from_4k"},
]

# Small values: (single-get row, batched row) of each strategy and peer.
SMALL_PAIRS = [("pinned_view", "pinned_view"), ("buffer_copy", "buffer_copy"),
               ("direct_copy", "direct_copy"), ("native_pinned_loop", "native_batch_loop"),
               ("rocksdbjni_get", "rocksdbjni_multiget"),
               ("rocksdbjni_get_direct", "rocksdbjni_multiget_direct")]


def targets(rows):
    """TARGETS, each with its measured value and verdict. A verdict is "yes" or
    "no" on the measured value; "(within error)" marks one whose error bar
    reaches across the threshold, so one run does not settle it."""
    lines = ["| target | measured | met |", "|---|---|---|"]
    j = lambda s, n: find(rows, "jmh", s, n)
    jmh_sizes = sorted({x["value_size"] for x in rows if x["suite"] == "jmh" and x["value_size"]})

    def sizes_of(t):
        if t["sizes"] == "all":
            return jmh_sizes
        if t["sizes"] == "jmh":
            return [n for n in jmh_sizes if n >= 128]
        if t["sizes"] == "from_4k":
            return [n for n in jmh_sizes if n >= 4096]
        return t["sizes"]

    def add(name, value, err, threshold, at_least):
        if value is None:
            lines.append(f"| {name} | n/a | not measured |")
            return
        ok = value >= threshold if at_least else value <= threshold
        unsure = err is not None and abs(value - threshold) <= err
        verdict = ("yes" if ok else "**no**") + (" (within error)" if unsure else "")
        lines.append(f"| {name} | {fmt(value)}× ± {fmt(err)} | {verdict} |")

    for t in TARGETS:
        for n in sizes_of(t):
            where = f"{n} B" + (f", {t['note']}" if "note" in t else "")
            if t["kind"] == "ratio":
                r, e = ratio(j(t["a"], n), j(t["b"], n))
                add(f"{where}: {t['a']} ≥ {fmt(t['at_least'])}× {t['b']}", r, e,
                    t["at_least"], True)
            elif t["kind"] == "latency":
                r, e = ratio(find(rows, "native", "native_pinned", n), j(t["a"], n))
                add(f"{where}: Java {t['a']} latency ≤ {fmt(t['at_most'])}× native_pinned",
                    r, e, t["at_most"], False)
            elif t["kind"] == "value":
                for strategy in t["strategies"]:
                    x = j(strategy, n)
                    v = None if x is None else x[t["field"]]
                    if "below" in t:
                        name, ok = f"{where}: {strategy} {t['field']} < {t['below']}", \
                            v is not None and v < t["below"]
                    else:
                        name, ok = f"{where}: {strategy} {t['field']} = {t['equal']}", \
                            v == t["equal"]
                    shown = "n/a" if v is None else f"{fmt(v, 3)} {t['unit']}"
                    lines.append(f"| {name} | {shown} | "
                                 f"{'not measured' if v is None else ('yes' if ok else '**no**')} |")
            elif t["kind"] == "best":
                cands = [x for x in (j(s, n) for s in t["among"]) if x]
                best = max(cands, key=lambda x: x["ops_per_s"]) if cands else None
                r, e = ratio(best, j(t["b"], n))
                add(f"{where}: fastest pinget ({best['strategy'] if best else 'n/a'}) "
                    f"≥ {t['b']}", r, e, t["at_least"], True)
            elif t["kind"] == "per_key":
                (sa, na, ba), (sb, nb, bb) = t["a"], t["b"]
                r, e = ratio(find(rows, sb, nb, n, batch=bb), find(rows, sa, na, n, batch=ba))
                add(f"{where}: {sa} {na} batch {ba} per-key latency ≤ {fmt(t['at_most'])}× "
                    f"{sb} {nb} batch {bb}", r, e, t["at_most"], False)
            elif t["kind"] == "same":
                r, e = ratio(j(t["a"], n), j(t["b"], n))
                if r is None:
                    continue
                verdict = ("no error measured" if e is None
                           else "yes" if abs(r - 1) <= e else "**no**")
                lines.append(f"| {where}: {t['a']} / {t['b']} = 1 within error "
                             f"(same algorithm, same engine) | {fmt(r)}× ± {fmt(e)} | {verdict} |")
    return lines


def ns_err(r):
    """(ns per op, its error) of a row."""
    if r is None:
        return None, None
    e = r["ops_per_s_error"]
    return r["ns_per_op"], None if e is None else r["ns_per_op"] * e / r["ops_per_s"]


def small_values(rows):
    """Per-key cost of single and batched gets (JMH, block cache) for every
    strategy and peer at the batched sizes, and the in-process JNI tax."""
    batched = [r for r in rows if r["suite"] == "jmh" and r["batch"] > 1
               and r["residency"] == "block_cache"]
    sizes = sorted({r["value_size"] for r in batched})
    batches = sorted({r["batch"] for r in batched})
    if not sizes:
        return []
    cell = lambda r: "n/a" if r is None else f"{fmt(ns_err(r)[0], 0)} ± {fmt(ns_err(r)[1], 0)}"
    lines = ["ns per key (± 99.9% error), block cache, JMH. `native_pinned_loop` and "
             "`native_batch_loop` are the same gets made in C++ inside the benchmark's JVM, "
             "many per JNI crossing: the in-process control.", "",
             "| size | single / batched row | single | " +
             " | ".join(f"batch {b}" for b in batches) + " |",
             "|---|---|---:|" + "---:|" * len(batches)]
    for n in sizes:
        for single, batch in SMALL_PAIRS:
            r1 = find(rows, "jmh", single, n)
            rb = [find(rows, "jmh", batch, n, batch=b) for b in batches]
            if r1 is None and not any(rb):
                continue
            name = single if single == batch else f"{single} / {batch}"
            lines.append(f"| {n} B | `{name}` | {cell(r1)} | " +
                         " | ".join(cell(r) for r in rb) + " |")
    lines += ["", "JNI tax in one process (Java row's time per key over its C++ control's):", ""]
    for n in sorted({r["value_size"] for r in rows if r["strategy"] == "native_pinned_loop"}):
        r, e = ratio(find(rows, "jmh", "native_pinned_loop", n), find(rows, "jmh", "pinned_view", n))
        lines.append(f"- {n} B, single get: `pinned_view` / `native_pinned_loop` = "
                     f"{fmt(r)} ± {fmt(e)}")
    for n in sizes:
        for b in batches:
            r, e = ratio(find(rows, "jmh", "native_batch_loop", n, batch=b),
                         find(rows, "jmh", "pinned_view", n, batch=b))
            if r is not None:
                lines.append(f"- {n} B, batch {b}: `pinned_view` / `native_batch_loop` = "
                             f"{fmt(r)} ± {fmt(e)}")
    return lines


def profile_rows(rs, methods, profiles, residency, detail=lambda r: ""):
    """Table rows "| size | method | <cell per profile> |" for rows named
    "<method>@<profile>": ns per get ± error, the speed-up over `default` in the
    same run, then detail(row)."""
    lines = []
    for n in sorted({r["value_size"] for r in rs}):
        for m in methods:
            base = find(rs, "jmh", f"{m}@default", n, residency)
            cells = []
            for x in profiles:
                r = find(rs, "jmh", f"{m}@{x}", n, residency)
                if r is None:
                    cells.append("n/a")
                    continue
                ns, e = ns_err(r)
                cell = f"{fmt(ns, 0)} ± {fmt(e, 0)}"
                if x != "default" and base is not None:
                    q, qe = ratio(r, base)
                    cell += f" ({fmt(q)}× ± {fmt(qe)})"
                cells.append(cell + detail(r))
            if any(c != "n/a" for c in cells):
                lines.append(f"| {n} B | `{m}` | " + " | ".join(cells) + " |")
    return lines


LOOKUP_METHODS = ["pinned_view", "rocksdbjni_get", "pinned_view_miss", "rocksdbjni_get_miss"]


def lookup_section(by_keys):
    """What each point-lookup profile (LookupBenchmark, rows "<method>@<profile>")
    buys over RocksDB's defaults, per key count, size and method."""
    lines = []
    for k in sorted(by_keys):
        rs = [r for r in by_keys[k] if "@" in r["strategy"] and r["residency"] == "block_cache"]
        if not rs:
            continue
        profiles = sorted({r["strategy"].split("@")[1] for r in rs},
                          key=lambda x: (x != "default", x))
        if not lines:
            lines = ["ns per get (± 99.9% error) with each profile, and its speed-up over "
                     "`default` (RocksDB's defaults) measured in the same run. `_miss` rows "
                     "read keys that do not exist but fall inside the data's key range.", ""]
        lines += [f"{k} keys:", "", "| size | method | " + " | ".join(f"`{x}`" for x in profiles)
                  + " |", "|---|---|" + "---:|" * len(profiles)]
        lines += profile_rows(rs, LOOKUP_METHODS, profiles, "block_cache")
        lines.append("")
    return lines


PATH_METHODS = ["pinned_view", "buffer_copy", "rocksdbjni_get", "rocksdbjni_get_direct"]


def file_path_section(rows):
    """What each file-path profile (FilePathBenchmark, rows "<method>@<profile>",
    file residency) buys over the default file path, with pinget's F and copies."""
    rs = [r for r in rows if "@" in r["strategy"] and r["residency"] == "file"]
    if not rs:
        return []
    profiles = sorted({r["strategy"].split("@")[1] for r in rs},
                      key=lambda x: (x != "default", x))
    lines = ["ns per get (± 99.9% error) over the file residency with each profile, its "
             "speed-up over `default` in the same run, and for pinget's rows F / copies per "
             "get (F: reads of file bytes into memory; copies: F + P + the strategy's own).",
             "", "| size | method | " + " | ".join(f"`{x}`" for x in profiles) + " |",
             "|---|---|" + "---:|" * len(profiles)]
    lines += profile_rows(rs, PATH_METHODS, profiles, "file",
                          lambda r: "" if r["copies_per_op"] is None else
                          f"; F {fmt(r['file_reads_per_op'])}, "
                          f"copies {fmt(r['copies_per_op'])}")
    return lines


FFM_METHODS = ["ffm_pinned_view", "jni_pinned_view", "native_pinned_loop", "ffm_buffer_copy",
               "jni_buffer_copy", "ffm_pinned_batch", "jni_pinned_batch", "rocksdbjni_get",
               "rocksdbjni_get_direct"]


def ffm_section(rows):
    """The FFM binding beside the JNI API, the native loop and rocksdbjni, all
    on one JDK 22+ (FfmGetBenchmark: rows "jdk25_<method>"), with the targets."""
    rs = [r for r in rows if r["strategy"].startswith("jdk25_")]
    if not rs:
        return []
    sizes = sorted({r["value_size"] for r in rs})
    label = lambda n: "hot key (26 B)" if n == HOT_KEY_VALUE_BYTES else f"{n} B"
    lines = ["One JVM on the JDK 22+ (Temurin 25), each binding over its own copy of the "
             "same data in the block cache. ns per get ± 99.9% error, and allocated bytes per "
             "get (per key for the `_batch` rows: batches of 16). *hot key*: one key with a "
             "26-byte value read again and again, where the crossing is the cost.", "",
             "| method | " + " | ".join(label(n) for n in sizes) + " |",
             "|---|" + "---:|" * len(sizes)]
    for m in FFM_METHODS:
        cells = []
        for n in sizes:
            r = find(rs, "jmh", "jdk25_" + m, n)
            if r is None:
                cells.append("n/a")
                continue
            ns, e = ns_err(r)
            cells.append(f"{fmt(ns, 0)} ± {fmt(e, 0)}; {fmt(r['alloc_bytes_per_op'], 0)} B")
        if any(c != "n/a" for c in cells):
            lines.append(f"| `{m}` | " + " | ".join(cells) + " |")
    lines += ["", "Targets (same run, ratios of throughput):", ""]

    def check(name, a, b, n, threshold, at_least=True, within_error=False):
        q, e = ratio(find(rs, "jmh", "jdk25_" + a, n), find(rs, "jmh", "jdk25_" + b, n))
        if q is None:
            return
        if within_error:  # "no slower": met unless slower beyond the error
            met = q >= threshold - (e or 0)
        else:
            met = q >= threshold if at_least else q <= threshold
        lines.append(f"- {label(n)}: {name} = {fmt(q)} ± {fmt(e)}: "
                     f"{'met' if met else '**not met**'}")

    if HOT_KEY_VALUE_BYTES in sizes:
        check("`ffm_pinned_view` / `rocksdbjni_get` speed ≥ 2", "ffm_pinned_view",
              "rocksdbjni_get", HOT_KEY_VALUE_BYTES, 2.0)
        check("`ffm_pinned_view` / `jni_pinned_view` speed ≥ 1.2", "ffm_pinned_view",
              "jni_pinned_view", HOT_KEY_VALUE_BYTES, 1.2)
    for n in sizes:
        if n == HOT_KEY_VALUE_BYTES:
            continue
        check("`ffm_pinned_view` no slower than `jni_pinned_view` (speed ratio ≥ 1 within "
              "error)", "ffm_pinned_view", "jni_pinned_view", n, 1.0, within_error=True)
        # native_pinned_loop is faster: its speed over the FFM row's is the FFM row's time
        # over the native loop's.
        check("time of `ffm_pinned_view` / `native_pinned_loop` ≤ 1.10", "native_pinned_loop",
              "ffm_pinned_view", n, 1.10, at_least=False)
    return lines


def controls(rows):
    lines = []
    nop = find(rows, "jmh", "jni_nop", 0) or next(
        (r for r in rows if r["strategy"] == "jni_nop"), None)
    if nop:
        lines.append(f"- `jni_nop` (one empty JNI crossing): {fmt(nop['ns_per_op'], 1)} ns")
    for r in sorted((r for r in rows if r["strategy"].startswith("memcpy")),
                    key=lambda r: (r["strategy"], r["value_size"])):
        lines.append(f"- `{r['strategy']}` of {r['value_size']} B: {fmt(r['ns_per_op'], 1)} ns "
                     f"(± {fmt(r['ops_per_s_error'] and r['ns_per_op'] * r['ops_per_s_error'] / r['ops_per_s'], 1)})")
    twins = [r for r in rows if r["strategy"].endswith("_twin")]
    for t in twins:
        base = find(rows, t["suite"], t["strategy"][:-5], t["value_size"],
                    t["residency"], t["batch"])
        r, e = ratio(t, base)
        if r is not None:
            if e is None:
                verdict = "no error measured"
            else:
                verdict = ("within" if abs(r - 1) <= e else "OUTSIDE") + " the error"
            lines.append(f"- negative control: `{t['strategy']}` / `{base['strategy']}` "
                         f"({t['suite']}, {t['value_size']} B, {t['residency']}) = "
                         f"{fmt(r, 3)} ± {fmt(e, 3)}, {verdict}")
    co = [r for r in rows if r["strategy"] == "counter_overhead"]
    for r in co:
        lines.append(f"- copy-counter overhead: {fmt(r['ns_per_op'], 2)} ns per recorded event "
                     f"({r['suite']}); a get records 0 to 3 events")
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--no-charts", action="store_true")
    args = ap.parse_args()
    d = args.results
    with open(os.path.join(d, "env.json")) as f:
        env = json.load(f)
    rows = []
    for name in sorted(os.listdir(d)):
        if name.startswith("native") and name.endswith(".json"):
            rows += native_rows(os.path.join(d, name))
        elif name.startswith("jmh") and name.endswith(".json"):
            rows += jmh_rows(os.path.join(d, name))
    if not rows:
        raise SystemExit("no results")

    # The native suite names a data set by its capped key count (one data set
    # stays under 4 GiB: 65,536 keys of 64 KiB), JMH by the requested one;
    # capped rows belong with the largest requested key count.
    def capped(r):
        return r["keys"] and r["value_size"] and r["keys"] == MAX_DATA_BYTES // r["value_size"]
    key_counts = sorted({r["keys"] for r in rows if r["keys"] and not capped(r)})
    primary = key_counts[0] if key_counts else 0
    by_keys = defaultdict(list)
    for r in rows:
        k = key_counts[-1] if capped(r) and key_counts else r["keys"]
        by_keys[k or primary].append(r)
    native_engines = set()
    for name in sorted(os.listdir(d)):
        if name.startswith("native") and name.endswith(".json"):
            with open(os.path.join(d, name)) as f:
                native_engines.add(json.load(f).get("context", {}).get("rocksdb"))
    engines = {"pinget (JNI)": env["rocksdb"], "rocksdbjni": env.get("rocksdbjni")}
    for v in native_engines:
        engines["pinget (native suite)"] = v
    if len(set(engines.values())) == 1:
        engine_line = (f"RocksDB {env['rocksdb']} on both sides: pinget (native suite "
                       f"and JNI) and rocksdbjni, as loaded at run time")
    else:
        engine_line = "**Different engines**: " + ", ".join(
            f"{k} RocksDB {v}" for k, v in engines.items())
    head = {"generated": env["generated"], "machine": env["machine"],
            "rocksdb": env["rocksdb"], "rocksdbjni": env.get("rocksdbjni"),
            "jvm": env.get("jvm"),
            "profile": env["profile"]}
    for k, rs in by_keys.items():
        name = "summary.json" if k == primary else f"summary-keys{k}.json"
        with open(os.path.join(d, name), "w") as f:
            json.dump(dict(head, results=to_schema(rs)), f, indent=1)
    main_rows = by_keys[primary]
    written = [] if args.no_charts else charts(main_rows, d)

    md = [f"# pinget benchmark report ({env['profile']})", "",
          f"Generated {env['generated']} on {env['machine']['model']} "
          f"({env['machine']['cpus']} CPUs); JVM {env.get('jvm') or 'n/a'}.", "",
          engine_line + ".", "",
          "Errors are 99.9% confidence half-widths (JMH's scoreError; for the native "
          "suite, Student t over the repetitions). Copies per get come from pinget's "
          f"counters; allocation bytes from JMH's `gc.alloc.rate.norm`. Key count: {primary}.",
          "", "## Commands", ""]
    md += [f"    {c}" for c in env.get("commands", [])]
    md += ["", "## Targets", ""] + targets(main_rows)
    md += ["", "## Controls", ""] + (controls(main_rows) or ["(none measured)"])
    lookups = lookup_section(by_keys)
    if lookups:
        md += ["", "## Point-lookup options", ""] + lookups
    for k in key_counts:
        files = file_section(by_keys[k])
        if files:
            shapes = sorted({r["key_bytes"] for r in by_keys[k] if r["residency"] == "file"})
            md += ["", f"## Values read from files, {k} keys of "
                   + " and ".join(f"{b} B" for b in shapes), ""] + files
    paths = file_path_section(main_rows)
    if paths:
        md += ["", "## File-path options", ""] + paths
    ffm = ffm_section(main_rows)
    if ffm:
        md += ["", "## FFM binding (JDK 25)", ""] + ffm
    small = small_values(main_rows)
    if small:
        md += ["", "## Small values: single and batched gets per key", ""] + small
    for name in written:
        md += ["", f"![{name}]({name})"]
    for suite in ("jmh", "native"):
        t = table(main_rows, suite)
        if t:
            md += ["", f"## {suite} results", ""] + t
    for k in key_counts[1:]:
        for suite in ("jmh", "native"):
            t = table(by_keys[k], suite)
            if t:
                md += ["", f"## {suite} results, {k} keys", ""] + t
    with open(os.path.join(d, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(console_table(main_rows)))
    print(f"wrote {d}/summary.json, {d}/report.md, {len(written)} charts")


if __name__ == "__main__":
    sys.exit(main())
