#!/usr/bin/env python3
"""bench/tools/env.py OUT PROFILE: writes OUT/env.json for summarize.py.

The machine, the JVM, the engines as the run loaded them (OUT/versions.json,
written by io.pinget.bench.Versions) and the exact commands (OUT/commands.txt).
"""
import json
import os
import subprocess
import sys
from datetime import datetime, timezone


def main(out, profile):
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                  if line.startswith("model name")), "unknown")
    with open(os.path.join(out, "versions.json")) as f:
        versions = json.load(f)
    jvm = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr
    with open(os.path.join(out, "commands.txt")) as f:
        commands = f.read().splitlines()
    env = {"generated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
           "machine": {"cpus": os.cpu_count(), "model": model},
           "rocksdb": versions["pinget_rocksdb"],
           "jvm": jvm.splitlines()[0] if jvm else None,
           "rocksdbjni": versions["rocksdbjni"], "profile": profile,
           "commands": commands}
    with open(os.path.join(out, "env.json"), "w") as f:
        json.dump(env, f, indent=1)


if __name__ == "__main__":
    main(*sys.argv[1:3])
