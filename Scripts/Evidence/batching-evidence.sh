#!/usr/bin/env bash
# Evidence for batched timing (issue: measure correctly at every scale).
#   Scripts/batching-evidence.sh [REPEATS]
# Builds perfkit in release and runs `perfkit doctor --batching` REPEATS times (default 20), each
# in a fresh process: a 33-step xor-shift-multiply chain measured through the runner against the
# same body in a 1,000,000-call loop, and the 34-step body (+3.0%) compared with it in 30 ABBA rounds.
# Prints each repeat's line and a summary: the worst error against the loop, and how many repeats
# flagged the change as a regression.
set -euo pipefail
cd "$(dirname "$0")/.."
repeats="${1:-20}"
swift build -c release --product perfkit >/dev/null
out=".perfkit/evidence/batching"
mkdir -p "$out"
: >"$out/lines.txt"
for i in $(seq 1 "$repeats"); do
  .build/release/perfkit doctor --batching | tail -3 >"$out/$i.txt"
  measured=$(grep -o 'error [-+0-9.]*%' "$out/$i.txt" | tr -d 'error %')
  verdict=$(grep -o 'verdict [a-zA-Z]*' "$out/$i.txt" | cut -d' ' -f2)
  line=$(sed -n 2,3p "$out/$i.txt" | tr -s ' ' | tr '\n' ' ')
  echo "repeat $i: $line" | tee -a "$out/lines.txt"
  echo "$measured $verdict" >>"$out/summary.txt.$$"
done
awk -v n="$repeats" '{ e = $1 < 0 ? -$1 : $1; if (e > worst) worst = e; if ($2 == "regressed") d++ }
  END { printf "worst |error| against the 1,000,000-call loop: %.1f%%; change detected in %d of %d repeats\n", worst, d, n }' "$out/summary.txt.$$"
rm -f "$out/summary.txt.$$"
