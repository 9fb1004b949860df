#!/usr/bin/env python3
# For each count series whose samples differ between two run files: per differing sample, the functions whose
# exclusive (self) instructions differ most between the two dumps. usage: diffdumps.py A.json B.json [N]
import re, collections
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from countseries import count_series
def series(path):
    return {(k[0].split("/")[-1],) + k[1:]: (v["values"], v.get("callgrindDumps", [])) for k, v in count_series(path).items()}
def selfcost(path):
    names = {}; fn = ""; costs = collections.Counter(); call = False
    def nm(v):
        m = re.match(r"\((\d+)\)(?: (.*))?", v)
        if not m: return v
        if m.group(2): names[m.group(1)] = m.group(2); return m.group(2)
        return names.get(m.group(1), m.group(1))
    cfn = ""; incl = collections.Counter()
    for line in open(path):
        line = line.rstrip("\n")
        if not line: continue
        c = line[0]
        if c.isdigit() or c in "+-*":
            f = line.split(" ")
            v = int(f[1]) if len(f) > 1 and f[1].isdigit() else 0
            if call: call = False; incl[(fn, cfn)] += v
            else: costs[fn] += v
        elif line.startswith("fn="): fn = nm(line[3:])
        elif line.startswith("cfn="): cfn = nm(line[4:])
        elif line.startswith("calls="): call = True
    return costs, incl
a, b = series(sys.argv[1]), series(sys.argv[2]); n = int(sys.argv[3]) if len(sys.argv) > 3 else 8
da = sys.argv[1][:-5] + ".callgrind"; db = sys.argv[2][:-5] + ".callgrind"
for k in sorted(a):
    if k not in b: continue
    (va, na), (vb, nb) = a[k], b[k]
    diff = [i for i in range(min(len(va), len(vb))) if va[i] != vb[i]]
    if not diff: continue
    print(f"== {k}: {len(diff)}/{len(va)} samples differ; e.g. sample {diff[0]}: {va[diff[0]]:.0f} vs {vb[diff[0]]:.0f} ({(vb[diff[0]]/va[diff[0]]-1)*100:+.4f}%)")
    i = diff[0]
    ca, ia = selfcost(f"{da}/callgrind.out.{na[i]}"); cb, ib = selfcost(f"{db}/callgrind.out.{nb[i]}")
    d = {f: cb.get(f, 0) - ca.get(f, 0) for f in set(ca) | set(cb)}
    for f, v in sorted(d.items(), key=lambda x: -abs(x[1]))[:n]:
        if v: print(f"   {v:+10d} self  {f[:110]}")
    e = {f: ib.get(f, 0) - ia.get(f, 0) for f in set(ia) | set(ib)}
    for f, v in sorted(e.items(), key=lambda x: -abs(x[1]))[:4]:
        if v: print(f"   {v:+10d} call  {f[0][:50]} -> {f[1][:60]}")
