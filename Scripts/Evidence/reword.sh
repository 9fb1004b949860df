#!/usr/bin/env bash
# The reword test (issue 39, 2026-12-03): every row note rewritten where Comparison stores its rows
# ("REWORDED: " + the note upper-cased) in a scratch clone, then the whole suite; lists the tests that failed.
# usage: Scripts/Evidence/reword.sh [PERFKIT_CLONE_SOURCE=.]
set -uo pipefail
rm -rf /tmp/rw/clone && src=${1:-$(pwd)}; mkdir -p /tmp/rw; git clone -q "$src" /tmp/rw/clone && cd /tmp/rw/clone
python3 - <<'PY'
import re
for p, olds in [('Sources/PerfKit/Comparison/Comparison+Paired.swift', ['self.rows = rows.sorted { $0.id < $1.id }']),
                ('Sources/PerfKit/Comparison/Comparison.swift', ['self.rows = rows'])]:
    s = open(p).read()
    for old in olds:
        n = s.count(old + '\n')
        assert n >= 1, (p, old)
        s = s.replace(old + '\n', old + '\n        self.rows = self.rows.map { var r = $0; r.note = "REWORDED: " + r.note.uppercased(); return r }\n')
    open(p, 'w').write(s)
PY
git diff --stat
PERFKIT_TEST_POSTGRES="$(./Scripts/test-postgres.sh)" swift test --traits Jemalloc,History > /tmp/rw/test.log 2>&1
echo "status $?"
grep -E "✘ Test .* failed|Test run with" /tmp/rw/test.log | sed 's/\x1b\[[0-9;]*m//g' | head -30
