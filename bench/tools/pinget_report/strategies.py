"""docs/strategies.md's table, the one place that says what every row copies
and allocates. check_counts.py and the report read it from there; nothing in
bench/tools keeps a copy of its counts or of its allocation-free list."""
import os
import re

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                     "docs", "strategies.md")
COLUMNS = ["binding", "row", "strategy", "copies", "allocations", "allocation-free"]
# The native suite's rows are the C++ API's; every other row name is unique
# among the Java bindings and the controls.
NATIVE_BINDING = "cpp"


class TableError(Exception):
    pass


def count_function(text, column="copies"):
    """A count column's cell (copies or allocations) as a function of P:
    'P + 1' -> lambda p: p + 1. Terms are P or a whole number, joined by +;
    anything else is refused, so that a new notation fails here loudly rather
    than being misread."""
    terms = [t.strip() for t in text.split("+")]
    ps, const = 0, 0
    for t in terms:
        if t == "P":
            ps += 1
        elif re.fullmatch(r"\d+", t):
            const += int(t)
        else:
            raise TableError(f"{column} {text!r}: terms are P or a number, joined by +")
    return lambda p: ps * p + const


def load(path=TABLE):
    """The table's rows: dicts with binding, row, strategy, copies (text),
    copies_of and allocations_of (functions of P), allocations (text),
    allocation_free (bool)."""
    with open(path) as f:
        lines = f.read().splitlines()
    start = None
    for i, line in enumerate(lines):
        cells = _cells(line)
        if cells == COLUMNS:
            start = i
            break
    if start is None:
        raise TableError(f"{path}: no table with the columns {' | '.join(COLUMNS)}")
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        c = _cells(line)
        if len(c) != len(COLUMNS):
            raise TableError(f"{path}: {line!r}: {len(c)} cells, want {len(COLUMNS)}")
        binding, row, strategy, copies, allocations, free = c
        if free not in ("yes", "no"):
            raise TableError(f"{path}: {row}: allocation-free is {free!r}, not yes or no")
        rows.append({"binding": binding, "row": row, "strategy": strategy, "copies": copies,
                     "copies_of": count_function(copies), "allocations": allocations,
                     "allocations_of": count_function(allocations, "allocations"),
                     "allocation_free": free == "yes"})
    seen = set()
    for r in rows:
        key = (r["binding"] == NATIVE_BINDING, r["row"])
        if key in seen:
            raise TableError(f"{path}: row {r['row']} twice")
        seen.add(key)
    return rows


def _cells(line):
    if not line.startswith("|"):
        return None
    return [c.strip() for c in line.strip().strip("|").split("|")]


# Scan shapes: a row measured as "cursor@stream" or "cursor@range" is the
# table's "cursor", counted per entry. (Other "@" variants, point-lookup and
# file-path profiles, are not table rows.)
SCAN_SHAPES = ("stream", "range")


def lookup(table, suite, row):
    """The table's entry for a measured row of summary.json: the native
    suite's rows are the C++ API's; JMH rows (JDK 17 and the FFM suite's JDK 25
    rows alike) are found by name among the other bindings. None if the table
    does not name it (peers, controls without counts)."""
    base, _, shape = row.partition("@")
    if shape in SCAN_SHAPES:
        row = base
    for t in table:
        if (suite == "native") == (t["binding"] == NATIVE_BINDING) and t["row"] == row:
            return t
    return None


def allocation_free(table):
    """Row names of the Java bindings that must not allocate (JMH rows)."""
    return {t["row"] for t in table if t["binding"] != NATIVE_BINDING and t["allocation_free"]}
