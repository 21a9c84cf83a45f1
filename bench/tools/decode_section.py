#!/usr/bin/env python3
"""The "Get and decode" section of the benchmark report (issue 25).

    from decode_section import decode_section
    lines = decode_section(rows)   # summary rows, as summarize.py makes them

rows are the report's summary rows (dicts with suite, strategy, value_size,
residency, batch, ops_per_s, ops_per_s_error, ns_per_op, alloc_bytes_per_op,
copies_per_op). The section reads the rows of DecodeBenchmark (bench/jmh:
strategies "<shape>_<way>", e.g. long_decode_on_read, avro_rocksdbjni_get) and
of FfmDecodeBenchmark (bench/jmh-ffm: "ffm_<shape>_decode_on_read" and
"jdk25_<shape>_..."; a "jdk25_" that a summarizer puts in front of every row of
the FFM suite is taken off again). It returns markdown lines: one table per
shape (ns per read ± 99.9% error, bytes allocated per read, copies per read)
and the targets, each judged met, not met, or "(within error)" when the error
bar of the ratio reaches across the threshold. No row: the section is empty.

Run alone on JMH JSON files, it prints the section:

    python3 bench/tools/decode_section.py jmh-decode.json jmh-ffm-decode.json

With --rounds, the files are repeated runs of the same benchmarks (JMH run
again and again, so that slow changes of the machine's load fall on every row
alike): a row measured in several files gets the mean of every measured
iteration of every file and, as its error, what JMH computes over the
iterations of several forks: Student's t (99.9%, two-sided) times their
standard deviation over the square root of their number. Rows measured once
keep JMH's error.

    python3 bench/tools/decode_section.py --rounds round1.json round2.json ...
"""
import json
import math
import re
import sys

SHAPES = [("long", 8, "counter (8 bytes, big-endian)"),
          ("utf8", 64, "name (64 bytes of UTF-8)"),
          ("avro", 1024, "event (a 1 KiB Avro record)")]
RESIDENCIES = ["block_cache", "memtable"]

# Each shape's rows, in the order the tables show them, and what each does.
WAYS = {
    "long": [
        ("long_rocksdbjni_get_guava", "rocksdbjni `get(byte[])` + Guava `Longs.fromByteArray`"),
        ("long_rocksdbjni_get_wrap", "rocksdbjni `get(byte[])` + `ByteBuffer.wrap().getLong()`"),
        ("long_rocksdbjni_get_shifts", "rocksdbjni `get(byte[])` + shifts and masks"),
        ("long_rocksdbjni_get_direct", "rocksdbjni `get(ByteBuffer)` + `getLong(0)`"),
        ("long_pinnable_copy_guava", "pinget `pinnableCopy` + Guava"),
        ("long_pinnable_copy_wrap", "pinget `pinnableCopy` + `ByteBuffer.wrap`"),
        ("long_pinnable_copy_shifts", "pinget `pinnableCopy` + shifts"),
        ("long_pinned_view", "pinget `PinnedView.get` + `longBE`"),
        ("long_decode_on_read", "pinget `getLong(key, longBE)`: decode on read"),
        ("rocksjava_long_decode_on_read", "the same through a `RocksJavaReader`"),
    ],
    "utf8": [
        ("utf8_rocksdbjni_get", "rocksdbjni `get(byte[])` + `new String`"),
        ("utf8_rocksdbjni_get_direct", "rocksdbjni `get(ByteBuffer)` + `new String`"),
        ("utf8_pinnable_copy", "pinget `pinnableCopy` + `new String`"),
        ("utf8_pinned_view", "pinget `PinnedView.get` + `utf8`"),
        ("utf8_decode_on_read", "pinget `get(key, utf8)`: decode on read"),
    ],
    "avro": [
        ("avro_rocksdbjni_get", "rocksdbjni `get(byte[])` + Avro `binaryDecoder(byte[])`"),
        ("avro_rocksdbjni_get_direct", "rocksdbjni `get(ByteBuffer)` + Avro over the buffer"),
        ("avro_pinnable_copy", "pinget `pinnableCopy` + Avro `binaryDecoder(byte[])`"),
        ("avro_pinned_view", "pinget `PinnedView.get` + Avro over the view"),
        ("avro_decode_on_read", "pinget `get(key, avro)`: decode on read"),
        ("avro_decode_on_read_in_place",
         "decode on read, Avro's unbuffered decoder reading the pinned value in place"),
    ],
}
FFM_WAYS = [
    ("jdk25_{s}_rocksdbjni_get{x}", "rocksdbjni `get(byte[])` + the decode"),
    ("jdk25_{s}_decode_on_read", "pinget JNI decode on read"),
    ("ffm_{s}_decode_on_read", "pinget FFM decode on read (`FfmStore`)"),
]
# The fastest decode after rocksdbjni's get(byte[]), per shape.
PEERS = {"long": ["long_rocksdbjni_get_guava", "long_rocksdbjni_get_wrap",
                  "long_rocksdbjni_get_shifts"],
         "utf8": ["utf8_rocksdbjni_get"],
         "avro": ["avro_rocksdbjni_get"]}
