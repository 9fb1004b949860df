#!/usr/bin/env python3
"""Lists public declarations in Sources/ with no `///` comment above them (attributes such as
`@inline(__always)` may sit between), and doc comments in Sources/, Tests/ and Plugins/ whose abstract
(first paragraph) is over 150 characters: the abstract is one sentence, the why goes in a discussion
paragraph after a blank `///` line. Exits 1 when any is found; `make lint` runs it."""
import os
import re
import sys

top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
declaration = re.compile(r"(@\w+(\(.*?\))?\s+)*(public|open)\s")


def swift_files():
    """(relative path, lines) of every Swift file under Sources, Tests and Plugins."""
    for part in ("Sources", "Tests", "Plugins"):
        for folder, _, files in os.walk(os.path.join(top, part)):
            for name in sorted(files):
                if name.endswith(".swift"):
                    path = os.path.join(folder, name)
                    yield os.path.relpath(path, top), open(path, encoding="utf-8").read().split("\n")


def undocumented(relative, lines):
    """The public declarations of a Sources file with no `///` above them, and how many there are."""
    found, count = [], 0
    for i, line in enumerate(lines):
        text = line.strip()
        if not declaration.match(text) or text.startswith("public import"):
            continue
        if "extension" in text.split("{")[0].split()[:3]:
            continue  # an extension documents its members, not itself
        count += 1
        j = i - 1
        while j >= 0 and lines[j].strip().startswith("@"):
            j -= 1
        if not lines[j].strip().startswith("///"):
            found.append(f"{relative}:{i + 1}: {text[:100]}")
    return found, count


def long_abstracts(relative, lines):
    """The doc comments whose first paragraph is over 150 characters."""
    found = []
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
            found.append(f"{relative}:{i + 1}: abstract of {len(abstract)} characters (at most 150)")
    return found


total, missing, long = 0, [], []
for relative, lines in swift_files():
    if relative.startswith("Sources" + os.sep):
        found, count = undocumented(relative, lines)
        missing += found
        total += count
    long += long_abstracts(relative, lines)
for entry in missing + long:
    print(entry)
print(f"doc-coverage: {total - len(missing)} of {total} public declarations have a /// comment; "
      + f"{len(long)} abstracts over 150 characters")
sys.exit(1 if missing or long else 0)
