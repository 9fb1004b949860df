#!/usr/bin/env python3
"""Cross-checks `perfkit stats --format json` against numpy percentiles and scipy's mannwhitneyu
(default settings) on seeded random data. A tool only; PerfKit never depends on it.
Usage: python3 Scripts/crosscheck_stats.py [PERFKIT]   (default .build/release/perfkit)"""
import json, subprocess, sys, tempfile, os
import numpy as np, scipy.stats as st

perfkit = sys.argv[1] if len(sys.argv) > 1 else ".build/release/perfkit"
rng = np.random.default_rng(2026)
worst = 0.0
cases = 0
for trial in range(60):
    n, m = int(rng.integers(3, 60)), int(rng.integers(3, 60))
    if trial % 3 == 0:  # ties
        a, b = rng.integers(0, 20, n).astype(float), rng.integers(0, 22, m).astype(float)
    else:
        a, b = rng.lognormal(3, 0.4, n), rng.lognormal(3.05, 0.4, m)
    with tempfile.TemporaryDirectory() as d:
        pa, pb = os.path.join(d, "a"), os.path.join(d, "b")
        np.savetxt(pa, a, fmt="%.17g"); np.savetxt(pb, b, fmt="%.17g")
        out = json.loads(subprocess.check_output([perfkit, "stats", pa, pb, "--format", "json", "--percentiles", "1,25,50,90,99.9"]))
    for f, x in zip(out["files"], (a, b)):
        for key, p in (("median", 50), ("p90", 90), ("p95", 95), ("p99", 99)):
            worst = max(worst, abs(f[key] - np.percentile(x, p)) / max(abs(np.percentile(x, p)), 1e-300))
        for key, v in f["percentiles"].items():
            worst = max(worst, abs(v - np.percentile(x, float(key))) / max(abs(np.percentile(x, float(key))), 1e-300))
    ref = st.mannwhitneyu(a, b).pvalue
    worst = max(worst, abs(out["comparison"]["mannWhitneyP"] - ref) / max(ref, 1e-300))
    cases += 1
print(f"{cases} random cases: worst relative difference {worst:.3g}")
sys.exit(0 if worst <= 1e-9 else 1)
