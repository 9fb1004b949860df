#!/usr/bin/env bash
# What a rebuilt harness moves (fifth session): the calendar suite counted from this commit's build, then from a
# separately built copy whose only change is harness code linked into the test bundle (an unused function added to
# PerfKit's orchestration); the calendar's own code is identical. Prints counts-paired.py's tally and the
# functions where the differing series moved (counts-diffdumps.py).
# usage: Scripts/Evidence/harness-rebuild.sh [OUT=/tmp/harness-rebuild]
set -euo pipefail
root=$(pwd); out=${1:-/tmp/harness-rebuild}
rm -rf "$out"; mkdir -p "$out"
for side in a b; do
    git clone -q "$root" "$out/$side"
    (
        cd "$out/$side"
        if [ "$side" = b ]; then
            printf '\n/// Harness code the measured code never calls (harness-rebuild.sh).\npackage func harnessRebuilt(_ n: Int) -> Int { (0..<n).reduce(0, &+) }\n' \
                >> Sources/PerfKit/Orchestration/CountingRun.swift
        fi
        swift build -c release --traits Jemalloc,History --product perfkit > "$out/$side-build.log" 2>&1
        /usr/bin/time -f "$side: counting run (its release build included) %e s" \
            .build/release/perfkit run --counts-only --output "$out/$side.json" > "$out/$side.log" 2>&1
        tail -1 "$out/$side.log"
    )
done
python3 "$root/Scripts/Evidence/counts-paired.py" "$out/a.json" "$out/b.json"
python3 "$root/Scripts/Evidence/counts-diffdumps.py" "$out/a.json" "$out/b.json" 6