# The targets: (shape, speed ratio at least, allocation rule).
TARGETS = [("long", 1.30, "zero"), ("avro", 1.15, "value_size")]
ZERO_BYTES = 0.5  # JMH's gc.alloc.rate.norm below this is 0 allocated per read


def _name(strategy):
    """A row's name, without the "jdk25_" a summarizer may add to the FFM suite's rows."""
    s = strategy
    while s.startswith("jdk25_jdk25_"):
        s = s[len("jdk25_"):]
    if s.startswith("jdk25_ffm_"):
        s = s[len("jdk25_"):]
    return s


def _find(rows, name, size, residency):
    for r in rows:
        if (r.get("suite") == "jmh" and _name(r["strategy"]) == name
                and r.get("value_size") == size and r.get("residency") == residency
                and r.get("batch", 1) == 1):
            return r
    return None


def _ratio(a, b):
    """a's throughput over b's, and its error (relative errors in quadrature)."""
    if a is None or b is None or not b.get("ops_per_s"):
        return None, None
    q = a["ops_per_s"] / b["ops_per_s"]
    ea, eb = a.get("ops_per_s_error"), b.get("ops_per_s_error")
    if ea is None or eb is None:
        return q, None
    return q, q * math.hypot(ea / a["ops_per_s"], eb / b["ops_per_s"])


def _fmt(x, digits=2):
    if x is None or (isinstance(x, float) and (math.isnan(x) or math.isinf(x))):
        return "n/a"
    return f"{x:,.{digits}f}"


def _ns(r):
    """ns per read and its error."""
    ops, err = r["ops_per_s"], r.get("ops_per_s_error")
    ns = 1e9 / ops
    return ns, (None if err is None else ns * err / ops)


def _cpu(r):
    """CPU ns per read and its error, from CpuCounters' samples (one per iteration), or None."""
    xs = r.get("cpu_samples") if r else None
    if not xs or len(xs) < 2:
        return None, None
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    return mean, _t999(n - 1) * sd / math.sqrt(n)


def _cell(r):
    if r is None:
        return "n/a", "n/a", "n/a"
    ns, e = _ns(r)
    time = f"{_fmt(ns, 0)} ± {_fmt(e, 0)}"
    cpu, cpu_e = _cpu(r)
    if cpu is not None:
        time += f" (CPU {_fmt(cpu, 0)} ± {_fmt(cpu_e, 0)})"
    alloc = _fmt(r.get("alloc_bytes_per_op"), 1)
    copies = _fmt(r.get("copies_per_op"), 2) if r.get("copies_per_op") is not None else "—"
    return time, alloc, copies


def _verdict(value, err, threshold, ok):
    unsure = err is not None and abs(value - threshold) <= err
    return ("met" if ok else "**not met**") + (" (within error)" if unsure else "")


