#!/usr/bin/env python3
# Per count series of one or two run files: the distinct values; given two files, how many samples (in order)
# and series differ between them; and how many series' samples differ among themselves (with the pinned heap each
# sample finds the heap its predecessor left, so that is expected; a repeat is sample k against sample k).
# usage: counts-identical.py RUN.json [OTHER.json]
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
within_series = 0; across_series = 0; across_samples = 0; samples = 0
for k, v in sorted(a.items()):
    other = b.get(k) if b else None
    within_series += len(set(v)) > 1
    if other is not None:
        apart = sum(x != y for x, y in zip(v, other)) + abs(len(v) - len(other))
        across_samples += apart
        across_series += apart > 0
    samples += len(v)
    print(k[0].split(".")[-1], k[1], k[2], k[3], "values", v[:4], "other", other[:4] if other else "-")
line = f"{len(a)} series, {samples} samples"
if b is not None:
    line += f"; apart between the files: {across_samples} samples in {across_series} series"
print(line + f"; series whose own samples differ: {within_series}")
