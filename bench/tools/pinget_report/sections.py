"""The report's sections: each function returns markdown lines."""
import math

from . import claims as claims_mod
from . import stats
from .parse import HOT_KEY_VALUE_BYTES, find
from .stats import ns_err, ratio


def fmt(x, digits=2):
    if x is None:
        return "n/a"
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return "n/a"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.{digits}f}"


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


# The console shows a time only if its 99.9% error is at most this share of
# it: a wider one says nothing a reader can use (report.md has every row, with
# its error).
CONSOLE_MAX_ERROR = 0.10


def _paired_time(sides, suite, strategy, n):
    """(ns, error share) of a paired side (main group, single gets), or None."""
    t = (sides or {}).get((suite, "main", strategy, 1, n))
    if t is None or not t["median"]:
        return None
    return t["median"], stats.half_width(t)


def console_table(rows, sides=None):
    """Block-cache single gets: ns per get ± error and copies per get, one line
    per suite x strategy, one column per value size (printed by bench/run).
    A time is the paired harness's CPU time per get of that row (sides, from
    stats.side_times; marked "p") when its error is within CONSOLE_MAX_ERROR,
    else the JMH or native row's own when its error is; otherwise "—" (the
    copies are still shown), and a last line says how many."""
    rs = [r for r in rows if r["residency"] == "block_cache" and r["batch"] == 1]
    paired = {(suite, row, n) for suite, group, row, batch, n in (sides or {})
              if group == "main" and batch == 1 and not row.endswith("_twin")}
    sizes = sorted({r["value_size"] for r in rs if r["value_size"]} | {n for _, _, n in paired})
    out = [f"{'suite':<7}{'strategy':<24}" + "".join(
        f"{str(n) + ' B: ns/get':>22}{'copies':>8}" for n in sizes)]
    hidden = shown_paired = 0
    names = {(r["suite"], r["strategy"]) for r in rs} | {(s, row) for s, row, _ in paired}
    for suite, strategy in sorted(names):
        line = f"{suite:<7}{strategy:<24}"
        for n in sizes:
            r = find(rs, suite, strategy, n)
            p = _paired_time(sides, suite, strategy, n)
            if r is None and p is None:
                line += f"{'':>22}{'':>8}"
                continue
            time = "—"
            if p is not None and p[1] is not None and p[1] <= CONSOLE_MAX_ERROR:
                time = f"{fmt(p[0], 1)} ± {100 * p[1]:.0f}% p"
                shown_paired += 1
            elif r is not None:
                err, ops = r["ops_per_s_error"], r["ops_per_s"]
                share = None if err is None or not ops else err / ops
                if share is not None and share <= CONSOLE_MAX_ERROR:
                    time = f"{fmt(r['ns_per_op'], 1)} ± {100 * share:.0f}%"
            hidden += time == "—"
            copies = "" if r is None else fmt(r["copies_per_op"])
            line += f"{time:>22}{copies:>8}"
        out.append(line)
    if shown_paired:
        out.append("p : the paired harness's CPU ns per get of that row (median over its JVMs, "
                   "or its C++ process's rounds; 99.9% interval)")
    if hidden:
        out.append(f"— : {hidden} times not shown, their 99.9% error above "
                   f"{CONSOLE_MAX_ERROR:.0%} of the time (report.md has every row); "
                   "the paired ratios below are the figures that hold")
    return out


# Small values: (single-get row, batched row) of each strategy and peer.
SMALL_PAIRS = [("pinned_view", "pinned_view"), ("buffer_copy", "buffer_copy"),
               ("direct_copy", "direct_copy"), ("native_pinned_loop", "native_batch_loop"),
               ("rocksdbjni_get", "rocksdbjni_multiget"),
               ("rocksdbjni_get_direct", "rocksdbjni_multiget_direct")]


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
    lines += ["", "JNI tax in one process from these unpaired rows (Java row's time per key "
              "over its C++ control's; the targets read the paired comparisons):", ""]
    for n in sorted({r["value_size"] for r in rows if r["strategy"] == "native_pinned_loop"}):
        r, e = ratio(find(rows, "jmh", "native_pinned_loop", n),
                     find(rows, "jmh", "pinned_view", n))
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


