#!/usr/bin/env python3
"""Folder dependencies inside each module: which folders' declarations each folder's files use,
and the cycles among them (strongly connected components of more than one folder).

A folder uses another when one of its files names a type (at any indentation: nested, in an
extension or in an `#if` block), a top-level function, or (as `.name`) a static member that an
extension of another module's type adds, declared in the other folder's files, as a
whole word outside comments and string literals; a name declared in two folders is ambiguous and
counts for neither. A module's files outside any folder are the folder "(top)".
Usage: Scripts/folder-cycles.py [MODULE_FOLDER ...] (default: every module of Sources/ and Tests/
with folders). Prints each module's edges and cycles; exits 1 when any module has a cycle."""
import os, re, sys
from collections import defaultdict

# A private or fileprivate type is seen only in its own file, so it is not a folder's declaration
# (``local`` finds every type a file declares, which that file's own uses refer to); a protocol's
# associated type is (its conformers name it).
declaration = re.compile(
    r"^[ \t]*(?:@\w+(?:\([^)]*\))? )*(?:(?:public|package|internal|nonisolated) )*"
    r"(?:final |indirect )?(?:struct|enum|class|actor|protocol|typealias|associatedtype)\s+(\w+)", re.M)
local = re.compile(
    r"^[ \t]*(?:@\w+(?:\([^)]*\))? )*(?:(?:public|package|internal|private|fileprivate|nonisolated) )*"
    r"(?:final |indirect )?(?:struct|enum|class|actor|protocol|typealias|associatedtype)\s+(\w+)", re.M)
function = re.compile(r"^(?:@\w+(?:\([^)]*\))? )*(?:public |package |internal )*func\s+(\w+)", re.M)
# Static members at any indentation (counted for extensions of other modules' types, below).
member = re.compile(
    r"^[ \t]*(?:@\w+(?:\([^)]*\))? )*(?:public |package |internal |private |fileprivate |nonisolated )*static (?:let|var|func)\s+(\w+)",
    re.M)


def strip(text):
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"/\*(?:.|\n)*?\*/", "", text)


def components(nodes, edges):
    """Tarjan's strongly connected components."""
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            sccs.append(sorted(component))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sccs


def check(root):
    """Prints one module's folder edges, cycles and two-way pairs; returns how many cycles."""
    files = defaultdict(list)
    for folder in sorted(os.listdir(root)):
        path = os.path.join(root, folder)
        if not os.path.isdir(path):
            if folder.endswith(".swift"):
                files["(top)"].append(path)
            continue
        for dirpath, _, names in os.walk(path):
            files[folder] += [os.path.join(dirpath, n) for n in names if n.endswith(".swift")]
    texts = {f: strip(open(f, encoding="utf-8").read()) for fs in files.values() for f in fs}
    owners = defaultdict(set)
    for folder, fs in files.items():
        for f in fs:
            for name in declaration.findall(texts[f]) + function.findall(texts[f]):
                owners[name].add(folder)
    owner = {name: next(iter(folders)) for name, folders in owners.items() if len(folders) == 1}
    # A static member that an extension here adds to another module's type (`extension Option {
    # static let failOn }`) is used as an implicit member, `.failOn` (never `x.failOn`), in a file
    # that need not name the type.
    members = defaultdict(set)
    for folder, fs in files.items():
        for f in fs:
            extended = re.findall(r"^(?:public |package )?extension\s+(\w+)", texts[f], re.M)
            if any(t not in owners for t in extended):
                for name in member.findall(texts[f]):
                    members[name].add(folder)
    member_owner = {name: next(iter(folders)) for name, folders in members.items() if len(folders) == 1}
    edges, why = defaultdict(set), defaultdict(set)
    for folder, fs in files.items():
        for f in fs:
            own = set(local.findall(texts[f]))
            words = set(re.findall(r"\b[A-Za-z_]\w*\b", texts[f])) - own
            used = [(owner.get(w), w) for w in words]
            used += [(member_owner.get(w), "." + w) for w in set(re.findall(r"(?<![\w)\]?!])\.([A-Za-z_]\w*)\b", texts[f]))]
            for other, word in used:
                if other and other != folder:
                    edges[folder].add(other)
                    why[(folder, other)].add(f"{os.path.basename(f)}: {word}")
    print(root)
    for folder in sorted(files):
        print(f"  {folder} -> {', '.join(sorted(edges[folder])) or '(nothing)'}")
    cycles = [c for c in components(files, edges) if len(c) > 1]
    pairs = sorted({(a, b) for a in edges for b in edges[a] if a in edges[b] and a < b})
    print(f"  folder cycles: {len(cycles)}" + "".join(f"\n    {' ⇄ '.join(c)}" for c in cycles))
    print(f"  two-way pairs: {len(pairs)}" + "".join(f"\n    {a} ⇄ {b}" for a, b in pairs))
    for cycle in cycles:
        for a in cycle:
            for b in sorted(edges[a] & set(cycle)):
                print(f"    {a} -> {b}: " + ", ".join(sorted(why[(a, b)])[:6]))
    return len(cycles)


def modules():
    """Every module folder of Sources/ and Tests/ that has folders of its own."""
    found = []
    for top in ("Sources", "Tests"):
        for m in sorted(os.listdir(top)):
            path = os.path.join(top, m)
            if os.path.isdir(path) and any(os.path.isdir(os.path.join(path, d)) for d in os.listdir(path)):
                found.append(path)
    return found


roots = sys.argv[1:] or modules()
total = sum(check(root) for root in roots)
print(f"modules: {len(roots)}, folder cycles: {total}")
sys.exit(1 if total else 0)