def decode_section(rows):
    """Markdown lines of the "Get and decode" section, or [] without its rows."""
    mine = [r for r in rows if r.get("suite") == "jmh" and any(
        _name(r["strategy"]).startswith(p) for p in
        ("long_", "utf8_", "avro_", "rocksjava_long_", "ffm_long_", "ffm_utf8_",
         "ffm_avro_", "jdk25_long_", "jdk25_utf8_", "jdk25_avro_"))]
    if not mine:
        return []
    out = ["Each value is read and decoded; the decoded value is consumed (returned to "
           "JMH). 1,000 keys in a shuffled order, one thread. ns per read ± 99.9% error, "
           "bytes allocated per read (`gc.alloc.rate.norm`), value copies per read from "
           "pinget's counters (— where pinget does not count: rocksdbjni).", ""]
    for shape, size, what in SHAPES:
        have = [w for w in WAYS[shape] if any(_find(mine, w[0], size, res) for res in RESIDENCIES)]
        if not have:
            continue
        out += [f"**{what}**", "",
                "| read and decode | " + " | ".join(
                    f"{res}: ns | B | copies" for res in RESIDENCIES) + " |",
                "|---|" + "---:|---:|---:|" * len(RESIDENCIES)]
        for name, label in have:
            cells = []
            for res in RESIDENCIES:
                cells += list(_cell(_find(mine, name, size, res)))
            out.append(f"| `{name}`: {label} | " + " | ".join(cells) + " |")
        out.append("")
    ffm = []
    for shape, size, what in SHAPES:
        x = "_shifts" if shape == "long" else ""
        for pattern, label in FFM_WAYS:
            name = pattern.format(s=shape, x=x)
            cells = []
            for res in RESIDENCIES:
                cells += list(_cell(_find(mine, name, size, res)))
            if any(c != "n/a" for c in cells):
                ffm.append(f"| {what.split(' (')[0]}: `{name}`: {label} | " + " | ".join(cells) + " |")
    if ffm:
        out += ["**FFM binding** (bench/jmh-ffm, one JVM on the JDK 22+):", "",
                "| read and decode | " + " | ".join(
                    f"{res}: ns | B | copies" for res in RESIDENCIES) + " |",
                "|---|" + "---:|---:|---:|" * len(RESIDENCIES)] + ffm + [""]
    out += ["Targets (same run; ratios of throughput, errors combined in quadrature):", "",
            "| target | measured | met |", "|---|---|---|"]
    for shape, at_least, alloc_rule in TARGETS:
        size = dict((s, n) for s, n, _ in SHAPES)[shape]
        for res in RESIDENCIES:
            a = _find(mine, f"{shape}_decode_on_read", size, res)
            peers = [p for p in (_find(mine, n, size, res) for n in PEERS[shape]) if p]
            if a is None or not peers:
                out.append(f"| {shape}, {res}: decode on read ≥ {at_least}× rocksdbjni get "
                           f"+ the fastest decode | n/a | not measured |")
                continue
            best = max(peers, key=lambda r: r["ops_per_s"])
            q, e = _ratio(a, best)
            out.append(f"| {size} B {shape}, {res}: `{shape}_decode_on_read` ≥ {at_least}× "
                       f"`{_name(best['strategy'])}` (the fastest) | {_fmt(q)}× ± {_fmt(e)} | "
                       f"{_verdict(q, e, at_least, q >= at_least)} |")
            ca, ca_e = _cpu(a)
            cpu_peers = [(p, _cpu(p)) for p in peers if _cpu(p)[0] is not None]
            if ca is not None and cpu_peers:
                p, (cb, cb_e) = min(cpu_peers, key=lambda x: x[1][0])
                cq = cb / ca
                ce = cq * math.hypot(ca_e / ca, cb_e / cb)
                out.append(f"| the same on CPU time per read (supplementary: the target is "
                           f"throughput), against `{_name(p['strategy'])}` | {_fmt(cq)}× ± "
                           f"{_fmt(ce)} | {_verdict(cq, ce, at_least, cq >= at_least)} |")
            mine_alloc = a.get("alloc_bytes_per_op")
            peer_alloc = best.get("alloc_bytes_per_op")
            if alloc_rule == "zero":
                ok = mine_alloc is not None and mine_alloc < ZERO_BYTES
                out.append(f"| {size} B {shape}, {res}: `{shape}_decode_on_read` allocates 0 B "
                           f"per read (< {ZERO_BYTES}) | {_fmt(mine_alloc, 3)} B "
                           f"(`{_name(best['strategy'])}`: {_fmt(peer_alloc, 1)} B) | "
                           f"{'met' if ok else '**not met**'} |")
            else:
                saved = None if mine_alloc is None or peer_alloc is None \
                    else peer_alloc - mine_alloc
                ok = saved is not None and saved >= size
                out.append(f"| {size} B {shape}, {res}: allocation reduced by ≥ {size} B per "
                           f"read | {_fmt(saved, 1)} B ({_fmt(peer_alloc, 1)} → "
                           f"{_fmt(mine_alloc, 1)}) | {'met' if ok else '**not met**'} |")
    return out + [""]


