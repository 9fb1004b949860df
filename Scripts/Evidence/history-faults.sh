#!/usr/bin/env bash
# The history store under faults (Documentation/Evidence.md, "History"): in a throwaway repository,
# 20 records of a 3,000-series run killed with SIGKILL at a random moment of the record (0 to 1.3
# times the duration of an unkilled record just before), in an SQLite file and in PostgreSQL;
# after each, the commit's rows are counted and their values read: all old, all new, or a mixture.
# usage: Scripts/Evidence/history-faults.sh PERFKIT_BINARY POSTGRES_URL
set -euo pipefail
perfkit=$1 url=$2
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cd "$work"
git init -q -b main && git -c user.email=e@x -c user.name=e commit -q --allow-empty -m one
commit=$(git rev-parse HEAD)
python3 - "$commit" <<'PY'
import json, sys
commit = sys.argv[1]
machine = {"cpuModel": "cpu", "cores": 2, "kernel": "k", "operatingSystem": "os", "memoryBytes": 1 << 34}
env = {"commit": commit, "branch": "main", "dirty": False, "swiftVersion": "6.3.1", "buildConfiguration": "release", "machine": machine, "allocator": "jemalloc"}
for version in (1, 2):
    tests = [{"id": f"S{k}/t()", "suite": f"S{k}", "budgets": [], "measurements": [{"name": "m", "arms": ["main"], "order": [], "unavailable": [],
              "series": [{"metric": {"name": "mallocs", "unit": "count", "polarity": "smallerIsBetter", "kind": "componentCost", "isDeterministic": True, "scope": "thread"},
                          "arm": "main", "phase": "warm", "values": [version] * 5, "rounds": list(range(5)), "positions": [0] * 5, "iterations": list(range(5))}]}]}
             for k in range(3000)]
    json.dump({"schemaVersion": 4, "date": "2026-12-01T00:00:00Z", "mode": "measure", "environment": env, "tests": tests}, open(f"v{version}.json", "w"))
PY
schema="faults_$RANDOM"
for store in "$work/h.sqlite" "$url${url//[^?]/}$( [[ $url == *\?* ]] && echo '&' || echo '?' )options=-csearch_path%3D$schema"; do
  old=0 new=0 mixed=0
  for trial in $(seq 1 20); do
    a=$(( (trial % 2) + 1 )); b=$(( 3 - a ))
    start=$(date +%s%N); "$perfkit" history record --from "v$a.json" --store "$store" > /dev/null; took=$(( $(date +%s%N) - start ))
    "$perfkit" history record --from "v$b.json" --store "$store" > /dev/null 2>&1 & pid=$!
    sleep "$(python3 -c "import random; print(random.random() * 1.3 * $took / 1e9)")"
    kill -9 "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
    if [[ $store == *.sqlite ]]; then
      read -r rows values < <(python3 -c "import sqlite3; c = sqlite3.connect('$store'); r = c.execute('select count(*), group_concat(distinct value) from perfkit_history').fetchone(); print(r[0], r[1])")
    else
      read -r rows values < <(psql "${url}" -tA -F' ' -c "select count(*), string_agg(distinct value::text, ',') from $schema.perfkit_history")
    fi
    if [ "$rows" = 3000 ] && [ "$values" = "$a" -o "$values" = "$a.0" ]; then old=$((old + 1))
    elif [ "$rows" = 3000 ] && [ "$values" = "$b" -o "$values" = "$b.0" ]; then new=$((new + 1))
    else mixed=$((mixed + 1)); echo "trial $trial: $rows rows, values $values" >&2; fi
  done
  echo "${store%%\?*}: 20 killed records: $old left the old entry, $new the new one, $mixed a mixture or nothing"
done