def controls(rows):
    lines = []
    nop = find(rows, "jmh", "jni_nop", 0) or next(
        (r for r in rows if r["strategy"] == "jni_nop"), None)
    if nop:
        lines.append(f"- `jni_nop` (one empty JNI crossing): {fmt(nop['ns_per_op'], 1)} ns")
    for r in sorted((r for r in rows if r["strategy"].startswith("memcpy")),
                    key=lambda r: (r["strategy"], r["value_size"])):
        lines.append(f"- `{r['strategy']}` of {r['value_size']} B: {fmt(r['ns_per_op'], 1)} ns "
                     f"(± {fmt(ns_err(r)[1], 1)})")
    twins = [r for r in rows if r["strategy"].endswith("_twin")]
    for t in twins:
        base = find(rows, t["suite"], t["strategy"][:-5], t["value_size"],
                    t["residency"], t["batch"])
        r, e = ratio(t, base)
        if r is not None:
            # Unpaired: two rows minutes apart; the paired controls are targets.
            lines.append(f"- unpaired negative control: `{t['strategy']}` / "
                         f"`{base['strategy']}` ({t['suite']}, {t['value_size']} B, "
                         f"{t['residency']}) = {fmt(r, 3)} ± {fmt(e, 3)}")
    co = [r for r in rows if r["strategy"] == "counter_overhead"]
    for r in co:
        lines.append(f"- copy-counter overhead: {fmt(r['ns_per_op'], 2)} ns per recorded event "
                     f"({r['suite']}); a get records 0 to 3 events")
    return lines


FFM_METHODS = [("ffm_pinned_view", 1), ("pinned_view", 1), ("native_pinned_loop", 1),
               ("ffm_buffer_copy", 1), ("buffer_copy", 1), ("ffm_direct_copy", 1),
               ("ffm_pinnable_copy", 1), ("ffm_string_copy", 1), ("ffm_pinned_batch", 16),
               ("ffm_multiget_buffer_copy", 16), ("pinned_view_in_place", 16),
               ("rocksdbjni_get", 1), ("rocksdbjni_get_direct", 1)]


def ffm_section(rows, jvm):
    """The FFM suite's JMH rows: the FFM binding beside the JNI API, the
    native loop and rocksdbjni, all on one JDK 22+ (its targets are paired:
    see Targets)."""
    rs = [r for r in rows if r["group"] == "ffm"]
    if not rs:
        return []
    sizes = sorted({r["value_size"] for r in rs})
    label = lambda n: claims_mod.size_label(n, "ffm")  # noqa: E731
    lines = [f"One JVM ({jvm or 'JDK 22+'}), each binding over its own copy of the same data "
             "in the block cache. ns per get ± 99.9% error, allocated bytes per get and copies "
             "per get (per key for the batched rows: batches of 16). *hot key*: one key with a "
             "26-byte value read again and again, where the crossing is the cost. Rows without "
             "the `ffm_` prefix are the JNI API and rocksdbjni on this JDK.", "",
             "| row | " + " | ".join(label(n) for n in sizes) + " |",
             "|---|" + "---:|" * len(sizes)]
    for m, b in FFM_METHODS:
        cells = []
        for n in sizes:
            r = find(rs, "jmh", m, n, batch=b)
            if r is None:
                cells.append("n/a")
                continue
            ns, e = ns_err(r)
            cell = f"{fmt(ns, 0)} ± {fmt(e, 0)}; {fmt(r['alloc_bytes_per_op'], 0)} B"
            if r["copies_per_op"] is not None:
                cell += f"; {fmt(r['copies_per_op'])} copies"
            cells.append(cell)
        if any(c != "n/a" for c in cells):
            name = f"`{m}`" + (f" batch {b}" if b > 1 else "")
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def _interval(lo, hi, digits=3):
    if lo is None:
        return "n/a"
    return f"[{fmt(lo, digits)}, {fmt(hi, digits)}]"


def _pct(x):
    return "n/a" if x is None else f"{100 * x:.1f}%"


