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
# Every doc comment's abstract (its first paragraph) is one sentence of at most 150 characters; the why
# goes in a discussion paragraph after a blank `///` line.
long_abstracts = []
top = os.path.join(root, "..")
for folder, _, files in (entry for part in ("Sources", "Tests", "Plugins") for entry in os.walk(os.path.join(top, part))):
    for name in sorted(files):
        if not name.endswith(".swift"):
            continue
        path = os.path.join(folder, name)
        lines = open(path, encoding="utf-8").read().split("\n")
        for i, line in enumerate(lines):
            if not line.strip().startswith("///") or (i > 0 and lines[i - 1].strip().startswith("///")):
                continue
            paragraph = []
            for following in lines[i:]:
                text = following.strip()
                if not text.startswith("///"):
                    break
                text = text[3:].strip()
                if text == "" or text.startswith("- "):
                    break
                paragraph.append(text)
            abstract = " ".join(paragraph)
            if len(abstract) > 150:
                relative = os.path.relpath(path, top)
                long_abstracts.append(f"{relative}:{i + 1}: abstract of {len(abstract)} characters (at most 150)")
for entry in missing + long_abstracts:
    print(entry)
print(f"doc-coverage: {total - len(missing)} of {total} public declarations have a /// comment; "
      + f"{len(long_abstracts)} abstracts over 150 characters")
sys.exit(1 if missing or long_abstracts else 0)