def _snake(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def jmh_rows(path):
    """Summary rows from a JMH JSON file (the subset of fields this section reads)."""
    with open(path) as f:
        data = json.load(f)
    rows = []
    for b in data:
        pm = b["primaryMetric"]
        scale = {"ops/s": 1.0, "ops/ms": 1e3, "ops/us": 1e6}[pm["scoreUnit"]]
        ops = float(pm["score"]) * scale
        err = float(pm["scoreError"]) * scale
        sec = b.get("secondaryMetrics", {})
        alloc = sec.get("gc.alloc.rate.norm")
        copies = sec.get("copies")
        p = b.get("params", {})
        samples = [float(x) * scale for fork in pm.get("rawData", []) for x in fork]
        cpu = sec.get("cpuNanos")  # DecodeBenchmark's CpuCounters: CPU ns per second
        cpu_samples = None
        if cpu is not None:
            cpu_samples = [float(c) / float(x)
                           for cf, pf in zip(cpu.get("rawData", []), pm.get("rawData", []))
                           for c, x in zip(cf, pf) if float(x) > 0]
        rows.append({
            "samples": samples,
            "suite": "jmh", "strategy": _snake(b["benchmark"].rsplit(".", 1)[1]),
            "value_size": int(p.get("valueSize", 0)),
            "residency": p.get("residency", "block_cache"), "batch": 1,
            "ops_per_s": ops, "ops_per_s_error": None if math.isnan(err) else err,
            "ns_per_op": 1e9 / ops,
            "alloc_bytes_per_op": None if alloc is None else float(alloc["score"]),
            "copies_per_op": None if copies is None or float(pm["score"]) == 0
            else float(copies["score"]) / float(pm["score"]),
            "cpu_samples": cpu_samples,
        })
    return rows


# Two-sided 99.9% Student t quantiles by degrees of freedom (summarize.py's).
T999 = {1: 636.62, 2: 31.599, 3: 12.924, 4: 8.610, 5: 6.869, 6: 5.959,
        7: 5.408, 8: 5.041, 9: 4.781, 10: 4.587, 11: 4.437, 12: 4.318,
        13: 4.221, 14: 4.140, 15: 4.073, 19: 3.883, 24: 3.745, 29: 3.659,
        39: 3.551, 59: 3.460, 119: 3.373}


def _t999(dof):
    return T999[max(k for k in T999 if k <= dof)] if dof < 120 else 3.291


def pool_rounds(rows):
    """One row per (strategy, size, residency): the mean of repeated runs' scores, with
    Student's t error over them (see the module's doc)."""
    groups = {}
    for r in rows:
        groups.setdefault((r["strategy"], r["value_size"], r["residency"]), []).append(r)
    out = []
    for rs in groups.values():
        if len(rs) == 1:
            out.append(rs[0])
            continue
        ops = [x for r in rs for x in (r.get("samples") or [r["ops_per_s"]])]
        n = len(ops)
        mean = sum(ops) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in ops) / (n - 1))
        row = dict(rs[0])
        row["ops_per_s"] = mean
        row["ops_per_s_error"] = _t999(n - 1) * sd / math.sqrt(n)
        row["ns_per_op"] = 1e9 / mean
        row["cpu_samples"] = [x for r in rs for x in (r.get("cpu_samples") or [])] or None
        for field in ("alloc_bytes_per_op", "copies_per_op"):
            xs = [r[field] for r in rs if r.get(field) is not None]
            row[field] = sum(xs) / len(xs) if xs else None
        row["rounds"] = len(rs)
        out.append(row)
    return out


if __name__ == "__main__":
    args = sys.argv[1:]
    rounds = "--rounds" in args
    all_rows = []
    for path in (a for a in args if a != "--rounds"):
        all_rows += jmh_rows(path)
    if rounds:
        all_rows = pool_rounds(all_rows)
    print("\n".join(decode_section(all_rows)))
