"""Raw runner output into rows and paired comparisons.

A results folder holds native-*.json (Google Benchmark), jmh-*.json (JMH on
the main JDK), jmh-ffm-*.json (the FFM suite's JMH on a JDK 22+),
paired-*.json / paired-ffm-*.json (the Java paired harness) and
paired-native-*.json (the C++ one). Rows carry the summary.json fields (see
SCHEMA_FIELDS) plus "group": "main", or "ffm" for the FFM suite's JVM, whose
rows go to a summary of their own (their names may equal the main JDK's).
"""
import json
import math
import os
import re
from collections import defaultdict

from .stats import t999

SCHEMA_FIELDS = ["suite", "strategy", "value_size", "residency", "batch",
                 "ops_per_s", "ops_per_s_error", "ns_per_op", "copies_per_op",
                 "bytes_copied_per_op", "alloc_bytes_per_op", "allocs_per_op",
                 "file_reads_per_op", "file_bytes_per_op"]
RESIDENCIES = ["block_cache", "memtable", "file"]
HOT_KEY_VALUE_BYTES = 26  # the FFM suite's hot key: one key, a 26-byte value
# The native suite's and JMH DataSet's cap on one data set.
MAX_DATA_BYTES = 4 << 30


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
            "suite": "native", "group": "main", "strategy": strategy,
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


def jmh_rows(path, group="main"):
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
        # Every measured iteration's score (for pooling repeated runs), and
        # CpuCounters' CPU ns per operation per iteration where a row has it.
        samples = [float(x) * scale for fork in pm.get("rawData", []) for x in fork]
        cpu = sec.get("cpuNanos")
        cpu_samples = None if cpu is None else [
            float(c) / float(x) for cf, pf in zip(cpu.get("rawData", []), pm.get("rawData", []))
            for c, x in zip(cf, pf) if float(x) > 0]
        strategy = snake(method)
        if "lookup" in p:  # LookupBenchmark: one row per point-lookup profile
            strategy += "@" + p["lookup"]
        if "path" in p:  # FilePathBenchmark: one row per file-path profile
            strategy += "@" + p["path"]
        if "scan" in p:  # ScanBenchmark, FfmScanBenchmark: one row per scan shape
            strategy += "@" + p["scan"]
        if "lsm" in p:  # MemtableBenchmark: "<method>@<hit|miss>@<lsm shape>"
            strategy += "@" + p["lsm"]
        value_size = int(p.get("valueSize", 0))
        if p.get("shape") == "hot_key":
            value_size = HOT_KEY_VALUE_BYTES
        rows.append({
            "suite": "jmh", "group": group, "strategy": strategy,
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
            "samples": samples, "cpu_samples": cpu_samples,
        })
    return rows


# PairedGets runs over another data shape than the default (block cache, 15-byte keys), each a
# report group named by bench/run's paired() part (paired-GROUP-*.json): (residency, key bytes).
DATA_SHAPE_GROUPS = {"key128": ("block_cache", 128), "memtable": ("memtable", 15)}
DEFAULT_DATA_SHAPE = ("block_cache", 15)


def paired_comparisons(path, group="main"):
    """The comparisons of a paired run, each tagged with its suite and group."""
    with open(path) as f:
        data = json.load(f)
    suite = "native" if data["harness"] == "native" else "jmh"
    out = []
    for c in data["comparisons"]:
        out.append(dict(c, suite=suite, group=group, harness_runtime=data.get("java")
                        or data.get("compiler")))
    return out


def load(folder):
    """(rows, comparisons) of a results folder."""
    rows, comparisons = [], []
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        if not name.endswith(".json"):
            continue
        if name.startswith("native"):
            rows += native_rows(path)
        elif name.startswith("jmh-ffm"):
            rows += jmh_rows(path, "ffm")
        elif name.startswith("jmh"):
            rows += jmh_rows(path)
        elif name.startswith("paired-ffm"):
            comparisons += paired_comparisons(path, "ffm")
        elif name.startswith("paired-") and name.split("-")[1] in DATA_SHAPE_GROUPS:
            comparisons += paired_comparisons(path, name.split("-")[1])
        elif name.startswith("paired"):
            comparisons += paired_comparisons(path)
    return rows, comparisons


def to_schema(rows):
    return [{k: r[k] for k in SCHEMA_FIELDS} for r in rows]


def find(rows, suite, strategy, size, residency="block_cache", batch=1):
    for r in rows:
        if (r["suite"], r["strategy"], r["value_size"], r["residency"],
                r["batch"]) == (suite, strategy, size, residency, batch):
            return r
    return None


def group_comparisons(comparisons):
    """{(suite, group, a, a_batch, b, b_batch, value_size): [fork, ...]}."""
    out = defaultdict(list)
    for c in comparisons:
        out[comparison_key(c)].append(c)
    return out


def comparison_key(c):
    return (c["suite"], c["group"], c["a"], c["a_batch"], c["b"], c["b_batch"], c["value_size"])
