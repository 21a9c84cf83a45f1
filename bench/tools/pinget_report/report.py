"""One bench/results/<stamp>/ folder into summary*.json, report.md and charts.

Reads native-*.json (Google Benchmark), jmh-*.json and jmh-ffm-*.json (JMH),
paired-*.json (the paired harnesses), selftest-*.json (their self-tests, judged
in "Paired harness on this machine"), kafka-*.json (bench/jmh-kafka: "Kafka Streams")
and env.json (machine, load, versions,
commands; written by bench/run). Writes:
  summary.json            docs/design.md's schema: the rows of the first key count,
                          and "paired": the paired comparisons
  summary-keys<N>.json    the same for every other key count (--full)
  summary-ffm.json        the FFM suite's rows and pairs (its own JVM)
  report.md, charts/*.svg
Every figure comes from the input files; what a suite cannot measure is null.
"""
import argparse
import json
import os
from collections import defaultdict

from . import charts, claims, decode, kafka, parse, sections, selftest, stats, strategies
from .sections import fmt

# The native suite names a data set by its capped key count, JMH by the
# requested one; capped rows belong with the largest requested key count.
BUSY_LOAD = 1.5  # 1-minute load on this run's parts above which other work ran


def summary_paired(results):
    out = []
    for r in results:
        shape = parse.DATA_SHAPE_GROUPS.get(r["group"], parse.DEFAULT_DATA_SHAPE)
        p = r["stats"]
        o = p["other"]
        out.append({"suite": r["suite"], "a": r["a"], "a_batch": r["a_batch"], "b": r["b"],
                    "b_batch": r["b_batch"], "value_size": r["value_size"],
                    "residency": shape[0], "key_bytes": shape[1],
                    "clock": p["clock"], "unit": "fork" if r["forks"] > 1 else "pair",
                    "forks": r["forks"], "pairs": p["n"], "ratio": p["median"],
                    "low": p["low"], "high": p["high"], "confidence": p["coverage"],
                    "ns_a": p["ns_a"], "ns_b": p["ns_b"], "wall_ratio": o["median"],
                    "wall_low": o["low"], "wall_high": o["high"], "on_cpu": p["on_cpu"],
                    "mean_ratio": p["mean_ratio"]})
    return out


def load_line(env):
    loads = env.get("load") or {}
    if not loads:
        return None
    cpus = env["machine"]["cpus"]
    worst = max(loads.values())
    busy = {k: v for k, v in loads.items() if v > BUSY_LOAD}
    text = (f"1-minute load average as each part ended: {fmt(min(loads.values()))} to "
            f"{fmt(worst)} on {cpus} CPUs (the run itself adds about 1).")
    if busy:
        text += (" **Measured while other work ran** (load above "
                 f"{BUSY_LOAD} after: {', '.join(sorted(busy))}): absolute times and "
                 "wall-clock ratios are not final; the paired CPU-time ratios are the "
                 "figures that hold.")
    return text


