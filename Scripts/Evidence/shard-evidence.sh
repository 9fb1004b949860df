#!/usr/bin/env bash
# The shard merge of the calendar suite against the unsharded run (Documentation/Evidence.md,
# "Sharded runs"): counts-only runs of the whole suite and of its 2 shards, the shards merged,
# then every simulated count series compared value by value.
# usage: Scripts/Evidence/shard-evidence.sh PERFKIT_BINARY OUT_FOLDER   (run in a PerfKit checkout)
set -euo pipefail
perfkit=$1 out=$2
mkdir -p "$out"
"$perfkit" run --counts-only --output "$out/full.json" > "$out/full.log" 2>&1
"$perfkit" run --counts-only --shard 1/2 --output "$out/shard-1.json" > "$out/shard-1.log" 2>&1
"$perfkit" run --counts-only --shard 2/2 --output "$out/shard-2.json" > "$out/shard-2.log" 2>&1
"$perfkit" merge "$out/shard-1.json" "$out/shard-2.json" --output "$out/merged.json"
python3 - "$out/full.json" "$out/merged.json" <<'PY'
import json, sys
def counts(path):
    run = json.load(open(path))
    return {(t["id"], m["name"], s["arm"], s["phase"]): s["values"]
            for t in run["tests"] for m in t["measurements"] for s in m["series"] if s["metric"]["name"] == "instructions"}
full, merged = counts(sys.argv[1]), counts(sys.argv[2])
same = sum(1 for k in full if merged.get(k) == full[k])
print(f"{len(full)} count series in the unsharded run, {len(merged)} in the merge; {same} identical value by value")
sys.exit(0 if same == len(full) == len(merged) else 1)
PY
