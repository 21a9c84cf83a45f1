#!/usr/bin/env python3
"""Checks measured copy counts in summary*.json files against docs/strategies.md.

Every measured row that the table names (native suite rows: binding cpp; JMH
rows, the FFM suite's included: the other bindings, by row name) must have
the table's copies per get (per key in a batch), counted by pinget: P is
RocksDB's own copy, 0 for the block-cache residency, 1 for the memtable; a
row of the file residency adds F, its reads of file bytes (fractional: some
gets hit the small cache), and most of its gets must read the file. Bytes
copied must equal copies times the value size plus the file bytes. Where a
suite counts allocations, they must equal the table's; a JMH row whose table
entry says allocation-free must allocate under 16 bytes per get
(gc.alloc.rate.norm). Rows the table does not name (peers, controls without
counts) are skipped; table rows a run did not measure are not checked.
Exits non-zero on any mismatch, or when no row was checked.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pinget_report import strategies  # noqa: E402

ALLOC_LIMIT = 16.0  # bytes per get: docs/strategies.md, "allocation-free"
# Allocations are counted over a whole measurement, warm-up allocations that
# happen once (a buffer's first growth) included: those stay below this per get.
ALLOC_COUNT_TOLERANCE = 0.01


def check_row(r, entry):
    """The mismatches of one measured row against its table entry."""
    errors = []
    p = 1 if r["residency"] == "memtable" else 0
    want = entry["copies_of"](p)
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
        errors.append(f"{where}: {got} copies per get, docs/strategies.md says "
                      f"{entry['copies']} = {want} + F ({f_reads})")
    nbytes = r["bytes_copied_per_op"]
    want_bytes = want * r["value_size"] + f_bytes
    if nbytes is None or abs(nbytes - want_bytes) > 1e-3 * max(1, want_bytes):
        errors.append(f"{where}: {nbytes} bytes copied per get, expected {want_bytes}")
    allocs = r.get("allocs_per_op")
    want_allocs = entry["allocations_of"](p)
    if allocs is not None and abs(allocs - want_allocs) > ALLOC_COUNT_TOLERANCE:
        errors.append(f"{where}: {allocs} allocations per get, docs/strategies.md says "
                      f"{entry['allocations']} = {want_allocs}")
    a = r["alloc_bytes_per_op"]
    if r["suite"] == "jmh" and entry["allocation_free"] and (a is None or a >= ALLOC_LIMIT):
        errors.append(f"{where}: {a} bytes allocated per get; docs/strategies.md says "
                      f"allocation-free (< {ALLOC_LIMIT:g})")
    return errors


def check(summaries, table):
    """(rows checked, mismatches) over summary dicts."""
    errors, checked = [], 0
    for summary in summaries:
        for r in summary["results"]:
            entry = strategies.lookup(table, r["suite"], r["strategy"])
            if entry is None:
                continue
            errors += check_row(r, entry)
            checked += 1
    return checked, errors


def main(paths):
    table = strategies.load()
    summaries = []
    for path in paths:
        with open(path) as f:
            summaries.append(json.load(f))
    checked, errors = check(summaries, table)
    for e in errors:
        print(f"copy count mismatch: {e}", file=sys.stderr)
    print(f"check_counts: {checked} rows checked against docs/strategies.md, "
          f"{len(errors)} mismatches")
    return 1 if errors or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
