#!/usr/bin/env bash
# The whole workflow on the package collections-user.sh made: a baseline and a history
# entry at "base", then three commits (a README line; about 0.07% more work in orderedWeights, whose OrderedDictionary is
# seeded by its storage address; about 10% more in treeCounts), a counting run and `compare` at the last,
# `abba --counts` of the small change alone, `bisect` for the tree, and the history of all four commits.
# usage: collections-user-workflow.sh PACKAGE_FOLDER PERFKIT_TOOL   (both made by collections-user.sh, whose tool has
# the History trait and its own scratch path: a `perfkit run` in PerfKit's checkout rebuilds .build/release without it)
set -uo pipefail
cd "$1"; pk=$2; out=$1/../workflow; rm -rf "$out"; mkdir -p "$out"
base=$(git rev-parse HEAD); store=$out/history.sqlite
step() { echo "== $* ($(date +%T))"; }
step "counting run at base"; $pk run --counts-only --output "$out/base.json" > "$out/base.log" 2>&1; echo "exit $?"
$pk baseline save main --from "$out/base.json" 2>&1 | tail -1
$pk history record --store "$store" --from "$out/base.json" 2>&1 | tail -1
echo "Benchmarks over swift-collections." > README.md && git add README.md && git commit -qm "README"
# Replaces the first OLD by NEW in Sources/Graph/Graph.swift and commits with MESSAGE.
change() {
    python3 - "$1" "$2" <<'PY'
import sys
p = 'Sources/Graph/Graph.swift'
s = open(p).read()
assert sys.argv[1] in s, "the text to change is not in " + p
open(p, 'w').write(s.replace(sys.argv[1], sys.argv[2], 1))
PY
    git commit -qam "$3"
}
change $'    return totals.values.reduce(0, &+)\n}' \
    $'    return totals.values.reduce(0, &+) &+ spin(nodes.count / 3)\n}\n\n/// A little more work per node (the 0.1% change).\n@inline(never) func spin(_ n: Int) -> Int {\n    var x = 0\n    for i in 0..<n { x = x &* 31 &+ i }\n    return x & 1\n}' \
    "orderedWeights: a little more work per node"
change $'    for word in words { counts[word, default: 0] += 1 }\n    return counts.count\n}' \
    $'    for word in words { counts[word, default: 0] += 1 }\n    for word in words.prefix(words.count / 10) { counts[word, default: 0] += 0 }\n    return counts.count\n}' \
    "treeCounts: a second pass over a tenth of the words"
git log --oneline | head -4
step "counting run at the last commit"; $pk run --counts-only --output "$out/last.json" > "$out/last.log" 2>&1; echo "exit $?"
step "compare main"; $pk compare main --current "$out/last.json" --markdown "$out/pr.md" --fail-on regression \
    > "$out/compare.txt" 2>&1; echo "exit $?"; cat "$out/compare.txt" | head -30
step "abba HEAD~2 HEAD~1 --counts"
/usr/bin/time -f "abba: %e s" $pk abba HEAD~2 HEAD~1 --counts --markdown "$out/abba.md" > "$out/abba.txt" \
    2> "$out/abba.err"; echo "exit $?"; tail -1 "$out/abba.err"; head -30 "$out/abba.txt"
step "bisect base HEAD treeDictionary"
/usr/bin/time -f "bisect: %e s" $pk bisect "$base" HEAD --series 'GraphBenchmarks/treeDictionary()' \
    > "$out/bisect.txt" 2> "$out/bisect.err"; echo "exit $?"; tail -1 "$out/bisect.err"; cat "$out/bisect.txt"
step "history of the four commits"
for rev in $(git rev-parse HEAD~2 HEAD~1); do   # hashes: HEAD~1 after checking out HEAD~2 would be base
    git -c advice.detachedHead=false checkout -q "$rev"
    $pk run --counts-only --output "$out/h-$rev.json" > "$out/h-$rev.log" 2>&1
    $pk history record --store "$store" --from "$out/h-$rev.json" 2>&1 | tail -1
done
git checkout -q main
$pk history record --store "$store" --from "$out/last.json" 2>&1 | tail -1
$pk history show --store "$store" --markdown "$out/history.md" 2>&1 | head -30
