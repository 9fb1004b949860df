#!/usr/bin/env bash
# A/A of `perfkit abba --counts` (issue 37): this commit (A) and a commit on top of it that adds a comment to a
# compiled file (B), so B is a separately built binary of identical measured code, built from A's build products.
# Prints the wall time of the perfkit build and of the abba command (both release builds of the tests included)
# and how many count series were identical in every sample (verdict "unchanged").
# With KIND=layout, B instead appends an unused function to PerfKit's orchestration (linked into the test bundle):
# the measured code is identical, but the bundle's code sits elsewhere, as in a build whose other code changed.
# usage: Scripts/Evidence/abba-counts-aa.sh [OUTPUT_DIR=/tmp/abba-counts-aa] [KIND=comment|layout]
set -euo pipefail
root=$(pwd); out=${1:-/tmp/abba-counts-aa}; scratch=$out/clone
rm -rf "$out"; mkdir -p "$out"
git clone -q "$root" "$scratch" && cd "$scratch"
if [ "${2:-comment}" = layout ]; then
    printf '\n/// Code the measured code never calls (abba-counts-aa.sh layout).\npackage func aaLayout(_ n: Int) -> Int { (0..<n).reduce(0, &+) }\n' \
        >> Sources/PerfKit/Counting/CountingRun.swift
else
    echo "// A/A: identical measured code, built separately" >> Sources/CalendarSubjects/Artwork/ArtworkCache.swift
fi
git -c user.name=evidence -c user.email=evidence@localhost commit -qam "A/A: ${2:-comment}"
/usr/bin/time -f "perfkit build: %e s" swift build -c release --traits Jemalloc,History --product perfkit \
    > "$out/build.log" 2>&1 || { tail -5 "$out/build.log"; exit 1; }
tail -1 "$out/build.log"
set +e
/usr/bin/time -f "abba --counts (both release builds included): %e s" .build/release/perfkit abba HEAD~1 HEAD \
    --counts --filter Benchmarks/ --markdown "$out/aa.md" --json "$out/aa.json" > "$out/aa.txt" 2> "$out/aa.err"
echo "exit $?"; set -e
tail -1 "$out/aa.err"; cat "$out/aa.txt"
python3 - "$out/aa.json" <<'PY'
import json, sys, collections
rows = json.load(open(sys.argv[1]))["comparison"]["rows"]
counts = [r for r in rows if r["metric"]["name"] == "instructions"]
print(f"count series: {len(counts)}; verdicts {dict(collections.Counter(r['verdict'] for r in counts))}")
for r in counts:
    if r["verdict"] != "unchanged":
        print(f"  {r['test']} {r['measurement']} {r['phase']}: {r['verdict']}; {r.get('note')}")
PY