# The Java paired runs' data shapes besides the default one (parse.load).
JMH_GROUP_LABELS = {"ffm": "FFM suite", "key128": "Java, 128-byte keys",
                    "memtable": "Java, memtable"}


def paired_results(comparisons):
    """Each paired comparison (forks pooled) with its statistics on the
    primary clock, for the report, the charts and summary.json."""
    out = []
    groups = {}
    for c in comparisons:
        key = (c["suite"], c["group"], c["a"], c["a_batch"], c["b"], c["b_batch"],
               c["value_size"])
        groups.setdefault(key, []).append(c)
    for key in sorted(groups, key=lambda k: (k[0], k[1], k[6], k[2], k[4], k[3], k[5])):
        suite, group, a, ab, b, bb, n = key
        forks = groups[key]
        p = stats.paired(forks)
        name = lambda row, batch: row + (f"/{batch}" if batch > 1 else "")  # noqa: E731
        where = {"native": "C++", "jmh": JMH_GROUP_LABELS.get(group, "Java")}[suite]
        out.append({"suite": suite, "group": group, "a": a, "a_batch": ab, "b": b, "b_batch": bb,
                    "value_size": n, "forks": len(forks), "stats": p,
                    "ratio": p["median"], "low": p["low"], "high": p["high"],
                    "label": f"{where}: {name(a, ab)} / {name(b, bb)}, "
                             f"{claims_mod.size_label(n, group)}"})
    return out


def paired_section(results):
    """The paired ratios: value, interval, the other clock, and how busy the
    machine was."""
    if not results:
        return []
    lines = ["Each comparison measures side a and side b in alternating rounds (10 ms here unless "
             "the commands say otherwise) of one process, in a random order per pair, both "
             "starting at the same key; *ratio* is a's speed over b's (b's time per operation "
             "over a's), the median of the per-pair ratios on the measuring thread's CPU time "
             "(plus GC pauses). Java comparisons run in 11 JVMs of their own (forks): the ratio "
             "is the median of the forks' medians and the interval is a distribution-free 99.9% "
             "interval over the forks (JIT and layout make each JVM's ratio differ by more than "
             "its pairs' noise); C++ comparisons run in one process and the interval is over "
             "the pairs. *wall clock*: the same on the wall clock; *on CPU*: CPU time over wall "
             "time, below 1 when other processes took the CPU (then only the CPU-time ratios "
             "hold).", "",
             "| comparison (a / b) | JVMs × pairs | ratio | 99.9% interval | ± | wall clock | "
             "on CPU |", "|---|---:|---:|---|---:|---|---:|"]
    for r in results:
        p = r["stats"]
        o = p["other"]
        lines.append(f"| {r['label']} | {r['forks']} × {p['n'] // max(1, r['forks'])} | "
                     f"{fmt(p['median'], 3)} | {_interval(p['low'], p['high'])} | "
                     f"{_pct(stats.half_width(p))} | {fmt(o['median'], 3)} "
                     f"{_interval(o['low'], o['high'])} | {fmt(p['on_cpu'])} |")
    return lines


