#!/usr/bin/env python3
"""How much a measured series varies between fresh processes, with ASLR on and off.

Runs a release test bundle N times per mode (alternating ASLR on / off with `setarch -R`), reads
each process's result fragments, and prints per warm wall-clock series: the coefficient of
variation and interquartile ratio of the per-process medians, and, for measurements with two
arms, how the two arms' per-process medians correlate (arms alternate inside a process, so a
high correlation means the process or the moment, not the arm, sets the speed).

Usage: Scripts/process-noise.py PACKAGE_DIR N FILTER
  PACKAGE_DIR holds .build/release/*PackageTests.xctest (swift build -c release --build-tests).
"""
import collections, glob, json, os, statistics, subprocess, sys, tempfile

root, n, filt = sys.argv[1], int(sys.argv[2]), sys.argv[3]
bundle = glob.glob(os.path.join(root, ".build/release/*PackageTests.xctest"))[0]
medians = {"on": collections.defaultdict(list), "off": collections.defaultdict(list)}
for k in range(n):
    for mode in (["on", "off"] if k % 2 == 0 else ["off", "on"]):
        folder = tempfile.mkdtemp(prefix="perfkit-noise-")
        env = dict(os.environ, PERFKIT_MODE="measure", PERFKIT_RESULTS_DIR=folder)
        prefix = ["setarch", os.uname().machine, "-R"] if mode == "off" else []
        subprocess.run(prefix + [bundle, "--testing-library", "swift-testing", "--no-parallel", "--filter", filt],
                       cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for path in glob.glob(folder + "/*.json"):
            test = json.load(open(path))["test"]
            for m in test["measurements"]:
                for s in m["series"]:
                    if s["phase"] == "warm" and s["metric"]["name"] == "wallClock":
                        medians[mode][(m["name"], s["arm"])].append(statistics.median(s["values"]))
            os.remove(path)
        os.rmdir(folder)

def corr(x, y):
    mx, my = statistics.mean(x), statistics.mean(y)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    return sxy / (sum((a - mx) ** 2 for a in x) * sum((b - my) ** 2 for b in y)) ** 0.5

print(f"{n} processes per mode, filter {filt}, warm wall clock, per-process medians")
for mode in ("on", "off"):
    series = medians[mode]
    for key, values in sorted(series.items()):
        q = statistics.quantiles(values, n=4)
        print(f"ASLR {mode:3} {key[0]} [{key[1]}]: median {statistics.median(values):.0f} ns, "
              f"CV {statistics.stdev(values) / statistics.mean(values):.3f}, IQR ratio {q[2] / q[0]:.3f}")
    by_measurement = collections.defaultdict(list)
    for (name, arm), values in series.items():
        by_measurement[name].append(values)
    for name, arms in sorted(by_measurement.items()):
        if len(arms) >= 2 and len(arms[0]) == len(arms[1]) >= 3:
            print(f"ASLR {mode:3} {name}: correlation of the first two arms across processes {corr(arms[0], arms[1]):.2f}")
