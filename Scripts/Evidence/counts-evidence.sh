#!/usr/bin/env bash
# Evidence for simulated counts (Documentation/Evidence.md, "A/A of counts" and "A 1% change"):
#   1. A/A: two separately built binaries of identical measured code (REV_A, and REV_AA = REV_A plus
#      a comment), the calendar suite counted once per side: nothing may be flagged.
#   2. A 1% change of work (REV_CHANGE: LanePacker.pack does ~1% more work), counted N times: the
#      layout series must be flagged every time, the subjects that do not pack lanes never.
# Usage: Scripts/Evidence/counts-evidence.sh REV_A REV_AA REV_CHANGE [N] [OUT]
set -euo pipefail
a=$1 aa=$2 change=$3 n=${4:-10} out=${5:-/tmp/counts-evidence}
perfkit=${PERFKIT:-.build/release/perfkit}
mkdir -p "$out"
/usr/bin/time -f "A/A wall %e s" "$perfkit" abba "$a" "$aa" --counts --markdown "$out/aa.md" --json "$out/aa.json" > "$out/aa.txt" 2> "$out/aa.err" || true
tail -1 "$out/aa.err" >> "$out/aa.txt"
for i in $(seq 1 "$n"); do
  filter='Benchmarks/'
  [ "$i" -gt 1 ] && filter='ArtworkBenchmarks/|LayoutBenchmarks/|RedrawBenchmarks/|ViewportQueryBenchmarks/'
  "$perfkit" abba "$a" "$change" --counts --filter "$filter" --json "$out/change-$i.json" > "$out/change-$i.txt" 2> "$out/change-$i.err" || true
  head -1 "$out/change-$i.txt"
done
