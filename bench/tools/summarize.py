#!/usr/bin/env python3
"""bench/tools/summarize.py RESULTS [--no-charts]: summary*.json, report.md and
charts for one bench/results folder (bench/tools/pinget_report/report.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pinget_report.report import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
