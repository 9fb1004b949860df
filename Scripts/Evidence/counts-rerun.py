"""Two run files' simulated counts side by side: how many series repeat in every sample, the largest median
changes. Usage: counts-rerun.py RUN_A.json RUN_B.json"""
import json, sys, statistics
def load(p):
    d={}
    for t in json.load(open(p))["tests"]:
        for m in t["measurements"]:
            for s in m["series"]:
                if s["metric"]["name"]=="instructions":
                    d[(t["id"].split('.')[-1],m["name"],s["arm"],s["phase"])]=s
    return d
a,b=load(sys.argv[1]),load(sys.argv[2])
same=0; worst=[]
for k in sorted(a):
    va,vb=a[k]["values"],b[k]["values"]
    if va==vb: same+=1
    ma,mb=statistics.median(va),statistics.median(vb)
    worst.append((abs(mb/ma-1),k,ma,mb, va==vb))
print(f"{len(a)} series, {same} identical in every sample")
for w in sorted(worst,reverse=True)[:8]: print(f"{w[0]*100:.4f}% {w[1]} {w[2]} {w[3]} identical={w[4]}")
