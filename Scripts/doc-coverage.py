#!/usr/bin/env python3
"""Lists public declarations in Sources/ with no `///` comment above them (attributes such as
`@inline(__always)` may sit between). Exits 1 when any is found; `make lint` runs it."""
import os
import re
import sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")
declaration = re.compile(r"(@\w+(\(.*?\))?\s+)*(public|open)\s")
total, missing = 0, []
for folder, _, files in os.walk(root):
    for name in sorted(files):
        if not name.endswith(".swift"):
            continue
        path = os.path.join(folder, name)
        lines = open(path, encoding="utf-8").read().split("\n")
        for i, line in enumerate(lines):
            text = line.strip()
            if not declaration.match(text) or text.startswith("public import"):
                continue
            if "extension" in text.split("{")[0].split()[:3]:
                continue  # an extension documents its members, not itself
            total += 1
            j = i - 1
            while j >= 0 and lines[j].strip().startswith("@"):
                j -= 1
            if not lines[j].strip().startswith("///"):
                missing.append(f"{os.path.relpath(path, os.path.join(root, '..'))}:{i + 1}: {text[:100]}")
for entry in missing:
    print(entry)
print(f"doc-coverage: {total - len(missing)} of {total} public declarations have a /// comment")
sys.exit(1 if missing else 0)