def console(rows, claim_results, paired, judged, sides=None):
    lines = sections.console_table([r for r in rows if r["group"] == "main"], sides)
    if judged:
        lines += ["", selftest.console_line(judged)]
    if paired:
        lines += ["", "paired (a's speed over b's, 99.9% interval):"]
        for r in paired:
            lines.append(f"  {r['label']:<58} {fmt(r['ratio'], 3):>8} "
                         f"{sections._interval(r['low'], r['high'])}")
    counts = {v: sum(1 for r in claim_results if r["verdict"] == v) for v in claims.VERDICTS}
    lines.append("targets: " + ", ".join(f"{n} {v}" for v, n in counts.items() if n))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--no-charts", action="store_true")
    args = ap.parse_args(argv)
    d = args.results
    with open(os.path.join(d, "env.json")) as f:
        env = json.load(f)
    rows, comparisons = parse.load(d)
    selftests = [c for name in sorted(os.listdir(d))
                 if name.startswith("selftest-") and name.endswith(".json")
                 for c in parse.paired_comparisons(os.path.join(d, name))]
    judged = selftest.check(selftests, timing=True) if selftests else None
    kafka_files = kafka.files(d)
    if not rows and not comparisons and not selftests and not kafka_files:
        raise SystemExit("no results")

    def capped(r):
        return r["keys"] and r["value_size"] and \
            r["keys"] == parse.MAX_DATA_BYTES // r["value_size"]
    main_group = [r for r in rows if r["group"] == "main"]
    ffm_rows = [r for r in rows if r["group"] == "ffm"]
    key_counts = sorted({r["keys"] for r in main_group if r["keys"] and not capped(r)})
    primary = key_counts[0] if key_counts else 0
    by_keys = defaultdict(list)
    for r in main_group:
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

    main_rows = by_keys[primary] if by_keys else []
    paired = sections.paired_results(comparisons)
    main_paired = [p for p in paired
                   if p["group"] == "main" or p["group"] in parse.DATA_SHAPE_GROUPS]
    ffm_paired = [p for p in paired if p["group"] == "ffm"]
    table = strategies.load()
    claim_rows = main_rows + ffm_rows
    claim_results = claims.evaluate(claim_rows, comparisons, table, main_group + ffm_rows)

    head = {"generated": env["generated"], "machine": env["machine"],
            "rocksdb": env["rocksdb"], "rocksdbjni": env.get("rocksdbjni"),
            "jvm": env.get("jvm"), "profile": env["profile"]}
    summaries = {}
    for k, rs in by_keys.items():
        name = "summary.json" if k == primary else f"summary-keys{k}.json"
        summaries[name] = dict(head, results=parse.to_schema(rs))
    if main_paired or "summary.json" not in summaries:
        summaries.setdefault("summary.json", dict(head, results=[]))
        summaries["summary.json"]["paired"] = summary_paired(main_paired)
    if ffm_rows or ffm_paired:
        summaries["summary-ffm.json"] = dict(head, jvm=env.get("jvm_ffm"),
                                             results=parse.to_schema(ffm_rows),
                                             paired=summary_paired(ffm_paired))
    for name, s in summaries.items():
        with open(os.path.join(d, name), "w") as f:
            json.dump(s, f, indent=1)
    written = []
    if not args.no_charts:
        written = charts.charts(main_rows, d) + charts.paired_chart(paired, d)

    md = [f"# pinget benchmark report ({env['profile']})", "",
          f"Generated {env['generated']} on {env['machine']['model']} "
          f"({env['machine']['cpus']} CPUs); JVM {env.get('jvm') or 'n/a'}"
          + (f"; FFM suite on {env['jvm_ffm']}" if env.get("jvm_ffm") and ffm_rows + ffm_paired
             else "") + ".", "",
          engine_line + ".", ""]
    load = load_line(env)
    if load:
        md += [load, ""]
    md += ["Errors of rows are 99.9% confidence half-widths (JMH's scoreError; for the native "
           "suite, Student t over the repetitions). Ratios that targets judge come from paired "
           "comparisons (Paired comparisons, below). Copies per get come from pinget's "
           f"counters; allocation bytes from JMH's `gc.alloc.rate.norm`. Key count: {primary}.",
           "", "## Commands", ""]
    md += [f"    {c}" for c in env.get("commands", [])]
    md += ["", "## Targets", ""] + sections.claims_section(claim_results)
    if selftests:
        md += ["", "## Paired harness on this machine", ""] + selftest.section(judged)
    if paired:
        md += ["", "## Paired comparisons", ""] + sections.paired_section(paired)
        md += ["", "### The noise that pairing removes", ""] + \
            sections.noise_section(paired, main_rows + ffm_rows)
    ctl = sections.controls(main_rows) + sections.native_build_note(main_rows)
    md += ["", "## Controls", ""] + (ctl or ["(none measured)"])
    lookups = sections.lookup_section(by_keys)
    if lookups:
        md += ["", "## Point-lookup options", ""] + lookups
    for k in key_counts:
        files = sections.file_section(by_keys[k])
        if files:
            shapes = sorted({r["key_bytes"] for r in by_keys[k] if r["residency"] == "file"})
            md += ["", f"## Values read from files, {k} keys of "
                   + " and ".join(f"{b} B" for b in shapes), ""] + files
    paths = sections.file_path_section(main_rows)
    if paths:
        md += ["", "## File-path options", ""] + paths
    ffm = sections.ffm_section(ffm_rows, env.get("jvm_ffm"))
    if ffm:
        md += ["", "## FFM binding", ""] + ffm
    decoded = decode.decode_section(main_rows + ffm_rows)
    if decoded:
        md += ["", "## Get and decode", ""] + decoded
    streams = kafka.section(kafka_files)
    if streams:
        md += ["", "## Kafka Streams", ""] + streams
    scans = sections.scan_section(main_group, ffm_rows)
    if scans:
        md += ["", "## Scans", ""] + scans
    memtable = sections.memtable_section(main_group)
    if memtable:
        md += ["", "## Memtable", ""] + memtable
    small = sections.small_values(main_rows)
    if small:
        md += ["", "## Small values: single and batched gets per key", ""] + small
    for name in written:
        md += ["", f"![{name}]({name})"]
    for suite in ("jmh", "native"):
        t = sections.table(main_rows, suite)
        if t:
            md += ["", f"## {suite} results", ""] + t
    if ffm_rows:
        md += ["", "## jmh results, FFM suite", ""] + sections.table(ffm_rows, "jmh")
    for k in key_counts[1:]:
        for suite in ("jmh", "native"):
            t = sections.table(by_keys[k], suite)
            if t:
                md += ["", f"## {suite} results, {k} keys", ""] + t
    with open(os.path.join(d, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    text = "\n".join(console(rows, claim_results, paired, judged,
                             stats.side_times(comparisons))) + "\n"
    with open(os.path.join(d, "console.txt"), "w") as f:
        f.write(text)
    print(text, end="")
    print(f"wrote {', '.join(sorted(summaries))}, report.md, console.txt, "
          f"{len(written)} charts in {d}")
