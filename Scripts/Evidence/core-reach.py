#!/usr/bin/env python3
"""Which of PerfKitCore's files a measured test bundle reaches by name from PerfKitTesting's.

A walk over the capitalised names each file declares at top level (and the types it extends) and the
names it mentions, from PerfKitTesting's files. Prints the lines reached and the files not reached. A file
not reached may still be public API a test body calls itself (`blackHole`, a lowercase function, is not
followed), so it is a candidate to move out of what a test bundle compiles, not a verdict.
usage: Scripts/Evidence/core-reach.py   (from the package folder)
"""
import glob
import re

core = glob.glob("Sources/PerfKitCore/**/*.swift", recursive=True)
testing = glob.glob("Sources/PerfKitTesting/**/*.swift", recursive=True)
text = {f: re.sub(r"//.*", "", open(f).read()) for f in core + testing}
declaration = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|final|indirect|nonisolated)\s+)*"
    r"(?:struct|enum|class|actor|protocol|typealias|func|let|var)\s+([A-Z]\w*)", re.M)
extension = re.compile(r"^(?:(?:public|package|internal)\s+)*extension\s+([A-Za-z_]\w*)", re.M)
declared, extended = {}, {}
for f in core:
    for name in declaration.findall(text[f]):
        declared.setdefault(name, set()).add(f)
    for name in extension.findall(text[f]):
        extended.setdefault(name, set()).add(f)
words = {f: set(re.findall(r"[A-Za-z_]\w*", text[f])) for f in text}
seen, todo = set(), list(testing)
while todo:
    f = todo.pop()
    if f in seen:
        continue
    seen.add(f)
    for word in words[f]:
        todo += declared.get(word, set()) | extended.get(word, set())
lines = lambda files: sum(len(open(f).read().splitlines()) for f in files)
left = sorted(f for f in core if f not in seen)
print(f"PerfKitCore: {lines([f for f in core if f in seen])} lines reached, {lines(left)} not")
for f in left:
    print(" ", f, lines([f]))
