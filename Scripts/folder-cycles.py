#!/usr/bin/env python3
"""Folder dependencies inside a target: which folders' declarations each folder's files use, and
the cycles among them (strongly connected components of more than one folder).

A folder uses another when one of its files names a type, function or constant declared at the
top level (or as a static member of an extension's type) in the other folder's files, as a whole
word outside comments and string literals. Usage: Scripts/folder-cycles.py [Sources/PerfKit]
Prints the edges and the cycles; exits 1 when there is a cycle."""
import os, re, sys
from collections import defaultdict

root = sys.argv[1] if len(sys.argv) > 1 else "Sources/PerfKit"
declaration = re.compile(r"^(?:public |package |internal |private |fileprivate )*(?:final )?(?:struct|enum|class|actor|protocol|typealias)\s+(\w+)", re.M)
function = re.compile(r"^(?:public |package |internal )*func\s+(\w+)", re.M)

def strip(text):
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*(?:.|\n)*?\*/", "", text)

files = defaultdict(list)
for folder in sorted(os.listdir(root)):
    path = os.path.join(root, folder)
    if not os.path.isdir(path):
        continue
    for dirpath, _, names in os.walk(path):
        files[folder] += [os.path.join(dirpath, n) for n in names if n.endswith(".swift")]
texts = {f: strip(open(f, encoding="utf-8").read()) for fs in files.values() for f in fs}
owner = {}
for folder, fs in files.items():
    for f in fs:
        for name in declaration.findall(texts[f]) + function.findall(texts[f]):
            owner.setdefault(name, folder)
edges = defaultdict(set)
for folder, fs in files.items():
    for f in fs:
        for word in set(re.findall(r"\b[A-Za-z_]\w*\b", texts[f])):
            other = owner.get(word)
            if other and other != folder:
                edges[folder].add(other)

# Tarjan's strongly connected components.
index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1; stack.append(v); on.add(v)
    for w in sorted(edges[v]):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        component = []
        while True:
            w = stack.pop(); on.discard(w); component.append(w)
            if w == v: break
        sccs.append(sorted(component))
for v in sorted(files):
    if v not in index:
        visit(v)
for folder in sorted(files):
    print(f"{folder} -> {', '.join(sorted(edges[folder])) or '(nothing)'}")
cycles = [c for c in sccs if len(c) > 1]
pairs = sorted({(a, b) for a in edges for b in edges[a] if a in edges[b] and a < b})
print(f"folder cycles: {len(cycles)} strongly connected groups of folders" + "".join(f"\n  {' ⇄ '.join(c)}" for c in cycles))
print(f"two-way pairs: {len(pairs)}" + "".join(f"\n  {a} ⇄ {b}" for a, b in pairs))
sys.exit(1 if cycles else 0)
