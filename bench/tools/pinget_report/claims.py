"""Every target the report judges, in one list (CLAIMS), and one vocabulary
for its verdicts (VERDICTS).

A ratio target is judged on an interval, never on a point alone:
- at least T: met if the interval's low end is >= T, not met if its high end
  is below T, within error otherwise;
- at most T: the mirror image;
- equal to 1: met if the interval holds 1, not met otherwise;
- precision: met if the paired interval's half-width, over the median, is at
  most the given share.
A value target (bytes allocated, bytes copied) has no interval: met or not
met. What the run did not measure, or measured with too few forks or pairs
for a 99.9% interval, is "not measured".

Sources: "paired" claims read the paired harness (a pinget row and its peer
in alternating rounds of one JVM or process, bench/common and
bench/native/paired.h): the median of per-pair ratios and its 99.9%
distribution-free interval. "rows" claims read two unpaired rows (JMH or the
native suite), their ratio and errors in quadrature: only claims that cannot
be paired (two processes) or are not ratios are judged from rows.
"""
from . import stats, strategies
from .parse import HOT_KEY_VALUE_BYTES, find

MET, NOT_MET, WITHIN, NOT_MEASURED = "met", "not met", "within error", "not measured"
VERDICTS = (MET, NOT_MET, WITHIN, NOT_MEASURED)

KIB = 1024
EVERY = "every size measured"
FROM_4K = "from 4 KiB"


def _speed(a, b, **k):
    """a's speed over b's (b's time per operation over a's)."""
    return dict(kind="paired", measure="speed", a=a, b=b, **k)


def _time(a, b, **k):
    """a's time per operation (per key) over b's."""
    return dict(kind="paired", measure="time", a=a, b=b, **k)


PV, PV1 = ("pinned_view", 1), ("pinned_view", 1)
# rocksdbjni's get and a decode of the value, per DecodeBenchmark shape: its
# get(byte[]) with each decode, and its get(ByteBuffer) (no array allocated).
# A speed target is judged against the fastest of them in the run.
DECODE_PEERS = {"long": ["long_rocksdbjni_get_guava", "long_rocksdbjni_get_wrap",
                         "long_rocksdbjni_get_shifts", "long_rocksdbjni_get_direct"],
                "avro": ["avro_rocksdbjni_get", "avro_rocksdbjni_get_direct"]}
SCAN_KEYS = (1000, 100000)
MEMTABLE_KEYS = 100000  # MemtableBenchmark's key count (64 KiB values: 16,384)


def _rows_speed(a, b, at_least, sizes, keys):
    """JMH row a's throughput over row b's, both of one run and key count
    (two unpaired rows: errors in quadrature)."""
    return dict(kind="rows", measure="speed", a=("jmh", a, 1), b=("jmh", b, 1),
                at_least=at_least, sizes=sizes, keys=keys, note=f"{keys:,} keys")

GET = ("rocksdbjni_get", 1)

