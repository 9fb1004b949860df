#!/usr/bin/env python3
"""Why SwiftPM's build reran a command: two copies of llbuild's build database (SwiftPM's
`<scratch>/build.db`, SQLite), taken before and after a build, compared rule by rule.

usage: build-db-diff.py BEFORE.db AFTER.db [SHOWN]
Prints how many rules were rebuilt, the first SHOWN of them (default 20) in the order they started,
each with its command signature before and after (a changed signature means the command line itself
changed: compare the two `release.yaml`s), and every node whose value changed without a rule
building it (a file something outside the build touched)."""
import sqlite3
import sys


def load(path):
    connection = sqlite3.connect(path)
    rows = connection.execute(
        "select k.key, r.value, r.signature, r.built_at, r.start from rule_results r "
        "join key_names k on k.id = r.key_id").fetchall()
    return {key: (value, signature, built, start) for key, value, signature, built, start in rows}


def main():
    before, after = load(sys.argv[1]), load(sys.argv[2])
    shown = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    rebuilt = [k for k in after if k in before and after[k][2] != before[k][2]]
    changed = {k for k in after if k in before and after[k][0] != before[k][0]}
    print(f"{len(after)} rules, {len(rebuilt)} rebuilt, {len(changed)} with a new value")
    for key in sorted(rebuilt, key=lambda k: after[k][3] or 0)[:shown]:
        kind = "command" if key.startswith("C") else "node"
        signatures = f"signature {before[key][1]} -> {after[key][1]}" if kind == "command" else ""
        print(f"rebuilt {kind} {key[1:][:150]} {signatures}")
    for key in sorted(changed - set(rebuilt)):
        print(f"changed without a rebuild: {key[1:][:150]}")


if __name__ == "__main__":
    main()
