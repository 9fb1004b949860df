import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from countseries import count_series
def series(path): return {k: v["values"] for k, v in count_series(path).items()}
a, b = series(sys.argv[1]), series(sys.argv[2])
n = d = samples = 0; worst = []
for k in sorted(a):
    if k not in b: continue
    va, vb = a[k], b[k]; samples += len(va)
    diff = [(i, vb[i] - va[i], (vb[i] / va[i] - 1) * 100) for i in range(min(len(va), len(vb))) if va[i] != vb[i]]
    if diff or len(va) != len(vb):
        n += 1; d += len(diff)
        w = max(diff, key=lambda x: abs(x[2]))
        worst.append((abs(w[2]), k[0].split("/")[-1][:40], k[1], k[2], f"{len(diff)}/{len(va)} samples, worst {w[1]:+.0f} ({w[2]:+.4f}%)"))
print(f"{len(a)} series, {samples} samples: {n} series with a sample that differs, {d} samples differ")
for w in sorted(worst, reverse=True): print("  ", *w[1:])
