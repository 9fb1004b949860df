"""Two run files' simulated counts side by side: how many series repeat in every sample, the largest median
changes. Usage: counts-rerun.py RUN_A.json RUN_B.json"""
import json, sys, statistics
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from countseries import count_series
def load(p): return {(k[0].split('.')[-1],) + k[1:]: v for k, v in count_series(p).items()}
a,b=load(sys.argv[1]),load(sys.argv[2])
same=0; worst=[]
for k in sorted(a):
    va,vb=a[k]["values"],b[k]["values"]
    if va==vb: same+=1
    ma,mb=statistics.median(va),statistics.median(vb)
    worst.append((abs(mb/ma-1),k,ma,mb, va==vb))
print(f"{len(a)} series, {same} identical in every sample")
for w in sorted(worst,reverse=True)[:8]: print(f"{w[0]*100:.4f}% {w[1]} {w[2]} {w[3]} identical={w[4]}")
