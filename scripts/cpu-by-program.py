#!/usr/bin/env python3
"""Runs a command and prints the CPU seconds every program on the machine spent while it
ran, by program name (/proc/PID/comm), sampled every 200 ms: where make test's CPU goes.
A process that lives under 200 ms may be missed; one alive at the start counts only what
it spent after.
    python3 scripts/cpu-by-program.py make test
"""
import collections
import os
import subprocess
import sys
import time

if len(sys.argv) < 2:
    sys.exit("usage: cpu-by-program.py COMMAND [ARG...]")
hz = os.sysconf("SC_CLK_TCK")
base, last = {}, {}


def sample(first):
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        ticks = int(fields[11]) + int(fields[12])  # utime + stime
        key = (pid, fields[19])  # a pid with its start time: pids are reused
        base.setdefault(key, ticks if first else 0)
        last[key] = (name, ticks)


sample(True)
child = subprocess.Popen(sys.argv[1:])
while child.poll() is None:
    sample(False)
    time.sleep(0.2)
by_name = collections.Counter()
for key, (name, ticks) in last.items():
    by_name[name] += (ticks - base[key]) / hz
print(f"{sum(by_name.values()):9.1f} CPU-s in all, exit {child.returncode}", file=sys.stderr)
for name, secs in [(n, s) for n, s in by_name.most_common(30) if s >= 0.1]:
    print(f"{secs:9.1f} {name}", file=sys.stderr)
sys.exit(child.returncode)
