#!/usr/bin/env python3
"""Spread of per-process medians in run files: for each wall-clock series, the ratio between the 75th and
the 25th percentile of its processes' medians; prints the median and the worst over series.
   python3 Scripts/process-spread.py RUNFILE...   (README: "Baselines and comparison")"""
import json
import math
import statistics
import sys

def spread(path):
    r=json.load(open(path))
    ratios=[]
    for t in r['tests']:
        for m in t['measurements']:
            for s in m['series']:
                if s['metric']['name']!='wallClock': continue
                procs={}
                for v,p in zip(s['values'], s.get('processes') or [0]*len(s['values'])):
                    procs.setdefault(p,[]).append(v)
                meds=[statistics.median(v) for v in procs.values()]
                if len(meds)<2 or min(meds)<=0: continue
                # robust spread: IQR of log per-process medians
                lm=sorted(math.log(x) for x in meds)
                q=statistics.quantiles(lm, n=4)
                ratios.append(math.exp(q[2]-q[0]))
    return statistics.median(ratios), max(ratios)
for f in sys.argv[1:]:
    med,mx=spread(f); print(f"{f}: median over series of the per-process IQR ratio {med:.3f}, worst {mx:.3f}")
