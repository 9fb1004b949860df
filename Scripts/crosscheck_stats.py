#!/usr/bin/env python3
"""Cross-checks PerfKit's statistics against numpy and SciPy on seeded random data. A tool only;
PerfKit never depends on it.

Usage: python3 Scripts/crosscheck_stats.py [PERFKIT]   (default .build/release/perfkit)
       python3 Scripts/crosscheck_stats.py --write-fixture FILE   (SciPy's answers for the Swift tests)

Checked through `perfkit stats --format json`:
  - percentiles (numpy's default), mean, standard deviation (ddof=1), MAD (scipy, scale 1);
  - Mann-Whitney U p (scipy.stats.mannwhitneyu defaults), including 8 values against 2,000;
  - the ratio of medians (or, for a zero first median, the difference of medians) point estimate;
  - one and two values per file;
  - with --paired: the Wilcoxon signed-rank p of the log ratios (scipy.stats.wilcoxon defaults:
    exact, permutation or normal), with ties and zeros, n from 2 to 60; the Hodges-Lehmann
    estimate (median of Walsh averages) and its exact signed-rank 95% CI (critical value from
    SciPy's own Wilcoxon null distribution, or its normal quantile above 50 pairs).
Benjamini-Hochberg is not reachable from the command line: --write-fixture stores SciPy's
false_discovery_control answers, which Tests/PerfKitTests/Inference/ReferenceStatisticsTests.swift checks.
Exit status 1 when the worst relative difference exceeds 1e-9.
"""
import json, os, subprocess, sys, tempfile
import numpy as np
import scipy.stats as st
from scipy.stats._wilcoxon import WilcoxonDistribution

rng = np.random.default_rng(2026)


