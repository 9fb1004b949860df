#!/usr/bin/env python3
"""Per pair of Scripts/replication-evidence.sh: the median change of the slowed series, of the
unchanged ones, and their difference. A run-level drift moves every series of a run together; the
difference is what an in-run reference would leave of the injected change.

Usage: Scripts/replication-drift.py .perfkit/evidence/replication-p8-s10
"""
import glob, json, os, re, statistics, sys

slowed = ("LayoutBenchmarks", "ArtworkBenchmarks")
folder = sys.argv[1]
files = sorted(glob.glob(os.path.join(folder, "c*.json")), key=lambda p: int(re.findall(r"\d+", os.path.basename(p))[0]))
for path in files:
    pair = int(re.findall(r"\d+", os.path.basename(path))[0])
    rows = [r for r in json.load(open(path))["comparison"]["rows"] if r["metric"]["name"] == "wallClock" and r.get("change")]
    def is_slowed(r): return any(k in r["test"] for k in slowed) and r["measurement"] != "varied-30d"
    s = statistics.median(r["change"]["value"] for r in rows if is_slowed(r))
    o = statistics.median(r["change"]["value"] for r in rows if not is_slowed(r))
    print(f"pair {pair:2} ({'build on the other core' if pair % 2 else 'quiet'}): slowed {s - 1:+.1%}, unchanged {o - 1:+.1%}, slowed relative to unchanged {s / o - 1:+.1%}")
