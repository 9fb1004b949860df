#!/usr/bin/env python3
"""Counts calls into the allocator recorded in callgrind dumps: an outside check of PerfKit's
mallocs per call (jemalloc's arena counters), from the same counting run's dumps.

Usage: malloc-calls.py RUN.json  (the run file; its .callgrind folder beside it)
Prints, per count series, the malloc-family calls of each dump (from functions outside the family).
"""
import json, os, re, sys

FAMILY = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign"}

def calls(path):
    names, caller, callee, total, pending = {}, None, None, 0, False
    def resolve(value):
        m = re.match(r"\((\d+)\)(?: (.*))?", value)
        if not m: return value
        if m.group(2): names[m.group(1)] = m.group(2)
        return names.get(m.group(1), value)
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("fn="): caller = resolve(line[3:])
        elif line.startswith("cfn="): callee = resolve(line[4:])
        elif line.startswith("calls="):
            if callee in FAMILY and caller not in FAMILY: total += int(line[6:].split()[0])
    return total

run = json.load(open(sys.argv[1]))
folder = sys.argv[1][:-5] + ".callgrind"
for test in run["tests"]:
    for m in test["measurements"]:
        for s in m["series"]:
            if s["metric"]["name"] != "instructions" or not s.get("callgrindDumps"): continue
            counts = [calls(f"{folder}/callgrind.out.{n}") for n in s["callgrindDumps"]]
            mallocs = [x for x in m["series"] if x["metric"]["name"] == "mallocs" and x["arm"] == s["arm"]]
            native = mallocs[0]["values"] if mallocs else "(not in this run)"
            print(f"{test['id']} {m['name']} [{s['arm']}]: callgrind malloc-family calls {counts}; PerfKit mallocs {native}")
