"""Errors, ratios and the paired intervals.

Two kinds of interval appear in the report:
- unpaired rows (JMH, the native suite): a 99.9% half-width from repetitions
  (JMH's scoreError; Student t over Google Benchmark's repetitions), ratios
  of two rows combining their relative errors in quadrature;
- paired comparisons: per pair of rounds one ratio; the median of those
  ratios with the distribution-free interval of a median (order statistics
  chosen by the binomial distribution, the interval a sign test inverts).
"""
import math

CONFIDENCE = 0.999

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


def ns_err(r):
    """(ns per op, its error) of a row."""
    if r is None:
        return None, None
    e = r["ops_per_s_error"]
    return r["ns_per_op"], None if e is None else r["ns_per_op"] * e / r["ops_per_s"]


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return None
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def _binom_cdf_half(k, n):
    """P(X <= k) for X ~ Binomial(n, 1/2)."""
    if k < 0:
        return 0.0
    return sum(math.comb(n, i) for i in range(min(k, n) + 1)) / 2 ** n


def median_interval(xs, confidence=CONFIDENCE):
    """(low, high, coverage) of a distribution-free interval for the median of
    the population xs were drawn from: the k-th smallest and k-th largest
    values, k as large as the binomial distribution allows for the requested
    confidence; coverage is the interval's exact confidence (at least the
    requested one). None when too few values give that confidence (at 99.9%,
    fewer than 11)."""
    s = sorted(xs)
    n = len(s)
    alpha = 1 - confidence
    k = 0
    while k + 1 <= n // 2 + 1 and _binom_cdf_half(k, n) <= alpha / 2:
        k += 1
    if k == 0:
        return None
    return s[k - 1], s[n - k], 1 - 2 * _binom_cdf_half(k - 1, n)


