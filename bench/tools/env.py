#!/usr/bin/env python3
"""bench/tools/env.py OUT PROFILE [FFM_JAVA]: writes OUT/env.json for summarize.py.

The machine and its load, the JVMs (java on the PATH; FFM_JAVA, the JDK 22+
of the FFM suite), the engines as the run loaded them (OUT/versions.json,
written by io.pinget.bench.Versions) and the exact commands (OUT/commands.txt).
"""
import json
import os
import subprocess
import sys
from datetime import datetime, timezone


def java_version(java):
    try:
        text = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    except OSError:
        return None
    return text.splitlines()[0] if text else None


def loads(out):
    path = os.path.join(out, "load.txt")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {name: float(value) for name, value in (line.split() for line in f if line.strip())}


def main(out, profile, ffm_java=None):
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                  if line.startswith("model name")), "unknown")
    with open(os.path.join(out, "versions.json")) as f:
        versions = json.load(f)
    with open(os.path.join(out, "commands.txt")) as f:
        commands = f.read().splitlines()
    env = {"generated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
           "machine": {"cpus": os.cpu_count(), "model": model},
           "rocksdb": versions["pinget_rocksdb"],
           "jvm": java_version("java"),
           "jvm_ffm": java_version(ffm_java) if ffm_java else None,
           # The 1-minute load average as each part ended (bench/run writes
           # load.txt): figures measured while other work ran are labelled.
           "load": loads(out),
           "rocksdbjni": versions["rocksdbjni"], "profile": profile,
           "commands": commands}
    with open(os.path.join(out, "env.json"), "w") as f:
        json.dump(env, f, indent=1)


if __name__ == "__main__":
    main(*sys.argv[1:4])
