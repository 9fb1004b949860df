#!/usr/bin/env python3
# Per count series of one or two run files: the distinct values, and how many series are not identical in
# every sample (and, given two files, across them). usage: counts-identical.py RUN.json [OTHER.json]
import json, sys
def series(path):
    run = json.load(open(path))
    out = {}
    for t in run["tests"]:
        for m in t["measurements"]:
            for s in m["series"]:
                if s["metric"]["name"] == "instructions":
                    out[(t["id"], m["name"], s["arm"], s["phase"])] = s["values"]
    return out
a = series(sys.argv[1]); b = series(sys.argv[2]) if len(sys.argv) > 2 else None
differing = 0; samples = 0
for k, v in sorted(a.items()):
    within = len(set(v)) > 1
    other = b.get(k) if b else None
    across = other is not None and sorted(other) != sorted(v)
    samples += len(v)
    if within or across: differing += 1
    print(k[0].split(".")[-1], k[1], k[2], k[3], "values", sorted(set(v))[:4], "other", sorted(set(other))[:4] if other else "-")
print(f"{len(a)} series, {samples} samples; series not identical in every sample{' and across files' if b else ''}: {differing}")