CLAIMS = [
    # pinget beside rocksdbjni, single gets from the block cache.
    _speed(PV, GET, at_least=8, sizes=[64 * KIB]),
    _speed(PV, ("rocksdbjni_get_direct", 1), at_least=2.5, sizes=[64 * KIB]),
    _speed(("rocksjava_pinned_view", 1), GET, at_least=8, sizes=[64 * KIB],
           note="same RocksDB instance"),
    _speed(("rocksjava_pinned_view", 1), ("rocksdbjni_get_direct", 1), at_least=2.5,
           sizes=[64 * KIB], note="same RocksDB instance"),
    _speed(PV, GET, at_least=1, sizes=[128]),
    _speed(PV, ("buffer_copy", 1), at_least=1, sizes=EVERY),
    # Best against best: each pinget copy strategy against rocksdbjni's
    # matching one, both into a buffer the caller already has (issue 31).
    _speed(("direct_copy", 1), ("rocksdbjni_get_direct", 1), at_least=1,
           sizes=[128, KIB, 16 * KIB, 64 * KIB], note="best against best"),
    _speed(("buffer_copy", 1), ("rocksdbjni_get_prealloc", 1), at_least=1,
           sizes=[128, KIB, 16 * KIB, 64 * KIB], note="best against best"),
    # The same with 128-byte keys, as in rocksdbjni's own GetBenchmarks.
    _speed(("direct_copy", 1), ("rocksdbjni_get_direct", 1), at_least=1,
           sizes=[128, KIB, 16 * KIB, 64 * KIB], group="key128", note="128-byte keys"),
    _speed(("buffer_copy", 1), ("rocksdbjni_get_prealloc", 1), at_least=1,
           sizes=[128, KIB, 16 * KIB, 64 * KIB], group="key128", note="128-byte keys"),
    # Every value in the memtable (P = 1: RocksDB copies it into the pin).
    _speed(PV, GET, at_least=1, sizes=[128, 4 * KIB], group="memtable", note="memtable"),
    _speed(PV, ("rocksdbjni_get_direct", 1), at_least=1, sizes=[128, 4 * KIB],
           group="memtable", note="memtable"),
    _time(("long_decode_on_read", 1), ("native_pinned_loop", 1), at_most=1.10, sizes=[8],
          group="memtable", note="memtable; the C++ loop does not decode"),
    _speed(("long_decode_on_read", 1), ("long_rocksdbjni_get_direct", 1), at_least=1,
           sizes=[8], group="memtable", note="memtable"),
    _time(("utf8_decode_on_read", 1), ("native_utf8_loop", 1), at_most=1.10, sizes=[64],
          group="memtable", note="memtable; the C++ loop makes the String too"),
    _time(("avro_decode_on_read", 1), ("native_avro_loop", 1), at_most=1.10, sizes=[KIB],
          group="memtable", note="memtable; the C++ loop's values decoded by the same reader"),
    *[_speed((f"{s}_decode_on_read", 1), (f"{s}_rocksdbjni_get_direct", 1), at_least=1,
             sizes=[size], group="memtable", note="memtable")
      for s, size in (("utf8", 64), ("avro", KIB))],
    # The same algorithm on both sides (Get into a PinnableSlice, then one
    # copy into a new byte[]), on one release built two ways: pinget's engine
    # leaves RocksDB's perf counters out, so it must not be the slower.
    _speed(("pinnable_copy", 1), GET, at_least=1, sizes=EVERY,
           note="same algorithm; engine without perf counters"),
    # The JNI tax in one process: the Java row's time over the same reads made
    # in C++ inside that JVM.
    _time(PV, ("native_pinned_loop", 1), at_most=1.10, sizes=[128]),
    _time(PV, ("native_pinned_loop", 1), at_most=1.05, sizes=FROM_4K),
    _time(("rocksjava_pinned_view", 1), ("native_pinned_loop", 1), at_most=1.15,
          sizes=[64 * KIB]),
    # Batches, per key.
    *[c for b in (16, 64) for c in (
        _time(("pinned_view", b), PV1, at_most=0.6, sizes=[128]),
        _speed(("pinned_view", b), ("rocksdbjni_multiget", b), at_least=1.5, sizes=[128]),
        _time(("pinned_view", b), ("native_batch_loop", b), at_most=1.10, sizes=[128]),
        dict(kind="rows", a=("jmh", "pinned_view", b), b=("native", "pinned_view", b),
             at_most=1.10, sizes=[128], note="two processes"))],
    # The JNI tax across processes (the JMH row over the native suite's).
    dict(kind="rows", a=("jmh", "pinned_view", 1), b=("native", "native_pinned", 1),
         at_most=1.15, sizes=EVERY, note="two processes"),
    # The FFM binding, on its JDK 22+ (the FFM suite's own rows and pairs).
    _speed(("ffm_pinned_view", 1), GET, at_least=2, sizes=[HOT_KEY_VALUE_BYTES], group="ffm"),
    _speed(("ffm_pinned_view", 1), PV, at_least=1.2, sizes=[HOT_KEY_VALUE_BYTES], group="ffm"),
    _speed(("ffm_pinned_view", 1), PV, at_least=1, sizes=EVERY, group="ffm",
           exclude=[HOT_KEY_VALUE_BYTES], note="no slower than the JNI view"),
    _time(("ffm_pinned_view", 1), ("native_pinned_loop", 1), at_most=1.10, sizes=EVERY,
          group="ffm"),
    # The FFM decoded get (8-byte counters): against the JNI one and
    # rocksdbjni's get + decode.
    _speed(("ffm_long_decode_on_read", 1), ("long_decode_on_read", 1), at_least=1, sizes=[8],
           group="ffm", note="no slower than the JNI decoded get"),
    _speed(("ffm_long_decode_on_read", 1), ("long_rocksdbjni_get_shifts", 1), at_least=1,
           sizes=[8], group="ffm"),
    # The FFM cursor per entry (FfmPairedGets' ffm_cursor_ sides, 1,000 keys):
    # against the same scan in C++ inside the JVM, and no slower than the JNI
    # cursor.
    *[c for shape in ("stream", "range") for c in (
        _time((f"ffm_cursor_{shape}", 1), (f"native_cursor_loop_{shape}", 1), at_most=1.10,
              sizes=[128, 4 * KIB], group="ffm", note="in-process control"),
        _speed((f"ffm_cursor_{shape}", 1), (f"cursor_{shape}_in_place", 1), at_least=1,
               sizes=[128, 4 * KIB], group="ffm", note="no slower than the JNI cursor"))],
    # Copies and allocations (JMH rows).
    dict(kind="value", field="alloc_bytes_per_op", below=16, rows="allocation-free",
         sizes=EVERY),
    dict(kind="value", field="bytes_copied_per_op", equal=0, rows=["pinned_view"],
         sizes=EVERY),
    # Scans, paired (PairedGets' cursor_ sides: ScanBenchmark's shapes, 1,000
    # keys), per entry: the Java cursor against the same scan in C++ inside the
    # JVM, and against rocksdbjni's RocksIterator (byte[] and direct).
    *[c for shape in ("stream", "range") for c in (
        _time((f"cursor_{shape}", 1), (f"native_cursor_loop_{shape}", 1), at_most=1.10,
              sizes=[128, 4 * KIB], note="in-process control"),
        _speed((f"cursor_{shape}", 1), (f"rocksdbjni_iterator_{shape}", 1), at_least=2,
               sizes=[128, 4 * KIB]),
        _speed((f"cursor_{shape}", 1), (f"rocksdbjni_iterator_direct_{shape}", 1),
               at_least=1.6, sizes=[128, 4 * KIB]))],
    # Scans (ScanBenchmark: rows "<method>@stream" and "<method>@range", per
    # entry, one run), at 1,000 and 100,000 keys.
    *[c for k in SCAN_KEYS for c in (
        _rows_speed("cursor@stream", "rocksdbjni_iterator@stream", 2.5, [128], k),
        _rows_speed("cursor@stream", "rocksdbjni_iterator@stream", 3, [4 * KIB], k),
        _rows_speed("cursor@stream", "rocksdbjni_iterator_direct@stream", 1.6, [128], k),
        _rows_speed("cursor@stream", "rocksdbjni_iterator_direct@stream", 2, [4 * KIB], k),
        _rows_speed("cursor@range", "rocksdbjni_iterator@range", 2, EVERY, k),
        *[dict(kind="rows", a=("jmh", f"cursor@{shape}", 1),
               b=("jmh", f"native_cursor_loop@{shape}", 1), at_most=1.15, sizes=EVERY,
               keys=k, note=f"in-process control, {k:,} keys")
          for shape in ("stream", "range")])],
    dict(kind="value", field="bytes_copied_per_op", equal=0,
         rows=["cursor@stream", "cursor@range"], sizes=EVERY),
    dict(kind="value", field="alloc_bytes_per_op", below=1,
         rows=["cursor@stream", "cursor@range"], sizes=EVERY),
    # The FFM cursor (FfmScanBenchmark, the FFM suite's JVM): no allocation
    # per entry either (issue 31).
    dict(kind="value", field="alloc_bytes_per_op", below=1,
         rows=["ffm_cursor@stream", "ffm_cursor@range"], sizes=EVERY),
    # Recent writes (MemtableBenchmark: rows "<method>@hit@<lsm shape>"), the
    # pinned view with pin_memtable over today's, every value in the memtable.
    _rows_speed("pinned_view_pin_memtable@hit@memtable", "pinned_view@hit@memtable", 3,
                [64 * KIB], MEMTABLE_KEYS),
    _rows_speed("pinned_view_pin_memtable@hit@memtable", "pinned_view@hit@memtable", 1.3,
                [4 * KIB], MEMTABLE_KEYS),
    dict(kind="value", field="bytes_copied_per_op", equal=0,
         rows=["pinned_view_pin_memtable@hit@memtable"], sizes=EVERY, keys=MEMTABLE_KEYS),
    # Get and decode, paired (PairedGets' long_ rows: an 8-byte big-endian
    # long): decode on read against the in-JVM C++ loop (which reads without
    # decoding) and rocksdbjni's two fastest get + decode.
    _time(("long_decode_on_read", 1), ("native_pinned_loop", 1), at_most=1.10, sizes=[8],
          note="the C++ loop does not decode"),
    _speed(("long_decode_on_read", 1), ("long_rocksdbjni_get_direct", 1), at_least=1,
           sizes=[8]),
    _speed(("long_decode_on_read", 1), ("long_rocksdbjni_get_wrap", 1), at_least=1, sizes=[8]),
    # The same for a 64-byte UTF-8 name, against the C++ loop that makes each
    # String through JNI (NewStringUTF, a call into the VM), and a 1 KiB Avro
    # event, against the C++ loop whose values (64 per crossing, each copied
    # into a slot as decode on read copies it) Java decodes with the same reader.
    _time(("utf8_decode_on_read", 1), ("native_utf8_loop", 1), at_most=1.10, sizes=[64],
          note="the C++ loop makes the String too"),
    _time(("avro_decode_on_read", 1), ("native_avro_loop", 1), at_most=1.10, sizes=[KIB],
          note="the C++ loop's values decoded by the same reader"),
    *[_speed((f"{s}_decode_on_read", 1), (f"{s}_{peer}", 1), at_least=1, sizes=[size])
      for s, size in (("utf8", 64), ("avro", KIB))
      for peer in ("rocksdbjni_get_direct", "rocksdbjni_get")],
    # Get and decode (DecodeBenchmark): decode on read against rocksdbjni's
    # get and the fastest decode of the same value, both residencies.
    *[c for res in ("block_cache", "memtable") for c in (
        dict(kind="rows", measure="speed", a=("jmh", "long_decode_on_read", 1),
             b=[("jmh", p, 1) for p in DECODE_PEERS["long"]], at_least=1.3, sizes=[8],
             residency=res, note=f"the fastest decode, {res}"),
        dict(kind="rows", measure="speed", a=("jmh", "avro_decode_on_read", 1),
             b=[("jmh", p, 1) for p in DECODE_PEERS["avro"]], at_least=1.15, sizes=[KIB],
             residency=res, note=f"the fastest decode, {res}"),
        # Against get(byte[]), the form that allocates the value.
        dict(kind="rows", measure="alloc_saved", a=("jmh", "avro_decode_on_read", 1),
             b=("jmh", "avro_rocksdbjni_get", 1), at_least=KIB, sizes=[KIB],
             residency=res, note=f"bytes per read, the value's size, {res}"),
        dict(kind="value", field="alloc_bytes_per_op", below=0.5,
             rows=["long_decode_on_read", "rocksjava_long_decode_on_read"], sizes=[8],
             residency=res))],
    # Controls: a side against its own code written twice must measure 1.
    _speed(PV, ("pinned_view_twin", 1), equal=1, sizes=EVERY, note="control"),
    _speed(GET, ("rocksdbjni_get_twin", 1), equal=1, sizes=EVERY, note="control"),
    _speed(("ffm_pinned_view", 1), ("ffm_pinned_view_twin", 1), equal=1, sizes=EVERY,
           group="ffm", note="control"),
    _speed(PV, ("pinned_view_twin", 1), equal=1, sizes=EVERY, suite="native",
           note="control"),
    # pinget's C++ cursor per entry over RocksDB's own iterator with pin_data
    # (pinget_paired's cursor_ and native_iterator_ sides, 1,000 keys): the
    # bare one, which pins all it reads for its life, and one remade at the
    # cursor's kRecycleBytes, as the cursor is to bound what it pins.
    *[_time((f"cursor_{shape}", 1), (f"native_iterator{bound}_{shape}", 1), at_most=1.05,
            sizes=[128, 4 * KIB], suite="native", note=note)
      for shape in ("stream", "range")
      for bound, note in (("", "RocksDB's iterator, pin_data"),
                          ("_bounded", "the same, remade every 4 MiB read"))],
    # pinget's C++ wrapper over RocksDB's own Get, on one database (issue 31).
    _speed(("pinned_view_borrowed", 1), ("native_pinned", 1), at_least=0.98, sizes=EVERY,
           suite="native", note="the same database"),
    # The method's own precision (issue 26): the headline pairs and the
    # control, at 99.9%.
    dict(kind="precision", a=PV, b=GET, half_width=0.10, sizes=[128, 64 * KIB]),
    # Against the peer's fastest get, whose speed is not bimodal at 64 KiB
    # (issue 31).
    dict(kind="precision", a=PV, b=("rocksdbjni_get_direct", 1), half_width=0.25,
         sizes=[64 * KIB]),
    dict(kind="precision", a=PV, b=("pinned_view_twin", 1), half_width=0.03, sizes=EVERY),
]


