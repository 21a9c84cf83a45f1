#!/usr/bin/env python3
"""Checks measured copy counts in summary.json files against DESIGN.md's table.

P is RocksDB's own copy: 0 for block-cache residency, 1 for memtable. Java
copies count the copy into Java memory; C++ (native suite) counts stop at the
caller's C++ memory. In the file residency copies also count F, the reads of
file bytes (file_reads_per_op, fractional: some gets hit the small cache), and
most gets must read the file. Rows that pinget does not count (peers,
controls) carry null and are skipped. Exits non-zero on any mismatch.
"""
import json
import sys

# strategy -> copies as a function of P, per suite
EXPECTED = {
    "native": {
        "string_copy": lambda p: 1,
        "buffer_copy": lambda p: p + 1,
        "pinned_view": lambda p: p,
    },
    "jmh": {
        "string_copy": lambda p: 2,
        "pinnable_copy": lambda p: p + 1,
        "buffer_copy": lambda p: p + 1,
        "buffer_copy_twin": lambda p: p + 1,
        "direct_copy": lambda p: p + 1,
        "pinned_view": lambda p: p,
        "pinned_view_per_call": lambda p: p,
        # The same strategies through a RocksJavaReader (same counts).
        "rocksjava_buffer_copy": lambda p: p + 1,
        "rocksjava_direct_copy": lambda p: p + 1,
        "rocksjava_pinned_view": lambda p: p,
        # The in-process controls: pinned_view made in C++ inside the JVM.
        "native_pinned_loop": lambda p: p,
        "native_batch_loop": lambda p: p,
    },
}
# Allocation-free strategies (DESIGN.md: 0 Java allocations); JMH's
# gc.alloc.rate.norm must stay under this many bytes per get.
ALLOC_FREE = {"buffer_copy", "direct_copy", "pinned_view", "rocksjava_buffer_copy",
              "rocksjava_direct_copy", "rocksjava_pinned_view", "native_pinned_loop",
              "native_batch_loop"}
ALLOC_LIMIT = 16.0


def main(paths):
    errors, checked = [], 0
    for path in paths:
        with open(path) as f:
            rows = json.load(f)["results"]
        for r in rows:
            expect = EXPECTED.get(r["suite"], {}).get(r["strategy"])
            if expect is None:
                continue
            p = 1 if r["residency"] == "memtable" else 0
            want = expect(p)
            where = (f"{r['suite']} {r['strategy']} {r['value_size']} B "
                     f"{r['residency']} batch {r['batch']}")
            f_reads = r.get("file_reads_per_op")
            f_bytes = r.get("file_bytes_per_op")
            if f_reads is None or f_bytes is None:
                errors.append(f"{where}: file reads not counted")
                f_reads, f_bytes = 0, 0
            elif r["residency"] == "file":
                if f_reads < 0.5 or f_bytes < f_reads * r["value_size"]:
                    errors.append(f"{where}: {f_reads} file reads ({f_bytes} B) per get; "
                                  "most gets of the file residency read a block")
            elif f_reads > 1e-3:
                errors.append(f"{where}: {f_reads} file reads per get in the "
                              f"{r['residency']} residency")
            got = r["copies_per_op"]
            if got is None or abs(got - want - f_reads) > 1e-6:
                errors.append(f"{where}: {got} copies per get, DESIGN.md says "
                              f"{want} + F ({f_reads})")
            nbytes = r["bytes_copied_per_op"]
            want_bytes = want * r["value_size"] + f_bytes
            if nbytes is None or abs(nbytes - want_bytes) > 1e-3 * max(1, want_bytes):
                errors.append(f"{where}: {nbytes} bytes copied per get, "
                              f"expected {want_bytes}")
            a = r["alloc_bytes_per_op"]
            if r["suite"] == "jmh" and r["strategy"] in ALLOC_FREE:
                if a is None or a >= ALLOC_LIMIT:
                    errors.append(f"{where}: {a} bytes allocated per get, "
                                  f"expected < {ALLOC_LIMIT}")
            checked += 1
    for e in errors:
        print(f"copy count mismatch: {e}", file=sys.stderr)
    print(f"check_counts: {checked} rows checked, {len(errors)} mismatches")
    return 1 if errors or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
