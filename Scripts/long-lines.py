#!/usr/bin/env python3
"""Lines over 120 columns in Swift files, and a fixer for the ones that can be split.

Usage: Scripts/long-lines.py [--fix] [PATH ...] (default: Sources Tests Plugins Package.swift)

Without --fix: counts the lines over 120 columns and the places --fix would split, and exits 1
when there is one (`make lint`). What it leaves is a line that cannot be split: a string literal
with no space outside an interpolation before column 120, a raw string, one of several literals
on a line, or a literal where Swift needs one literal (`@Test("…")`, a `case` pattern, a Swift
Testing comment). --all names every line over 120 columns.

With --fix: splits what it can, keeping every value the same:
- a `//` or `///` comment at a space, the rest on a line of its own with the same prefix;
- a line inside a multi-line string literal at a space, with a `\\` line continuation (the next
  line indented as the closing delimiter, so its content is unchanged);
- a line that is one single-line string literal (after `? `, `: `, `+ ` or a label) at a space,
  into `"…" + "…"`.
"""
import os, re, sys

LIMIT = 120


def outside(text):
    """The characters of a literal's content outside `\\(…)` and escapes, with their indices."""
    depth, i = 0, 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            if i + 1 < len(text) and text[i + 1] == "(":
                depth += 1
            i += 2
            continue
        if depth and c == "(":
            depth += 1
        elif depth and c == ")":
            depth -= 1
        elif not depth:
            yield i, c
        i += 1


def split_point(text, start, limit):
    """The index of the last space in text[start:limit] outside `\\(…)`, or None."""
    return max((i for i, c in outside(text) if c == " " and start < i < limit), default=None)


literal_line = re.compile(r'^(\s*(?:[?:+] |== |return |[A-Za-z]\w*: )?)"(.*)"([,)\]]*)$')


def quote_outside_interpolations(body):
    """Whether `body` (a literal's content) has an unescaped quote outside `\\(…)`: then it is not one literal."""
    return any(c == '"' for _, c in outside(body))


forbidden = re.compile(r'@Test\(|@Suite\(|^\s*case "|Comment|StaticString')


def fix_file(path, write=True):
    lines = open(path, encoding="utf-8").read().split("\n")
    out, in_block, closing_indent, changed = [], False, "", 0
    for n, line in enumerate(lines):
        stripped = line.strip()
        opens = stripped.count('"""') % 2 == 1
        if in_block:
            if stripped.startswith('"""'):
                in_block = False
                out.append(line)
                continue
            while len(line) > LIMIT:
                at = split_point(line, len(closing_indent) + 1, LIMIT - 2)
                if at is None:
                    break
                out.append(line[: at + 1] + "\\")
                line = closing_indent + line[at + 1 :]
                changed += 1
            out.append(line)
            continue
        if opens:
            in_block = True
            closing_indent = next(
                (re.match(r"\s*", l).group(0) for l in lines[n + 1 :] if l.strip().startswith('"""')), "")
            out.append(line)
            continue
        comment = re.match(r"^(\s*//[/!]?\s?)(\s*(?:- )?)", line)
        if comment and len(line) > LIMIT:
            prefix = comment.group(1) + (" " * len(comment.group(2)))
            while len(line) > LIMIT:
                at = line.rfind(" ", len(comment.group(0)), LIMIT + 1)
                if at <= len(comment.group(0)):
                    break
                out.append(line[:at])
                line = prefix + line[at + 1 :]
                changed += 1
            out.append(line)
            continue
        m = literal_line.match(line)
        if m and len(line) > LIMIT and not forbidden.search(line) and not quote_outside_interpolations(m.group(2)):
            lead, body, tail = m.group(1), m.group(2), m.group(3)
            indent = re.match(r"\s*", line).group(0)
            pieces, first = [], True
            while True:
                room = LIMIT - len(lead if first else indent + "    + ") - 2 - len(tail)
                if len(body) <= room:
                    break
                at = split_point(body, 0, room)
                if at is None:
                    break
                pieces.append(body[: at + 1])
                body = body[at + 1 :]
                first = False
            if pieces:
                out.append(lead + '"' + pieces[0] + '"')
                for piece in pieces[1:]:
                    out.append(indent + '    + "' + piece + '"')
                out.append(indent + '    + "' + body + '"' + tail)
                changed += len(pieces)
                continue
        out.append(line)
    if changed and write:
        open(path, "w", encoding="utf-8").write("\n".join(out))
    return changed


def swift_files(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
        for d, _, names in os.walk(p):
            for name in sorted(names):
                if name.endswith(".swift"):
                    yield os.path.join(d, name)


args = [a for a in sys.argv[1:] if not a.startswith("--")]
files = list(swift_files(args or ["Sources", "Tests", "Plugins", "Package.swift"]))
if "--fix" in sys.argv:
    print(f"split {sum(fix_file(f) for f in files)} places")
    sys.exit(0)
over = [
    (f, i + 1, l) for f in files for i, l in enumerate(open(f, encoding="utf-8").read().split("\n")) if len(l) > LIMIT
]
splittable = {f: n for f in files if (n := fix_file(f, write=False))}
print(f"{len(over)} lines over {LIMIT} columns; {sum(splittable.values())} places could be split (--fix splits them)")
for f, n in sorted(splittable.items()):
    print(f"{f}: {n} places")
for f, n, l in over if "--all" in sys.argv else []:
    print(f"{f}:{n}: {len(l)}")
sys.exit(1 if splittable else 0)
