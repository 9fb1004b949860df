#!/usr/bin/env python3
"""Whether two run files read the same simulated instruction counts, sample for sample, for the series both hold.

usage: counts-same-samples.py RUN_A.json RUN_B.json
Prints each series both hold with "same" or both sides' samples, then how many matched; exits 1 when one differs.
A side counted at fewer placements is compared on its samples only (the first placement's come first in both).
"""
import json
import sys


def counts(path):
    run = json.load(open(path))
    found = {}
    for test in run["tests"]:
        for measurement in test["measurements"]:
            for series in measurement["series"]:
                if series["metric"]["name"] == "instructions":
                    found[(test["id"], measurement["name"], series["arm"], series["phase"])] = series["values"]
    return found


a, b = counts(sys.argv[1]), counts(sys.argv[2])
same = 0
shared = sorted(set(a) & set(b))
for key in shared:
    n = min(len(a[key]), len(b[key]))
    if a[key][:n] == b[key][:n]:
        same += 1
        print("same", *key)
    else:
        print("DIFFERENT", *key, a[key][:n], b[key][:n])
print(f"{same} of {len(shared)} series read the same samples")
sys.exit(0 if same == len(shared) else 1)