def bh_cases():
    cases = []
    for m in (1, 2, 5, 17, 60):
        p = np.concatenate([rng.uniform(0, 0.01, m // 3), rng.uniform(0, 1, m - m // 3)])
        if m > 2:
            p[0] = p[1]  # a tie
        cases.append({"p": p.tolist(), "q": st.false_discovery_control(p).tolist()})
    return cases


if len(sys.argv) > 2 and sys.argv[1] == "--write-fixture":
    with open(sys.argv[2], "w") as f:
        json.dump({"benjaminiHochberg": bh_cases()}, f, indent=1)
        f.write("\n")
    print(f"wrote {sys.argv[2]}")
    sys.exit(0)

perfkit = sys.argv[1] if len(sys.argv) > 1 else ".build/release/perfkit"
worst, worst_case, cases = 0.0, "", 0


def check(name, got, want):
    global worst, worst_case
    if got is None or want is None or not np.isfinite(want):
        return
    diff = abs(got - want) / max(abs(want), 1e-300) if want != 0 else abs(got)
    if diff > worst:
        worst, worst_case = diff, name


def stats(files, *extra):
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for k, x in enumerate(files):
            paths.append(os.path.join(d, f"s{k}"))
            np.savetxt(paths[-1], x, fmt="%.17g")
        return json.loads(subprocess.check_output([perfkit, "stats", *paths, "--format", "json", *extra]))


def check_summary(label, f, x):
    for key, p in (("median", 50), ("p90", 90), ("p95", 95), ("p99", 99)):
        check(f"{label} {key}", f[key], np.percentile(x, p))
    for key, v in (f.get("percentiles") or {}).items():
        check(f"{label} p{key}", v, np.percentile(x, float(key)))
    check(f"{label} mean", f["mean"], np.mean(x))
    if len(x) > 1:
        check(f"{label} stddev", f["stddev"], np.std(x, ddof=1))
    check(f"{label} mad", f["mad"], st.median_abs_deviation(x))


# Two independent samples.
for trial in range(60):
    n, m = int(rng.integers(3, 60)), int(rng.integers(3, 60))
    if trial % 3 == 0:  # ties
        a, b = rng.integers(0, 20, n).astype(float), rng.integers(0, 22, m).astype(float)
    else:
        a, b = rng.lognormal(3, 0.4, n), rng.lognormal(3.05, 0.4, m)
    out = stats([a, b], "--percentiles", "1,25,50,90,99.9")
    for f, x in zip(out["files"], (a, b)):
        check_summary(f"trial {trial}", f, x)
    c = out["comparison"]
    check(f"trial {trial} mann-whitney", c["mannWhitneyP"], st.mannwhitneyu(a, b).pvalue)
    if np.median(a) > 0:
        check(f"trial {trial} ratio", c["estimate"]["value"], np.median(b) / np.median(a))
    else:
        check(f"trial {trial} difference", c["estimate"]["value"], np.median(b) - np.median(a))
    cases += 1

# Zero medians, tiny files, the large exact Mann-Whitney path.
for label, a, b in (
    ("zero median", np.array([0, 0, 0, 1.0, 2]), np.array([0, 1, 1, 2.0, 3])),
    ("n=1 and n=2", np.array([5.0]), np.array([4.0, 7.0])),
    ("8 vs 2000", rng.lognormal(3, 0.3, 8), rng.lognormal(3.2, 0.3, 2000)),
    ("8 vs 300 shifted", rng.normal(10, 1, 8), rng.normal(12, 1, 300)),
):
    out = stats([a, b])
    for f, x in zip(out["files"], (a, b)):
        check_summary(label, f, x)
    c = out["comparison"]
    check(f"{label} mann-whitney", c["mannWhitneyP"], st.mannwhitneyu(a, b).pvalue)
    want = np.median(b) / np.median(a) if np.median(a) > 0 else np.median(b) - np.median(a)
    check(f"{label} estimate", c["estimate"]["value"], want)
    cases += 1


def walsh_ci(d, confidence=0.95):
    n = len(d)
    w = np.sort([(d[i] + d[j]) / 2 for i in range(n) for j in range(i, n)])
    tail = (1 - confidence) / 2
    if n > 50:
        k = int(np.floor(n * (n + 1) / 4 - st.norm.ppf(1 - tail) * np.sqrt(n * (n + 1) * (2 * n + 1) / 24)))
    else:
        dist = WilcoxonDistribution(np.array(n))
        k = 0
        while k <= n * (n + 1) // 2 and dist.cdf(k) <= tail:
            k += 1
    k = max(k, 1)
    return np.median(w), w[k - 1], w[len(w) - k]


# Paired samples: Wilcoxon of the log ratios and the Hodges-Lehmann ratio with its CI.
for trial in range(48):
    n = [2, 3, 5, 6, 8, 10, 13, 14, 20, 30, 50, 60][trial % 12]
    if trial % 4 == 0:  # ties and zeros: ratios from a few integers
        a = rng.integers(4, 8, n).astype(float)
        b = a * rng.choice([1.0, 1.0, 1.25, 1.5, 0.75], n)
    else:
        a = rng.lognormal(3, 0.2, n)
        b = a * rng.lognormal(0.02 * (trial % 3), 0.05, n)
    out = stats([a, b], "--paired")
    p = out["paired"]
    d = np.log(b / a)
    if np.any(d != 0):
        check(f"paired {trial} (n={n}) wilcoxon", p["wilcoxonP"], st.wilcoxon(d).pvalue)
    centre, lower, upper = walsh_ci(d)
    check(f"paired {trial} (n={n}) HL", p["ratio"]["value"], np.exp(centre))
    check(f"paired {trial} (n={n}) CI low", p["ratio"]["lower"], np.exp(lower))
    check(f"paired {trial} (n={n}) CI high", p["ratio"]["upper"], np.exp(upper))
    cases += 1

print(f"{cases} cases against numpy {np.__version__} and scipy {__import__('scipy').__version__}: worst relative difference {worst:.3g} ({worst_case})")
sys.exit(0 if worst <= 1e-9 else 1)
