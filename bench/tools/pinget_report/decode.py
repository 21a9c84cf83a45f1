"""The "Get and decode" section (DecodeBenchmark, FfmDecodeBenchmark): per
value shape, every way of reading and decoding it, ns per read (and CPU ns
where CpuCounters measured it), bytes allocated and copies per read. The
targets are claims.py's.

Run alone on JMH JSON files, it prints the section and the decode targets:

    python3 -m pinget_report.decode jmh-decode.json jmh-ffm-decode.json

(from bench/tools). With --rounds the files are repeated runs of the same
benchmarks, pooled per row (stats.pool_rounds)."""
import sys

from . import claims, parse, stats
from .sections import claims_section, fmt
from .stats import ns_err

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
# The FFM suite's rows (one JVM on the JDK 22+), per shape.
FFM_WAYS = [
    ("jdk25_{s}_rocksdbjni_get{x}", "rocksdbjni `get(byte[])` + the decode"),
    ("jdk25_{s}_decode_on_read", "pinget JNI decode on read"),
    ("ffm_{s}_decode_on_read", "pinget FFM decode on read (`FfmStore`)"),
]


def _cell(r):
    if r is None:
        return ["n/a"] * 3
    ns, e = ns_err(r)
    time = f"{fmt(ns, 0)} ± {fmt(e, 0)}"
    cpu, cpu_e = stats.mean_error(r.get("cpu_samples") or [])
    if cpu is not None and cpu_e is not None:
        time += f" (CPU {fmt(cpu, 0)} ± {fmt(cpu_e, 0)})"
    copies = "—" if r.get("copies_per_op") is None else fmt(r["copies_per_op"])
    return [time, fmt(r.get("alloc_bytes_per_op"), 1), copies]


def _table(rs, ways, size):
    header = ["| read and decode | " + " | ".join(
        f"{res}: ns | B | copies" for res in RESIDENCIES) + " |",
        "|---|" + "---:|---:|---:|" * len(RESIDENCIES)]
    body = []
    for name, label in ways:
        cells = [c for res in RESIDENCIES for c in _cell(parse.find(rs, "jmh", name, size, res))]
        if any(c != "n/a" for c in cells):
            body.append(f"| `{name}`: {label} | " + " | ".join(cells) + " |")
    return header + body + [""] if body else []


def decode_section(rows):
    """Markdown lines, or [] without the decode benchmarks' rows."""
    main = [r for r in rows if r["group"] == "main"]
    ffm = [r for r in rows if r["group"] == "ffm"]
    out = []
    for shape, size, what in SHAPES:
        t = _table(main, WAYS[shape], size)
        if t:
            out += [f"**{what}**", ""] + t
        x = "_shifts" if shape == "long" else ""
        t = _table(ffm, [(p.format(s=shape, x=x), label) for p, label in FFM_WAYS], size)
        if t:
            out += [f"**{what}, FFM suite** (one JVM on the JDK 22+)", ""] + t
    if not out:
        return []
    return ["Each value is read and decoded, and the decoded value returned to JMH; 1,000 "
            "keys in a shuffled order, one thread. ns per read ± 99.9% error (CPU ns per "
            "read where measured), bytes allocated per read (`gc.alloc.rate.norm`), value "
            "copies per read from pinget's counters (— where pinget does not count: "
            "rocksdbjni). The targets are in the Targets section.", ""] + out


def main(argv):
    rounds = "--rounds" in argv
    rows = []
    for path in (a for a in argv if a != "--rounds"):
        rows += parse.jmh_rows(path, "ffm" if "ffm" in path.rsplit("/", 1)[-1] else "main")
    if rounds:
        rows = stats.pool_rounds(rows)
    print("\n".join(decode_section(rows)))
    results = [r for r in claims.evaluate(rows, [])
               if "decode" in r["text"] and r["verdict"] != claims.NOT_MEASURED]
    print("\n".join(claims_section(results)))


if __name__ == "__main__":
    main(sys.argv[1:])
