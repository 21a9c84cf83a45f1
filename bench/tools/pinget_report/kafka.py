"""The "Kafka Streams" section: bench/jmh-kafka's rows (kafka-*.json, JMH
throughput with -prof gc) per operation and size, Kafka's default store
beside pinget's bytes supplier and typed store, each inside Kafka's store
stack, and the issue's targets judged on the ratio's interval.

    python3 -m pinget_report.kafka kafka-stores.json ...   (from bench/tools)
"""
import json
import math
import os
import sys

from .sections import fmt

STORES = ["kafka", "pinget_bytes", "pinget_typed"]
LABELS = {"kafka": "Kafka's store (rocksdbjni)", "pinget_bytes": "pinget bytes supplier",
          "pinget_typed": "pinget typed store"}
# (operation, decode, size, range length or None, store, wanted speed over Kafka's store), each
# judged for both decodes where the operation has them.
TARGETS = [(op, decode, size, length, "pinget_typed", want)
           for op, size, length, want in [("get", 4096, None, 1.5), ("get", 65536, None, 4.0),
                                          ("range", 4096, 1000, 2.0)]
           for decode in ("field", "whole")] + [("record", "whole", 1024, None, "pinget_typed", 1.3)]
DECODES = {"whole": "whole value", "field": "one field"}


def rows(paths):
    """{(operation, decode, value size, range length, keys, store): row} from JMH files."""
    out = {}
    for path in paths:
        with open(path) as f:
            for b in json.load(f):
                p = b.get("params", {})
                pm = b["primaryMetric"]
                ops, err = float(pm["score"]), float(pm["scoreError"])  # ops/s
                alloc = b.get("secondaryMetrics", {}).get("gc.alloc.rate.norm")
                op = b["benchmark"].rsplit(".", 1)[1]
                length = int(p["rangeLength"]) if op == "range" else None
                key = (op, p.get("decode", "whole"), int(p["valueSize"]), length,
                       int(p.get("keys", 1000)))
                out[key + (p["store"],)] = {
                    "ops": ops, "err": None if math.isnan(err) else err,
                    "alloc": None if alloc is None else float(alloc["score"])}
    return out


def ratio(a, b):
    """b's speed over a's, with the half-width that the two rows' errors give
    (their relative errors added in quadrature); None where one is missing."""
    if a is None or b is None or not a["ops"]:
        return None, None
    r = b["ops"] / a["ops"]
    if a["err"] is None or b["err"] is None:
        return r, None
    return r, r * math.hypot(a["err"] / a["ops"], b["err"] / b["ops"])


def verdict(r, hw, want):
    if r is None:
        return "not measured"
    if hw is None:
        return "no error estimate"
    if r - hw >= want:
        return "met"
    if r + hw < want:
        return "not met"
    return "within error"


def section(paths):
    found = rows(paths)
    if not found:
        return []
    lines = ["Through Kafka's own store stack (what an application calls), one JVM, the same "
             "data in each store: Kafka's default persistent store, pinget's bytes supplier under "
             "Kafka's builder, and pinget's typed store (bench/jmh-kafka). Each read decodes its "
             "value, either all of it (a checksum of its 8-byte words: a full deserialization) or "
             "one field (its first 8 bytes: a projection), the byte[] paths from the array "
             "Kafka's deserializer returns, the typed store's decoder from the pinned bytes. "
             "Caching off, logging on; Kafka's store options on Kafka's side, "
             "`PingetStores.kafkaOptions()` on pinget's (level compaction where Kafka's is "
             "universal). ns per operation (per record for `record`) ± JMH's 99.9% error, bytes "
             "allocated per operation, and each pinget store's speed over Kafka's.", "",
             "| operation | decode | value × keys | " + " | ".join(LABELS[s] for s in STORES)
             + " | bytes: speed | typed: speed |",
             "|---|---|---|" + "---|" * (len(STORES) + 2)]
    keys = sorted({k[:5] for k in found}, key=lambda k: (k[0], k[3] or 0, k[1], k[2], k[4]))
    for row in keys:
        op, decode, size, length, n = row
        cells = []
        for s in STORES:
            r = found.get(row + (s,))
            if r is None:
                cells.append("n/a")
                continue
            ns = 1e9 / r["ops"]
            err = "" if r["err"] is None else f" ± {fmt(ns * r['err'] / r['ops'], 1)}"
            alloc = "" if r["alloc"] is None else f", {fmt(r['alloc'], 0)} B"
            cells.append(f"{fmt(ns, 1)}{err}{alloc}")
        speeds = []
        for s in ("pinget_bytes", "pinget_typed"):
            r, hw = ratio(found.get(row + ("kafka",)), found.get(row + (s,)))
            speeds.append("n/a" if r is None else
                          f"{fmt(r)}×" + ("" if hw is None else f" ± {fmt(hw)}"))
        name = op if length is None else f"{op} of {length}"
        shown = "—" if op == "getMissing" else DECODES.get(decode, decode)
        lines.append(f"| {name} | {shown} | {size} B × {n:,} | " + " | ".join(cells + speeds) + " |")
    lines += ["", "| target | measured | verdict |", "|---|---|---|"]
    for op, decode, size, length, store, want in TARGETS:
        counts = sorted({k[4] for k in found if k[:4] == (op, decode, size, length)}) or [None]
        for n in counts:  # judged at every key count measured (in the cache, or larger)
            row = (op, decode, size, length, n)
            r, hw = ratio(found.get(row + ("kafka",)), found.get(row + (store,)))
            name = op if length is None else f"{op} of {length}"
            got = "n/a" if r is None else f"{fmt(r)}×" + ("" if hw is None else f" ± {fmt(hw)}")
            where = "" if n is None else f", {n:,} keys"
            lines.append(f"| {LABELS[store]} `{name}` ({DECODES[decode]}) at {size} B{where} ≥ "
                         f"{want}× Kafka's store | {got} | {verdict(r, hw, want)} |")
    return lines


def files(folder):
    return [os.path.join(folder, n) for n in sorted(os.listdir(folder))
            if n.startswith("kafka-") and n.endswith(".json")]


if __name__ == "__main__":
    print("\n".join(section(sys.argv[1:])))
