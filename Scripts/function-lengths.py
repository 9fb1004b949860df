#!/usr/bin/env python3
"""Declarations (functions, initializers, computed properties, closures stored as `let`) longer
than a limit, in Swift files, from the declaration's first line to its closing brace.

Usage: Scripts/function-lengths.py [--limit N] [--check] [PATH ...]
(default: Sources Tests Plugins, limit 60). Prints each long declaration with its length, longest
first; with --check exits 1 when one is not a data table listed in TABLES below.
"""
import os, re, sys

# Declarations that are data, not steps: a table reads best in one place.
TABLES = {"perfkit", "table", "builtIn"}

start = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|static|override|mutating|"
    r"nonisolated|final|convenience|required|@discardableResult)\s+)*"
    r"(?:func\s+(\w+)|(init)[?!]?\s*[(<]|var\s+(\w+)\s*:[^=]*\{\s*$|(?:static\s+)?let\s+(\w+)\s*(?::[^=]*)?=\s*(?:VerbTable|\[|\{))")


def strip(line):
    """The line's code without string contents (interpolations included: a string literal inside
    `\\(…)` would otherwise end the outer one early) and without a trailing comment."""
    line = line.replace('"""', "")  # a multi-line string's delimiter: its lines are skipped by the caller
    out, i, n = [], 0, len(line)
    stack = []  # "s": inside a string; an int: open parentheses inside an interpolation
    while i < n:
        c, top = line[i], (stack[-1] if stack else None)
        if top == "s":
            if c == "\\" and line[i + 1 : i + 2] == "(":
                stack.append(0)
                i += 2
                continue
            if c == '"':
                stack.pop()
            i += 2 if c == "\\" else 1
            continue
        if c == '"':
            stack.append("s")
            if not stack[:-1]:
                out.append('""')
            i += 1
            continue
        if c == "/" and line[i + 1 : i + 2] == "/":
            break
        if isinstance(top, int):
            if c == "(":
                stack[-1] += 1
            elif c == ")":
                if top == 0:
                    stack.pop()
                else:
                    stack[-1] -= 1
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def declarations(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    found, in_block = [], False
    for i, line in enumerate(lines):
        if line.count('"""') % 2 == 1:
            in_block = not in_block
            continue
        if in_block:
            continue
        m = start.match(line)
        if not m:
            continue
        name = next(g for g in m.groups() if g)
        # The body opens on the first line that ends with `{` (or `[`, `(` for a table); default
        # arguments' closures in a signature open and close on their own lines.
        first = strip(line)
        if "{" in first and first.count("{") == first.count("}"):
            continue  # a one-line body
        body = None
        for j in range(i, min(len(lines), i + 15)):
            t = strip(lines[j]).rstrip()
            if t.endswith(("{", "[", "(")):
                body = j
                break
            if j > i and (not t or t.lstrip().startswith(("///", "@", "func ", "let ", "var "))):
                break
            if m.group(4):  # a stored `let`: its table or closure opens on its own line
                break
        if body is None:
            continue
        depth, j, block = 0, body, False
        while j < len(lines):
            text = lines[j]
            if text.count('"""') % 2 == 1:
                block = not block
            if not block:
                t = strip(text)
                depth += t.count("{") + t.count("[") + t.count("(") - t.count("}") - t.count("]") - t.count(")")
            if depth <= 0:
                break
            j += 1
        found.append((j - i + 1, name, i + 1))
    return found


args = sys.argv[1:]
limit = 60
if "--limit" in args:
    limit = int(args[args.index("--limit") + 1])
    del args[args.index("--limit") : args.index("--limit") + 2]
check = "--check" in args
paths = [a for a in args if not a.startswith("--")] or ["Sources", "Tests", "Plugins"]
long = []
for root in paths:
    for d, _, names in os.walk(root):
        for n in sorted(names):
            if n.endswith(".swift"):
                f = os.path.join(d, n)
                long += [(length, name, f, line) for length, name, line in declarations(f) if length > limit]
long.sort(reverse=True)
steps = [x for x in long if x[1] not in TABLES]
print(f"{len(long)} declarations over {limit} lines ({len(long) - len(steps)} data tables)")
for length, name, f, line in long:
    print(f"  {length:4d}  {name}  {f}:{line}" + ("  (table)" if name in TABLES else ""))
sys.exit(1 if check and steps else 0)
