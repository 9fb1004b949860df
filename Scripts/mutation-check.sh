#!/usr/bin/env bash
# Mutation check: applies each plausible one-line bug of Scripts/mutants.txt, one at a time, to a
# scratch copy of the working tree and runs the test suite against it. A mutant is killed when the
# build or a test fails, and survives when everything stays green.
#   Scripts/mutation-check.sh [FILTER]   FILTER: only mutants whose area matches this regex
# Prints one line per mutant and a summary; exits 1 if any mutant survived.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="${PERFKIT_MUTATION_SCRATCH:-/tmp/perfkit-mutation}"
# Copy the mutant list first: it may be edited while the check runs.
mutants="$(mktemp)"; cp "$(cd "$(dirname "$0")" && pwd)/mutants.txt" "$mutants"
filter="${1:-.}"
mkdir -p "$scratch"
# Keep the scratch .build between runs: each mutant then costs an incremental build.
# A fresh scratch every time: object files of an earlier run's mutants must not survive.
rm -rf "$scratch/src"
mkdir -p "$scratch/src"
tar -C "$root" --exclude=./.build --exclude=./.perfkit --exclude=./.git -cf - . | tar -C "$scratch/src" -xf -
cd "$scratch/src"
swift build --build-tests -q >/dev/null 2>&1 || { echo "the unmutated tree does not build"; exit 2; }
killed=0; survived=0; unbuilt=0; total=0; survivors=()
while IFS= read -r line; do
  [[ -z "$line" || "$line" == \#* ]] && continue
  # Fields are separated by " | " (a code "||" has no spaces around a single bar, so it stays whole).
  area="${line%% | *}"; rest="${line#* | }"
  file="${rest%% | *}"; rest="${rest#* | }"
  find="${rest%% | *}"; replace="${rest#* | }"
  [[ "$area" =~ $filter ]] || continue
  total=$((total + 1))
  count=$(grep -cF -- "$find" "$file" || true)
  if [ "$count" != "1" ]; then echo "STALE     $area: '$find' occurs $count times in $file"; survivors+=("$area (stale)"); survived=$((survived + 1)); continue; fi
  cp "$file" "$file.orig"
  FIND="$find" REPLACE="$replace" python3 -c 'import os,sys; p=sys.argv[1]; s=open(p).read(); open(p,"w").write(s.replace(os.environ["FIND"], os.environ["REPLACE"], 1))' "$file"
  start=$(date +%s)
  if ! swift build --build-tests -q >/tmp/perfkit-mutant-build.log 2>&1; then
    # A mutant that does not compile proves nothing about the tests: listed apart, not counted as killed.
    echo "NOBUILD   $area: $(grep -m1 'error:' /tmp/perfkit-mutant-build.log | cut -c1-120)"; unbuilt=$((unbuilt + 1))
  elif swift test --skip-build >/tmp/perfkit-mutant.log 2>&1; then
    echo "SURVIVED  $area ($(( $(date +%s) - start )) s)"; survived=$((survived + 1)); survivors+=("$area")
  else
    by=$(grep -m1 -oE '✘ Test [^ ]+' /tmp/perfkit-mutant.log | cut -c10- )
    echo "killed    $area ($(( $(date +%s) - start )) s, by $by)"; killed=$((killed + 1))
  fi
  mv "$file.orig" "$file"
  # The restored file keeps the copy's older time stamp; without a fresh one the incremental
  # build would keep the mutant's object file and contaminate every later mutant.
  touch "$file"
done < "$mutants"
swift build --build-tests -q >/dev/null 2>&1
built=$((total - unbuilt))
echo "mutants: $total ($unbuilt did not compile), killed: $killed of $built ($(( built ? 100 * killed / built : 0 ))%), survived: $survived"
for s in "${survivors[@]}"; do echo "  survivor: $s"; done
[ "$survived" -eq 0 ]