def spread(xs):
    """Interquartile range over the median: how much a side's rounds moved."""
    s = sorted(xs)
    n = len(s)
    if n < 4:
        return None
    q1, q3 = s[n // 4], s[(3 * n) // 4]
    m = median(s)
    return (q3 - q1) / m if m else None


# The clock of the paired verdicts: "cpu" is the measuring thread's CPU time
# plus the GC pauses that stopped it (the Java harness; the C++ one has no
# GC), per operation; "wall" the wall clock. Another process that takes the
# CPU adds to the wall clock and not to the thread's CPU time, so on a shared
# machine the wall clock's ratios are blurred and the CPU time's are not; on
# an idle one the two agree (the report shows both).
CLOCKS = {"cpu": ("cpu_a", "cpu_b"), "wall": ("ns_a", "ns_b")}
PRIMARY = "cpu"


def paired(comparisons, invert=False, confidence=CONFIDENCE, clock=PRIMARY):
    """Statistics of one comparison from its forks' rounds.

    The ratio of a pair is b's time per operation over a's: a's speed over
    b's (with invert: a's time over b's). With several forks, the estimate is
    the median of the forks' medians and the interval is over the forks; with
    one, the median of the pairs and the interval over the pairs. Returns a
    dict: n (pairs), unit, median, low, high, coverage, and for showing the
    noise: each side's median time
    per operation and spread, the unpaired ratio of the two medians with the
    interval that their own intervals give, the ratio of mean times, the
    medians of the pairs in which a and in which b ran first, per-fork
    medians, GC counts, the on-CPU share of the rounds (CPU time over wall
    time: below 1 when other processes took the CPU), and the same median and
    interval on the other clock ("other")."""
    ka, kb = CLOCKS[clock]
    ns_a, ns_b, first, forks, gcs_a, gcs_b = [], [], [], [], 0, 0
    on_cpu = []
    for c in comparisons:
        ns_a += c[ka]
        ns_b += c[kb]
        first += c["a_first"]
        gcs_a += sum(c.get("gcs_a", []))
        gcs_b += sum(c.get("gcs_b", []))
        rs = [_r(x, y, invert) for x, y in zip(c[ka], c[kb])]
        forks.append(median(rs))
        on_cpu += [cpu / wall for cpu, wall in zip(c["cpu_a"] + c["cpu_b"], c["ns_a"] + c["ns_b"])
                   if wall > 0]
    rs = [_r(x, y, invert) for x, y in zip(ns_a, ns_b)]
    # The unit of replication: JVMs (forks) when there are several, whose
    # ratios differ by more than their pairs' noise (JIT decisions, code and
    # data layout); else the pairs of the one process.
    units = forks if len(forks) > 1 else rs
    ci = median_interval(units, confidence)
    med_a, med_b = median(ns_a), median(ns_b)
    ia, ib = median_interval(ns_a, confidence), median_interval(ns_b, confidence)
    if ia and ib:
        lo, hi = (ia[0] / ib[1], ia[1] / ib[0]) if invert else (ib[0] / ia[1], ib[1] / ia[0])
    else:
        lo = hi = None
    mean_a, mean_b = sum(ns_a) / len(ns_a), sum(ns_b) / len(ns_b)
    a_first = [r for r, f in zip(rs, first) if f]
    b_first = [r for r, f in zip(rs, first) if not f]
    out = {
        "clock": clock, "n": len(rs), "unit": "fork" if len(forks) > 1 else "pair",
        "median": median(units),
        "low": ci[0] if ci else None, "high": ci[1] if ci else None,
        "coverage": ci[2] if ci else None,
        "ns_a": med_a, "ns_b": med_b, "spread_a": spread(ns_a), "spread_b": spread(ns_b),
        "spread_ratio": spread(rs),
        "unpaired": _r(med_a, med_b, invert), "unpaired_low": lo, "unpaired_high": hi,
        "mean_ratio": _r(mean_a, mean_b, invert),
        "a_first_median": median(a_first), "b_first_median": median(b_first),
        "fork_medians": forks, "gcs_a": gcs_a, "gcs_b": gcs_b,
        "on_cpu": median(on_cpu),
    }
    other = "wall" if clock == "cpu" else "cpu"
    oa, ob = CLOCKS[other]
    ofs = [[_r(x, y, invert) for x, y in zip(c[oa], c[ob])] for c in comparisons]
    ounits = [median(f) for f in ofs] if len(ofs) > 1 else ofs[0]
    oci = median_interval(ounits, confidence)
    out["other"] = {"clock": other, "median": median(ounits), "low": oci[0] if oci else None,
                    "high": oci[1] if oci else None}
    return out


def _r(ns_a, ns_b, invert):
    return ns_a / ns_b if invert else ns_b / ns_a


def side_times(comparisons, confidence=CONFIDENCE):
    """Each paired side's own CPU time per operation, over every comparison
    it is a side of: {(suite, group, row, batch, value_size): {median, low,
    high, n, unit}}. In the Java harness each comparison's fork is a JVM of
    its own, and a side's JVMs differ by more than their rounds do, so the
    units are the JVMs' medians; the C++ harness runs one process, whose
    rounds are the units. low and high are None when the units are too few
    for the confidence (median_interval)."""
    units = {}
    for c in comparisons:
        for side, cpu in (("a", "cpu_a"), ("b", "cpu_b")):
            key = (c["suite"], c["group"], c[side], c[side + "_batch"], c["value_size"])
            units.setdefault(key, []).append(c[cpu])
    out = {}
    for key, per_process in units.items():
        if key[0] == "jmh" and len(per_process) > 1:
            xs, unit = [median(r) for r in per_process], "fork"
        else:
            xs, unit = [x for r in per_process for x in r], "round"
        ci = median_interval(xs, confidence)
        out[key] = {"median": median(xs), "low": ci[0] if ci else None,
                    "high": ci[1] if ci else None, "n": len(xs), "unit": unit}
    return out


def half_width(p):
    """Half the paired interval's width, relative to the median."""
    if p.get("low") is None or not p.get("median"):
        return None
    return (p["high"] - p["low"]) / 2 / p["median"]


def mean_error(xs):
    """(mean, 99.9% Student t half-width) of samples; no error for fewer than 2."""
    n = len(xs)
    if n == 0:
        return None, None
    m = sum(xs) / n
    if n < 2:
        return m, None
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, t999(n - 1) * sd / math.sqrt(n)


def pool_rounds(rows):
    """Rows of repeated runs of the same benchmarks (JMH run again and again,
    so that slow changes of the machine's load fall on every row alike), one
    per (group, strategy, size, residency, batch, keys): the mean of every
    measured iteration of every run, its error Student's t over them, as JMH
    computes it over several forks. Rows measured once are kept as they are."""
    groups = {}
    for r in rows:
        key = (r["group"], r["strategy"], r["value_size"], r["residency"], r["batch"], r["keys"])
        groups.setdefault(key, []).append(r)
    out = []
    for rs in groups.values():
        if len(rs) == 1:
            out.append(rs[0])
            continue
        ops, err = mean_error([x for r in rs for x in (r.get("samples") or [r["ops_per_s"]])])
        row = dict(rs[0], ops_per_s=ops, ops_per_s_error=err, ns_per_op=1e9 / ops,
                   rounds=len(rs))
        row["cpu_samples"] = [x for r in rs for x in (r.get("cpu_samples") or [])] or None
        for field in ("alloc_bytes_per_op", "copies_per_op", "allocs_per_op"):
            xs = [r[field] for r in rs if r.get(field) is not None]
            row[field] = sum(xs) / len(xs) if xs else None
        out.append(row)
    return out