def size_label(n, group="main"):
    if group == "ffm" and n == HOT_KEY_VALUE_BYTES:
        return "hot key (26 B)"
    for unit, name in ((1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= unit and n % unit == 0:
            return f"{n // unit} {name}"
    return f"{n} B"


def _side(s):
    row, batch = s
    return f"`{row}`" + (f" batch {batch}" if batch > 1 else "")


def _threshold(c):
    if "at_least" in c:
        return f"≥ {_num(c['at_least'])}"
    if "at_most" in c:
        return f"≤ {_num(c['at_most'])}"
    return "= 1"


def _num(x):
    return f"{x:g}"


def text(c):
    """The claim in words, without its size."""
    note = f" ({c['note']})" if c.get("note") else ""
    if c["kind"] == "paired":
        if c["measure"] == "speed":
            what = f"{_side(c['a'])} speed / {_side(c['b'])} {_threshold(c)}"
        else:
            what = f"{_side(c['a'])} time / {_side(c['b'])} {_threshold(c)}"
        if c.get("suite") == "native":
            what = "C++: " + what
        elif c.get("group") == "ffm":
            what = "FFM suite: " + what
        return what + note
    if c["kind"] == "precision":
        return (f"precision: {_side(c['a'])} / {_side(c['b'])}: 99.9% half-width "
                f"≤ {c['half_width']:.0%} of the ratio")
    if c["kind"] == "rows":
        sa, ra, ba = c["a"]
        if isinstance(c["b"], list):
            b = "the fastest of " + ", ".join(f"`{r}`" for _, r, _ in c["b"])
        else:
            sb, rb, bb = c["b"]
            b = f"{sb} {_side((rb, bb))}"
        if c.get("measure") == "alloc_saved":
            return (f"{sa} {_side((ra, ba))} allocates {_threshold(c)} bytes less than "
                    f"{b}{note}")
        measure = c.get("measure", "time")
        return f"{sa} {_side((ra, ba))} {measure} / {b} {_threshold(c)}{note}"
    rows = "allocation-free rows (docs/strategies.md)" if c["rows"] == "allocation-free" \
        else ", ".join(f"`{r}`" for r in c["rows"])
    bound = f"< {_num(c['below'])}" if "below" in c else f"= {_num(c['equal'])}"
    keys = f" ({c['keys']:,} keys)" if c.get("keys") else ""
    residency = f" ({c['residency']})" if c.get("residency") else ""
    return f"{rows}: {c['field']} {bound}{keys}{residency}"


def judge_interval(c, value, low, high):
    """The verdict of a ratio claim on its interval [low, high]."""
    if value is None:
        return NOT_MEASURED
    lo = value if low is None else low
    hi = value if high is None else high
    if "equal" in c:
        return MET if lo <= c["equal"] <= hi else NOT_MET
    if "at_least" in c:
        t = c["at_least"]
        return MET if lo >= t else NOT_MET if hi < t else WITHIN
    t = c["at_most"]
    return MET if hi <= t else NOT_MET if lo > t else WITHIN


def _sizes(c, measured):
    if c["sizes"] == EVERY:
        out = sorted(measured)
    elif c["sizes"] == FROM_4K:
        out = sorted(n for n in measured if n >= 4 * KIB)
    else:
        out = list(c["sizes"])
    return [n for n in out if n not in c.get("exclude", [])]


def evaluate(rows, comparisons, table=None, all_rows=None):
    """Every claim at every size it names: a list of dicts with text, size
    (label), source, value, low, high, pairs, unpaired (ratio and error of the
    same two JMH rows, for comparison), verdict. rows: the run's rows of its
    primary key count; a claim naming its key count reads all_rows (every key
    count; rows if not given) of that count."""
    table = strategies.load() if table is None else table
    all_rows = rows if all_rows is None else all_rows
    grouped = {}
    for cmp in comparisons:
        key = (cmp["suite"], cmp["group"], cmp["a"], cmp["a_batch"], cmp["b"], cmp["b_batch"])
        grouped.setdefault(key, {}).setdefault(cmp["value_size"], []).append(cmp)
    out = []
    for c in CLAIMS:
        group = c.get("group", "main")
        suite = c.get("suite", "jmh")
        if c["kind"] in ("paired", "precision"):
            key = (suite, group, c["a"][0], c["a"][1], c["b"][0], c["b"][1])
            forks_by_size = grouped.get(key, {})
            for n in _sizes(c, forks_by_size):
                out.append(_paired_result(c, n, group, suite, forks_by_size.get(n), rows))
        elif c["kind"] == "rows":
            out += _rows_results(c, group, rows, all_rows)
        else:
            names = sorted(strategies.allocation_free(table)) if c["rows"] == "allocation-free" \
                else c["rows"]
            source = [r for r in all_rows if r["keys"] == c["keys"]] if c.get("keys") \
                else rows
            residency = c.get("residency", "block_cache")
            for group in sorted({r["group"] for r in source}):
                out += _value_results(c, names, group, [
                    r for r in source if r["suite"] == "jmh" and r["group"] == group
                    and r["residency"] == residency and r["batch"] == 1])
    return out


def _rows_results(c, group, rows, all_rows):
    """A claim on two rows of one run: a's speed (or time) over b's, errors in
    quadrature, or the bytes per operation a allocates less than b. b may be a
    list of rows: the fastest of those measured is taken."""
    residency = c.get("residency", "block_cache")
    main = [r for r in (all_rows if c.get("keys") else rows) if r["group"] == group
            and (not c.get("keys") or r["keys"] == c["keys"])]
    sa, ra, ba = c["a"]
    peers = c["b"] if isinstance(c["b"], list) else [c["b"]]

    def sizes_of(suite, row, batch):
        return {r["value_size"] for r in main if r["residency"] == residency
                and (r["suite"], r["strategy"], r["batch"]) == (suite, row, batch)}
    measured = sizes_of(sa, ra, ba) & set().union(*(sizes_of(*p) for p in peers))
    out = []
    for n in _sizes(c, measured):
        a = find(main, sa, ra, n, residency, ba)
        found = [r for r in (find(main, s, row, n, residency, b) for s, row, b in peers) if r]
        b = max(found, key=lambda r: r["ops_per_s"]) if found else None
        lo = hi = None
        if c.get("measure") == "alloc_saved":
            q = None if a is None or b is None or a["alloc_bytes_per_op"] is None \
                or b["alloc_bytes_per_op"] is None \
                else b["alloc_bytes_per_op"] - a["alloc_bytes_per_op"]
        else:
            # Speed: a's throughput over b's; time (latency): b's over a's.
            q, e = stats.ratio(a, b) if c.get("measure") == "speed" else stats.ratio(b, a)
            if q is not None and e is not None:
                lo, hi = q - e, q + e
        res = {"text": text(c), "size": size_label(n, group), "source": "rows", "value": q,
               "low": lo, "high": hi, "pairs": None, "unpaired": None,
               "verdict": judge_interval(c, q, lo, hi)}
        if len(peers) > 1 and b is not None:
            res["peer"] = b["strategy"]
        out.append(res)
    return out


def _value_results(c, names, group, rows):
    out = []
    measured = {r["value_size"] for r in rows if r["strategy"] in names
                and r[c["field"]] is not None}
    for n in _sizes(c, measured):
        vals = [(r["strategy"], r[c["field"]]) for r in rows
                if r["value_size"] == n and r["strategy"] in names and r[c["field"]] is not None]
        label = ("FFM suite: " if group == "ffm" else "") + text(c)
        if not vals:
            out.append({"text": label, "size": size_label(n, group), "source": "rows",
                        "value": None, "verdict": NOT_MEASURED})
            continue
        bad = [s for s, v in vals if not (v < c["below"] if "below" in c else v == c["equal"])]
        out.append({"text": label, "size": size_label(n, group), "source": "rows",
                    "value": max(v for _, v in vals), "rows": len(vals), "failing": bad,
                    "verdict": NOT_MET if bad else MET})
    return out


def _paired_result(c, n, group, suite, forks, rows):
    res = {"text": text(c), "size": size_label(n, group), "source": "paired", "value": None,
           "low": None, "high": None, "pairs": None, "unpaired": None, "verdict": NOT_MEASURED}
    if c["kind"] == "paired" and suite == "jmh":
        # The same two sides as unpaired JMH rows, if the run has them: the
        # figure this claim would have rested on before.
        main = [r for r in rows if r["group"] == group]
        ra, rb = find(main, "jmh", c["a"][0], n, batch=c["a"][1]), \
            find(main, "jmh", c["b"][0], n, batch=c["b"][1])
        q, e = stats.ratio(ra, rb) if c["measure"] == "speed" else stats.ratio(rb, ra)
        if q is not None:
            res["unpaired"] = (q, e)
    if not forks:
        return res
    p = stats.paired(forks, invert=c.get("measure") == "time")
    res.update(value=p["median"], low=p["low"], high=p["high"], pairs=p["n"], stats=p)
    if c["kind"] == "precision":
        hw = stats.half_width(p)
        res["value"] = hw
        res["verdict"] = NOT_MEASURED if hw is None else MET if hw <= c["half_width"] else NOT_MET
    elif p["low"] is None:
        # Too few forks (or pairs) for a 99.9% interval: measured, not judged.
        res["verdict"] = NOT_MEASURED
    else:
        res["verdict"] = judge_interval(c, p["median"], p["low"], p["high"])
    return res
