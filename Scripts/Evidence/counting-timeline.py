#!/usr/bin/env python3
"""Where a counting run's time goes: runs COMMAND (a `perfkit run --counts-only`, an `abba --counts`) and watches its
process folders (/tmp/perfkit-counts-*/pass-*), printing each counting process's start, end and duration in seconds
from the first one's start, then the sum of all processes and the first processes' sum (their share of a 2-core run).
A folder named pass-TTTTT-0 is test T's first process; -11 a check; -0-trial a placement trial; -11-N placement N.
usage: counting-timeline.py COMMAND [ARG...]   (its output goes to counting-timeline.log)"""
import glob, os, subprocess, sys, time

if len(sys.argv) < 2:
    sys.exit(__doc__)
seen, t0 = {}, None
with open("counting-timeline.log", "w") as log:
    child = subprocess.Popen(sys.argv[1:], stdout=log, stderr=subprocess.STDOUT)
    while True:
        done = child.poll() is not None
        for folder in glob.glob("/tmp/perfkit-counts-*/pass-*"):
            now = time.time()
            t0 = t0 or now
            try:
                modified = os.path.getmtime(folder + "/valgrind.log")
            except OSError:
                modified = None
            entry = seen.setdefault(folder, [now, None])
            if modified:
                entry[1] = modified
        if done:
            break
        time.sleep(0.3)
rows = sorted(((os.path.basename(k), a - t0, (b or a) - t0) for k, (a, b) in seen.items()), key=lambda r: r[1])
for name, start, end in rows:
    print(f"{name:22} start {start:6.1f}  end {end:6.1f}  took {end - start:5.1f}")
total = sum(end - start for _, start, end in rows)
firsts = sum(end - start for name, start, end in rows if name.endswith("-0"))
print(f"{len(rows)} processes, {total:.1f} s in all; first processes {firsts:.1f} s ({firsts / 2:.1f} s on 2 cores); "
      f"exit {child.returncode}")