def noise_section(results, rows):
    """What pairing removes: each side's spread over its rounds, the ratio of
    the two sides' medians taken apart (unpaired) with the interval their own
    intervals give, the same two JMH rows (measured minutes apart), the order
    effect and the ratio of mean times."""
    if not results:
        return []
    lines = ["*spread*: interquartile range over the median of a side's rounds (time per "
             "operation), and of the per-pair ratios; *unpaired*: b's median over a's, each "
             "side's rounds taken alone, with the interval that the sides' own 99.9% intervals "
             "give; *JMH rows*: the ratio of the same two rows of the JMH suite (one fork each, "
             "minutes apart) ± JMH's errors in quadrature; *a first / b first*: the median ratio "
             "of the pairs in which a, and in which b, ran first; *mean*: the ratio of mean "
             "times (where GC pauses, rare in any one round, count in full); *forks*: the range "
             "of the JVMs' medians.", "",
             "| comparison | ns/op a, b | spread a, b, ratio | unpaired | JMH rows | a first / "
             "b first | mean | forks | GCs a, b |", "|---|---|---|---|---|---|---:|---|---|"]
    for r in results:
        p = r["stats"]
        jmh = "n/a"
        if r["suite"] == "jmh":
            group_rows = [x for x in rows if x["group"] == r["group"]]
            q, e = ratio(find(group_rows, "jmh", r["a"], r["value_size"], batch=r["a_batch"]),
                         find(group_rows, "jmh", r["b"], r["value_size"], batch=r["b_batch"]))
            if q is not None:
                jmh = f"{fmt(q, 3)} ± {fmt(e, 3)}"
        forks = [f for f in p["fork_medians"] if f is not None]
        fork_range = (f"{fmt(min(forks), 3)} to {fmt(max(forks), 3)}" if len(forks) > 1
                      else "one process")
        lines.append(f"| {r['label']} | {fmt(p['ns_a'], 0)}, {fmt(p['ns_b'], 0)} | "
                     f"{_pct(p['spread_a'])}, {_pct(p['spread_b'])}, {_pct(p['spread_ratio'])} | "
                     f"{fmt(p['unpaired'], 3)} "
                     f"{_interval(p['unpaired_low'], p['unpaired_high'])} | "
                     f"{jmh} | {fmt(p['a_first_median'], 3)} / {fmt(p['b_first_median'], 3)} | "
                     f"{fmt(p['mean_ratio'], 3)} | {fork_range} | {p['gcs_a']}, {p['gcs_b']} |")
    return lines


def claims_section(results):
    """The claims table and the count of each verdict."""
    lines = ["Every target the report judges (bench/tools/pinget_report/claims.py). *paired*: "
             "judged on the paired interval (Paired comparisons); *rows*: on unpaired rows "
             "(ratios ± errors in quadrature; values without an interval). A target *at least "
             "T* is met when the whole 99.9% interval is at or above T, not met when it is "
             "below, within error when it straddles T; *= 1* is met when the interval holds 1. "
             "*JMH rows* shows the same ratio from the two JMH rows, unpaired, for comparison.",
             "", "| target | size | source | measured | 99.9% interval | verdict | JMH rows |",
             "|---|---|---|---:|---|---|---|"]
    for r in results:
        if r["verdict"] == claims_mod.NOT_MEASURED and r["value"] is None:
            continue  # listed after the table
        v = r["value"]
        if r.get("source") == "paired" and "half-width" in r["text"]:
            shown = _pct(v)
            interval = ""
        elif "failing" in r:
            shown = f"{fmt(v, 3)} (largest of {r['rows']} rows)"
            interval = ("" if not r["failing"] else "fails: " +
                        ", ".join(f"`{s}`" for s in r["failing"]))
        else:
            shown = fmt(v, 3) + (f" (vs `{r['peer']}`)" if r.get("peer") else "")
            interval = _interval(r.get("low"), r.get("high"))
        unpaired = r.get("unpaired")
        jmh = "" if not unpaired else f"{fmt(unpaired[0], 3)} ± {fmt(unpaired[1], 3)}"
        verdict = r["verdict"] if r["verdict"] in (claims_mod.MET, claims_mod.NOT_MEASURED) \
            else f"**{r['verdict']}**"
        lines.append(f"| {r['text']} | {r['size']} | {r['source']} | {shown} | {interval} | "
                     f"{verdict} | {jmh} |")
    counts = {v: sum(1 for r in results if r["verdict"] == v) for v in claims_mod.VERDICTS}
    lines += ["", "Verdicts: " + ", ".join(f"{n} {v}" for v, n in counts.items() if n) + "."]
    absent = [f"{r['text']} ({r['size']})" for r in results
              if r["verdict"] == claims_mod.NOT_MEASURED and r["value"] is None]
    if absent:
        lines += ["", "Not measured in this run: " + "; ".join(absent) + "."]
    return lines


