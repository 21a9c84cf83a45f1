#!/usr/bin/env python3
"""Validates summary.json files against docs/design.md's schema
(bench/tools/summary.schema.json) and checks that no two rows measure the same
suite x strategy x size x residency x batch."""
import json
import os
import sys

import jsonschema


def main(paths):
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "summary.schema.json")) as f:
        schema = json.load(f)
    for path in paths:
        with open(path) as f:
            summary = json.load(f)
        jsonschema.validate(summary, schema)
        seen = set()
        for r in summary["results"]:
            key = (r["suite"], r["strategy"], r["value_size"], r["residency"], r["batch"])
            if key in seen:
                raise SystemExit(f"{path}: duplicate row {key}")
            seen.add(key)
        print(f"{path}: valid, {len(summary['results'])} rows")


if __name__ == "__main__":
    main(sys.argv[1:])
