#!/usr/bin/env python3
"""Every `try?` in Sources says why its error may be dropped: a comment on its line or one of the two before it.

Run by `make lint`; prints each unexplained `try?` (file:line) and exits 1 when there is one. A thrown, named error
or a named helper (`FileManager.removeLitter`, `names(in:)`) is the other way to pass.
"""
import pathlib
import subprocess
import sys

root = pathlib.Path(subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                                   check=True).stdout.strip())
unexplained = []
for path in sorted((root / "Sources").rglob("*.swift")):
    lines = path.read_text(encoding="utf-8").split("\n")
    for number, line in enumerate(lines):
        if "try?" not in line or line.strip().startswith("//"):
            continue
        before = [lines[k].strip() for k in range(max(0, number - 2), number)]
        if "//" in line.split("try?")[-1] or any(b.startswith("//") for b in before):
            continue
        unexplained.append(f"{path.relative_to(root)}:{number + 1}: try? without a reason")
for entry in unexplained:
    print(entry)
print(f"try-audit: {len(unexplained)} unexplained try?")
sys.exit(1 if unexplained else 0)
