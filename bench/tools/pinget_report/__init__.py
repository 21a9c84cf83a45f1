"""pinget's benchmark report: bench/tools/summarize.py's package.

parse       raw runner output (Google Benchmark, JMH, paired JSON) into rows
stats       errors, ratios and the paired intervals
strategies  docs/strategies.md's table: expected copies and allocations
claims      every target the report judges, in one list, and the verdicts
charts      the SVG charts
sections    the report's sections
report      summary*.json and report.md for one results folder
"""