def native_build_note(rows):
    """Why Debian's Google Benchmark ("Library was built as DEBUG") does not
    matter here, with the measured cost of its loop."""
    r = next((r for r in rows if r["suite"] == "native" and r["strategy"] == "empty_loop"),
             None)
    if r is None:
        return []
    fastest = min((x["ns_per_op"] for x in rows if x["suite"] == "native"
                   and x["value_size"] > 0 and not x["strategy"].startswith("memcpy")),
                  default=None)
    share = "" if not fastest else (f", {100 * r['ns_per_op'] / fastest:.2f}% of the fastest "
                                    f"native get here ({fmt(fastest, 0)} ns)")
    return [f"- Google Benchmark is Debian's libbenchmark, built without NDEBUG: it prints "
            f"\"Library was built as DEBUG\". Its iteration loop is inline in benchmark.h and "
            f"compiled into pinget_bench in Release; the library's own code runs once per batch "
            f"of iterations. What the loop costs per iteration, as built (`empty_loop`): "
            f"{fmt(r['ns_per_op'], 2)} ns{share}. The paired C++ comparisons do not use it."]


def _ns_cell(r):
    ns, e = ns_err(r)
    return "n/a" if ns is None else f"{fmt(ns, 0)} ± {fmt(e, 0)}"


def _speedup(a, b):
    """a's speed over b's, with its error (two rows of one run)."""
    q, e = ratio(a, b)
    return "n/a" if q is None else f"{fmt(q)}× ± {fmt(e)}"


SCAN_PEERS = ["native_cursor_loop", "rocksjava_cursor", "rocksdbjni_iterator",
              "rocksdbjni_iterator_direct"]


def scan_section(rows, ffm_rows):
    """Scans per entry (ScanBenchmark, FfmScanBenchmark, the native suite's
    cursor@ and native_iterator@ rows): ns per entry, the cursor's speed over
    each peer, its copies and allocation per entry."""
    scan = [r for r in rows if r["strategy"].partition("@")[2] in ("stream", "range")]
    ffm = [r for r in ffm_rows if r["strategy"].partition("@")[2] in ("stream", "range")]
    if not scan and not ffm:
        return []
    lines = ["Per entry, one run: `stream` is a streaming scan (batches of 256 entries per JNI "
             "call for the cursors), `range` a seek to a random key and the 100 entries from "
             "it. *× peer*: the cursor's speed over that row's (errors in quadrature). "
             "`native_cursor_loop` makes the cursor's reads in C++ inside the JVM (one JNI call "
             "per streaming batch or range); pinget's rows, that loop's included, read each "
             "entry in place (its key's and its value's last byte); `rocksjava_cursor` is "
             "pinget's cursor over the rocksdbjni rows' own RocksDB; `rocksdbjni_iterator` copies each key and value "
             "into new arrays, `_direct` into direct buffers. Copies count value copies (keys "
             "are copied once each and counted apart).", ""]
    jmh = [r for r in scan if r["suite"] == "jmh"]
    for keys in sorted({r["keys"] for r in jmh}):
        for residency in ("block_cache", "memtable"):
            rs = [r for r in jmh if r["keys"] == keys and r["residency"] == residency]
            if not rs:
                continue
            lines += [f"JMH, {keys:,} keys, {residency}:", "",
                      "| size | shape | `cursor` ns/entry | " +
                      " | ".join(f"× `{p}`" for p in SCAN_PEERS) +
                      " | copies/entry | alloc B/entry |",
                      "|---:|---|---:|" + "---:|" * len(SCAN_PEERS) + "---:|---:|"]
            for n in sorted({r["value_size"] for r in rs}):
                for shape in ("stream", "range"):
                    c = find(rs, "jmh", f"cursor@{shape}", n, residency)
                    if c is None:
                        continue
                    cells = [_speedup(c, find(rs, "jmh", f"{p}@{shape}", n, residency))
                             for p in SCAN_PEERS]
                    lines.append(f"| {n} | {shape} | {_ns_cell(c)} | " + " | ".join(cells) +
                                 f" | {fmt(c['copies_per_op'])} | "
                                 f"{fmt(c['alloc_bytes_per_op'], 2)} |")
            lines.append("")
    native = [r for r in scan if r["suite"] == "native"]
    if native:
        lines += ["C++ (the native suite): pinget's `Cursor` and RocksDB's own iterator with "
                  "`pin_data` over the same data, per entry.", "",
                  "| keys | residency | size | shape | `cursor` ns/entry | `native_iterator` "
                  "ns/entry | `cursor` time / `native_iterator` |",
                  "|---:|---|---:|---|---:|---:|---:|"]
        for r in sorted((r for r in native if r["strategy"].startswith("cursor@")),
                        key=lambda r: (r["keys"], r["residency"], r["value_size"],
                                       r["strategy"])):
            shape = r["strategy"].partition("@")[2]
            floor = next((x for x in native if x["strategy"] == f"native_iterator@{shape}"
                          and (x["keys"], x["residency"], x["value_size"]) ==
                          (r["keys"], r["residency"], r["value_size"])), None)
            q, e = ratio(floor, r)
            lines.append(f"| {r['keys']:,} | {r['residency']} | {r['value_size']} | {shape} | "
                         f"{_ns_cell(r)} | {_ns_cell(floor)} | "
                         f"{'n/a' if q is None else f'{fmt(q)} ± {fmt(e)}'} |")
        lines.append("")
    if ffm:
        lines += ["FFM suite (JDK 22+): the FFM cursor beside the JNI cursor on the same JDK.", "",
                  "| size | shape | `ffm_cursor` ns/entry | `cursor_in_place` (JNI) ns/entry | "
                  "FFM speed / JNI | FFM alloc B/entry |", "|---:|---|---:|---:|---:|---:|"]
        for n in sorted({r["value_size"] for r in ffm}):
            for shape in ("stream", "range"):
                a = find(ffm, "jmh", f"ffm_cursor@{shape}", n)
                b = find(ffm, "jmh", f"cursor_in_place@{shape}", n)
                if a is None and b is None:
                    continue
                lines.append(f"| {n} | {shape} | {_ns_cell(a)} | {_ns_cell(b)} | "
                             f"{_speedup(a, b)} | "
                             f"{fmt(None if a is None else a['alloc_bytes_per_op'], 2)} |")
    return lines


