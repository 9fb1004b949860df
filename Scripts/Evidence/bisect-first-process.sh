#!/usr/bin/env bash
# bisect --counts, a commit found good from its first process alone: this commit (GOOD), then a comment (c1), a
# change of work in the calendar's layout (c2: a 20-steps-an-event loop in LayoutSubject.run) and another comment
# (c3, BAD). Expected: c2 named; c1 (and any step identical to GOOD) judged from its first process, with no further
# process. Prints the wall time and the progress lines that say which steps were followed up.
# usage: Scripts/Evidence/bisect-first-process.sh [OUTPUT_DIR=/tmp/bisect-first]
set -euo pipefail
root=$(pwd); out=${1:-/tmp/bisect-first}; scratch=$out/clone
rm -rf "$out"; mkdir -p "$out"
git clone -q "$root" "$scratch" && cd "$scratch"
commit() { git -c user.name=evidence -c user.email=evidence@localhost commit -qam "$1"; }
echo "// bisect evidence: a comment" >> Sources/CalendarSubjects/Artwork/ArtworkCache.swift; commit "c1: a comment"
python3 - <<'PY'
p = 'Sources/CalendarSubjects/Subjects/ArtworkPreparationSubject.swift'
s = open(p).read()
old = "        state = layout.days.reduce(0) { $0 + $1.count }\n"
assert old in s
s = s.replace(old, old + "        blackHole(bisectExtraWork(events.count * 20))\n", 1)
s += "\n/// Work added by bisect-first-process.sh.\n@inline(never) func bisectExtraWork(_ n: Int) -> Int {\n"
s += "    var x = 0\n    for i in 0..<n { x = x &* 31 &+ i }\n    return x\n}\n"
open(p, 'w').write(s)
PY
commit "c2: more layout work"
echo "// bisect evidence: another comment" >> Sources/CalendarSubjects/Artwork/ArtworkCache.swift; commit "c3: a comment"
git log --oneline -4
swift build -c release --traits Jemalloc,History --product perfkit > "$out/build.log" 2>&1 || { tail -5 "$out/build.log"; exit 1; }
set +e
/usr/bin/time -f "bisect --counts: %e s" .build/release/perfkit bisect HEAD~3 HEAD \
    --series 'LayoutBenchmarks/variedFixtureLayout() varied-30d [timeline, warm] instructions' > "$out/bisect.txt" 2> "$out/bisect.err"
echo "exit $?"; set -e
grep -E "perfkit bisect|first commit|counted at|shared lookups|bisect --counts" "$out/bisect.err" "$out/bisect.txt" || true
