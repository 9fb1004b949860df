#!/usr/bin/env bash
# Evidence for `perfkit abba` with default settings: A/A repeats (the same build against itself)
# and repeats with a 3% slowdown injected into arm B through the test-only switch
# PERFKIT_TEST_SLOWDOWN_PERCENT in the measured layout subject. A repeat "flags a regression" when
# `perfkit abba ... --fail-on regression` exits with status 1.
# Usage: Scripts/abba-evidence.sh [REPEATS] [FILTER]
set -uo pipefail
repeats=${1:-20}
filter=${2:-historyLayout}
perfkit=.build/release/perfkit
out=.perfkit/evidence
mkdir -p "$out"
aa=0; slow=0
for k in $(seq 1 "$repeats"); do
  $perfkit abba . . --filter "$filter" --seed "$k" --fail-on regression --json "$out/aa-$k.json" >"$out/aa-$k.txt" 2>/dev/null
  [ $? -eq 1 ] && aa=$((aa + 1))
  $perfkit abba . . --filter "$filter" --seed "$k" --fail-on regression --env-b PERFKIT_TEST_SLOWDOWN_PERCENT=3 --json "$out/slow-$k.json" >"$out/slow-$k.txt" 2>/dev/null
  [ $? -eq 1 ] && slow=$((slow + 1))
  echo "repeat $k: A/A flagged so far $aa, 3% slowdown detected so far $slow" >&2
done
echo "A/A: $aa of $repeats repeats flagged a regression; 3% slowdown: detected in $slow of $repeats repeats (filter $filter, default settings)"
