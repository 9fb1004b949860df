#!/usr/bin/env python3
"""Is a measured series' speed set per process? Between-process spread against within-process spread.

Runs a release test bundle N times per mode, alternating the modes: `plain`, and `thp` (jemalloc
asked to back its heap with transparent huge pages, MALLOC_CONF=thp:always,metadata_thp:always).
For each warm wall-clock series prints, on the log scale, the standard deviation of per-process
medians (between processes) and of the difference between the medians of a process's first and
second half of samples (within a process; divided by √2 to be the spread of one half's median).
A between-process spread far above the within-process one means each process lands in its own
speed state and only more processes (or pairing inside a process) can average it out.

Usage: Scripts/process-state.py PACKAGE_DIR N FILTER
  PACKAGE_DIR holds .build/release/*PackageTests.xctest (swift build -c release --build-tests).
"""
import collections, glob, json, math, os, statistics, subprocess, sys, tempfile

root, n, filt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
bundle = glob.glob(os.path.join(root, ".build/release/*PackageTests.xctest"))[0]
modes = {"plain": {}, "thp": {"MALLOC_CONF": "thp:always,metadata_thp:always"}}
medians = {m: collections.defaultdict(list) for m in modes}
halves = {m: collections.defaultdict(list) for m in modes}
for k in range(n):
    for mode in (list(modes) if k % 2 == 0 else list(modes)[::-1]):
        folder = tempfile.mkdtemp(prefix="perfkit-state-")
        env = dict(os.environ, PERFKIT_MODE="measure", PERFKIT_RESULTS_DIR=folder, **modes[mode])
        subprocess.run([bundle, "--testing-library", "swift-testing", "--no-parallel", "--filter", filt],
                       cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for path in glob.glob(folder + "/*.json"):
            test = json.load(open(path))["test"]
            for m in test["measurements"]:
                for s in m["series"]:
                    v = s["values"]
                    if s["phase"] == "warm" and s["metric"]["name"] == "wallClock" and len(v) >= 8:
                        key, h = (m["name"], s["arm"]), len(v) // 2
                        medians[mode][key].append(math.log(statistics.median(v)))
                        halves[mode][key].append(math.log(statistics.median(v[:h])) - math.log(statistics.median(v[h:])))
            os.remove(path)
        os.rmdir(folder)

print(f"{n} processes per mode, filter {filt}, warm wall clock, log scale (0.10 ≈ 10%)")
for mode in modes:
    for key in sorted(medians[mode]):
        between = statistics.stdev(medians[mode][key])
        within = statistics.stdev(halves[mode][key]) / math.sqrt(2)
        print(f"{mode:5} {key[0]} [{key[1]}]: median {math.exp(statistics.median(medians[mode][key])) / 1e3:.1f} µs, "
              f"between-process sd {between:.3f}, within-process sd {within:.3f}")