MEMTABLE_SHAPES = ["memtable", "one_sst", "levels"]


def memtable_section(rows):
    """MemtableBenchmark: the pinned view with pin_memtable beside today's and
    rocksdbjni's get, per LSM shape, hits and misses, per size."""
    rs = [r for r in rows if r["strategy"].count("@") == 2
          and r["strategy"].rsplit("@", 1)[1] in MEMTABLE_SHAPES]
    if not rs:
        return []
    lines = ["ns per get (± 99.9% error) of the pinned view with `pin_memtable` "
             "(`pinned_view_pin_memtable`) and without (`pinned_view`), and rocksdbjni's "
             "`get`, over three LSM shapes: `memtable` (every key in the memtable), `one_sst` "
             "(every key in one flushed file, 1% rewritten into the memtable), `levels` (half "
             "compacted into the last level, the rest in three L0 files, 1% rewritten). `hit` "
             "reads keys that exist, `miss` keys between them. *speed-up*: `pin_memtable`'s "
             "speed over `pinned_view`'s in the same run; copies per get from pinget's "
             "counters.", "",
             "| shape | lookup | size | `pinned_view_pin_memtable` | `pinned_view` | speed-up | "
             "`rocksdbjni_get` | copies/get (pin, plain) |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for shape in MEMTABLE_SHAPES:
        for lookup in ("hit", "miss"):
            for n in sorted({r["value_size"] for r in rs}):
                pin = find(rs, "jmh", f"pinned_view_pin_memtable@{lookup}@{shape}", n)
                plain = find(rs, "jmh", f"pinned_view@{lookup}@{shape}", n)
                peer = find(rs, "jmh", f"rocksdbjni_get@{lookup}@{shape}", n)
                if pin is None and plain is None:
                    continue
                copies = ", ".join(fmt(None if r is None else r["copies_per_op"])
                                   for r in (pin, plain))
                lines.append(f"| {shape} | {lookup} | {n} | {_ns_cell(pin)} | "
                             f"{_ns_cell(plain)} | {_speedup(pin, plain)} | {_ns_cell(peer)} | "
                             f"{copies} |")
    return lines
