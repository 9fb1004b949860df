#!/usr/bin/env python3
"""Does an estimated-cycles figure track time better than instructions (Ir) on a suite?

Usage: cycles-vs-instructions.py BUNDLE SHIM TIMING_RUN_FILE [FILTER]

Runs each test of the release test BUNDLE matching FILTER (default 'Benchmarks/') once under
callgrind with its cache simulation at a fixed geometry (I1 and D1 32 KiB 8-way, LL 8 MiB 16-way,
64-byte lines, so the figure does not depend on the host), preloading the sigsuspend SHIM, with
PerfKit's counting environment. For every count series it reads each sample's dump and computes

    Ir                  instructions
    estimated cycles    L1 hits + 5 x LL hits + 35 x RAM hits   (Gungraun's and Itamar Turner-Trauring's model)

takes the median per series, and sets them beside the series' wall-clock median per call from
TIMING_RUN_FILE (a perfkit run of the same code; median of per-process medians). A figure that
tracks time has time / figure nearly constant across series: the script prints, for each figure,
the spread of log(time / figure) across series (standard deviation) and the correlation of
log(time) with log(figure). Smaller spread = tracks time better.
"""
import json, math, os, re, statistics, subprocess, sys, tempfile, uuid

bundle, shim, timing_file = sys.argv[1:4]
pattern = re.compile(sys.argv[4] if len(sys.argv) > 4 else "Benchmarks/")

ids = [l for l in subprocess.run([bundle, "--testing-library", "swift-testing", "--list-tests"],
                                 capture_output=True, text=True, check=True).stdout.splitlines() if pattern.search(l)]
root = f"/tmp/perfkit-cycles-{uuid.uuid4()}"
os.makedirs(root)
arch = os.uname().machine
figures = {}  # (test, measurement, arm, phase) -> (Ir list, EC list)
for n, test in enumerate(ids):
    folder = f"{root}/t{n:04d}"
    os.makedirs(folder + "/results")
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "LC_ALL": "C", "SWIFT_DETERMINISTIC_HASHING": "1",
           "LD_PRELOAD": shim, "MALLOC_CONF": "dirty_decay_ms:-1,muzzy_decay_ms:-1", "PERFKIT_MODE": "measure",
           "PERFKIT_RESULTS_DIR": folder + "/results", "PERFKIT_CALLGRIND_OUT": folder + "/cg"}
    subprocess.run(["setarch", arch, "-R", "valgrind", "--tool=callgrind", "--instr-atstart=no", "--collect-atstart=no", "--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64",
                    "--LL=8388608,16,64", f"--callgrind-out-file={folder}/cg", f"--log-file={folder}/vg.log",
                    bundle, "--testing-library", "swift-testing", "--no-parallel", "--filter", re.escape(test)],
                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for fragment in os.listdir(folder + "/results"):
        result = json.load(open(f"{folder}/results/{fragment}"))["test"]
        for m in result["measurements"]:
            for s in m["series"]:
                if s["metric"]["name"] != "instructions":
                    continue
                irs, ecs = [], []
                for dump in s.get("callgrindDumps", []):
                    text = open(f"{folder}/cg.{dump}").read()
                    events = re.search(r"^events: (.*)$", text, re.M).group(1).split()
                    totals = [int(x) for x in re.search(r"^totals: (.*)$", text, re.M).group(1).split()]
                    e = dict(zip(events, totals + [0] * (len(events) - len(totals))))
                    accesses = e["Ir"] + e.get("Dr", 0) + e.get("Dw", 0)
                    l1_miss = e.get("I1mr", 0) + e.get("D1mr", 0) + e.get("D1mw", 0)
                    ll_miss = e.get("ILmr", 0) + e.get("DLmr", 0) + e.get("DLmw", 0)
                    ram, ll_hits = ll_miss, l1_miss - ll_miss
                    l1_hits = accesses - l1_miss
                    irs.append(e["Ir"])
                    ecs.append(l1_hits + 5 * ll_hits + 35 * ram)
                figures[(result["id"], m["name"], s["arm"], s["phase"])] = (statistics.median(irs), statistics.median(ecs))

timing = {}
for t in json.load(open(timing_file))["tests"]:
    for m in t["measurements"]:
        for s in m["series"]:
            if s["metric"]["name"] != "wallClock":
                continue
            by = {}
            for v, p in zip(s["values"], s.get("processes") or [0] * len(s["values"])):
                by.setdefault(p, []).append(v)
            timing[(t["id"], m["name"], s["arm"], s["phase"])] = statistics.median(statistics.median(v) for v in by.values())

rows = [(k, timing[k], *figures[k]) for k in sorted(figures) if k in timing and figures[k][0] > 0]
print(f"{len(rows)} series with a wall-clock median and counts")
print(f"{'series':70} {'time ns':>12} {'Ir':>12} {'est. cycles':>12} {'ns/Ir':>8} {'ns/EC':>8}")
for k, t, ir, ec in rows:
    print(f"{(k[0].split('.')[-1] + ' ' + k[1] + ' [' + k[2] + ', ' + k[3] + ']')[:70]:70} {t:12.0f} {ir:12.0f} {ec:12.0f} {t / ir:8.3f} {t / ec:8.3f}")
for name, column in (("Ir", 2), ("estimated cycles", 3)):
    logs = [math.log(r[1] / r[column]) for r in rows]
    x = [math.log(r[column]) for r in rows]
    y = [math.log(r[1]) for r in rows]
    print(f"{name}: sd of log(time / {name}) across series {statistics.stdev(logs):.3f}; "
          f"correlation of log time with log {name} {statistics.correlation(x, y):.4f}")
subprocess.run(["rm", "-rf", root]) if not os.environ.get("KEEP") else print(root)
