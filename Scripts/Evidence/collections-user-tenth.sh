#!/usr/bin/env bash
# Ten separately built binaries of the package's "0.07% more work" commit (collections-user-workflow.sh's third
# commit), each with another unused function at the top of Graph.swift so the library's code sits elsewhere, each
# counted and compared with the baseline saved at base: how often the changed OrderedDictionary series are flagged, and
# how often an untouched series is. usage: collections-user-tenth.sh PACKAGE_FOLDER PERFKIT_TOOL COMMIT [N=10]
set -uo pipefail
cd "$1"; pk=$2; commit=$3; n=${4:-10}; out=$1/../tenth; rm -rf "$out"; mkdir -p "$out"
for i in $(seq 1 "$n"); do
    git -c advice.detachedHead=false checkout -q "$commit"
    { printf '/// Never called (build %s of the same measured code).\npublic func unused%s() -> [Int] { Array(0..<%s) }\n\n' \
        "$i" "$i" "$((i * 7))"; cat Sources/Graph/Graph.swift; } > "$out/Graph.swift" && cp "$out/Graph.swift" Sources/Graph/Graph.swift
    $pk run --counts-only --output "$out/run$i.json" > "$out/run$i.log" 2>&1 || echo "run $i: exit $?"
    $pk compare main --current "$out/run$i.json" --json "$out/compare$i.json" > /dev/null 2>&1
    git checkout -q -- . && git checkout -q main
done
python3 - "$out" "$n" <<'PY'
import json, sys, collections
out, n = sys.argv[1], int(sys.argv[2])
tally = collections.defaultdict(collections.Counter)
for i in range(1, n + 1):
    for r in json.load(open(f"{out}/compare{i}.json"))["comparison"]["rows"]:
        if r["metric"]["name"] == "instructions":
            tally[(r["test"].split("/")[-1], r["measurement"])][r["verdict"]] += 1
for key, verdicts in sorted(tally.items()): print(f"{key[0]} {key[1]}: {dict(verdicts)}")
PY
