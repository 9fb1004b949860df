#!/usr/bin/env python3
"""Does the CPU a process runs on set its speed? Per-process medians pinned to CPU 0, CPU 1, or free.

Runs a release test bundle N times per mode (`taskset -c 0`, `taskset -c 1`, unpinned), rotating the
modes, and prints per warm wall-clock series the median and, on the log scale, the spread of
per-process medians: their standard deviation and that of successive differences divided by √2
(the part an ABBA round, which pairs neighbouring processes, cannot cancel). Equal spreads in all
three modes mean pinning is no cure: the process, not the CPU, sets the speed.

Usage: Scripts/process-pinning.py PACKAGE_DIR N FILTER [ITERATIONS]
  PACKAGE_DIR holds .build/release/*PackageTests.xctest (swift build -c release --build-tests).
"""
import collections, glob, json, math, os, statistics, subprocess, sys, tempfile

root, n, filt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
iterations = sys.argv[4] if len(sys.argv) > 4 else "400"
bundle = glob.glob(os.path.join(root, ".build/release/*PackageTests.xctest"))[0]
modes = {"cpu0": ["taskset", "-c", "0"], "cpu1": ["taskset", "-c", "1"], "free": []}
medians = {m: collections.defaultdict(list) for m in modes}
for k in range(n):
    for mode in (list(modes) if k % 2 == 0 else list(modes)[::-1]):
        folder = tempfile.mkdtemp(prefix="perfkit-pin-")
        env = dict(os.environ, PERFKIT_MODE="measure", PERFKIT_RESULTS_DIR=folder, PERFKIT_ITERATIONS=iterations)
        subprocess.run(modes[mode] + [bundle, "--testing-library", "swift-testing", "--no-parallel", "--filter", filt],
                       cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for path in glob.glob(folder + "/*.json"):
            for m in json.load(open(path))["test"]["measurements"]:
                for s in m["series"]:
                    if s["phase"] == "warm" and s["metric"]["name"] == "wallClock" and len(s["values"]) >= 3:
                        medians[mode][(m["name"], s["arm"])].append(math.log(statistics.median(s["values"])))
            os.remove(path)
        os.rmdir(folder)

print(f"{n} processes per mode, filter {filt}, {iterations} samples a process, warm wall clock, log scale (0.03 ≈ 3%)")
for mode in modes:
    for key in sorted(medians[mode]):
        xs = medians[mode][key]
        steps = [b - a for a, b in zip(xs, xs[1:])]
        print(f"{mode:4} {key[0]} [{key[1]}]: median {math.exp(statistics.median(xs)) / 1e3:.1f} µs, "
              f"sd {statistics.stdev(xs):.3f}, successive sd/√2 {statistics.stdev(steps) / math.sqrt(2):.3f}")
