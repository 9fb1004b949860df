#!/usr/bin/env python3
"""Does splitting a suite into one process per test calm its per-process speed?

For N rounds, runs the measured tests matching 'Benchmarks/' once as one process (the whole suite)
and once as one process per test (IDs from `--list-tests`), every process skipping the exact-count
pass as `perfkit abba` processes after the first block do. Prints per wall-clock series, on the log
scale, the spread of successive per-process medians divided by √2 (what an ABBA round, pairing
neighbouring processes, cannot cancel) in both modes, and the medians over the series.

Usage: Scripts/process-split.py PACKAGE_DIR N
  PACKAGE_DIR holds .build/release/*PackageTests.xctest (swift build -c release --build-tests).
"""
import collections, glob, json, math, os, re, statistics, subprocess, sys, tempfile, time

root, n = sys.argv[1], int(sys.argv[2])
bundle = glob.glob(os.path.join(root, ".build/release/*PackageTests.xctest"))[0]
listing = subprocess.run([bundle, "--testing-library", "swift-testing", "--list-tests"], capture_output=True, text=True).stdout
tests = [t for t in listing.split("\n") if "Benchmarks/" in t]
medians = {mode: collections.defaultdict(list) for mode in ("suite", "per-test")}
seconds = collections.defaultdict(float)


def run(mode, pattern):
    folder = tempfile.mkdtemp(prefix="perfkit-split-")
    env = dict(os.environ, PERFKIT_MODE="measure", PERFKIT_RESULTS_DIR=folder, PERFKIT_EXACT_COUNTS="elsewhere")
    started = time.time()
    subprocess.run([bundle, "--testing-library", "swift-testing", "--no-parallel", "--filter", pattern],
                   cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds[mode] += time.time() - started
    for path in glob.glob(folder + "/*.json"):
        for m in json.load(open(path))["test"]["measurements"]:
            for s in m["series"]:
                if s["metric"]["name"] == "wallClock" and s["values"]:
                    medians[mode][(m["name"], s["arm"], s["phase"])].append(math.log(statistics.median(s["values"])))
        os.remove(path)
    os.rmdir(folder)


for _ in range(n):
    run("suite", "Benchmarks/")
    for test in tests:
        run("per-test", re.escape(test))
print(f"{n} rounds; seconds a round: " + ", ".join(f"{mode} {total / n:.1f}" for mode, total in seconds.items()))
spread = collections.defaultdict(list)
for key in sorted(medians["suite"]):
    line = []
    for mode in medians:
        xs = medians[mode][key]
        steps = [b - a for a, b in zip(xs, xs[1:])]
        value = statistics.stdev(steps) / math.sqrt(2) if len(steps) > 1 else float("nan")
        spread[mode].append(value)
        line.append(f"{mode} {value:.3f}")
    print(f"{key}: " + ", ".join(line))
print("median over series: " + ", ".join(f"{mode} {statistics.median(v):.3f}" for mode, v in spread.items()))
