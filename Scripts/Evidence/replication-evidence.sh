#!/usr/bin/env bash
# Evidence for comparisons against stored baselines (issue: process-level replication).
#   Scripts/replication-evidence.sh PAIRS PROCESSES SLOWDOWN_PERCENT [FIRST_PAIR]
# Each pair: `perfkit run` (saved as a baseline under a scratch root), then a second `perfkit run`
# of the same build (with PERFKIT_TEST_SLOWDOWN_PERCENT=SLOWDOWN in the second run when it is not
# 0: the layout and artwork subjects then take that much longer), then `perfkit compare --json`.
# During odd pairs a release build loops on the other core. Prints, per pair, the timing series
# flagged (wall clock, regressed or improved), split into slowed subjects and the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
pairs="${1:-10}"; processes="${2:-8}"; slowdown="${3:-0}"; first="${4:-1}"
perfkit=.build/release/perfkit
out=".perfkit/evidence/replication-p${processes}-s${slowdown}"
mkdir -p "$out"
swift build -c release --build-tests >/dev/null
load_pid=""
start_load() {
  rm -rf /tmp/perfkit-load && mkdir -p /tmp/perfkit-load && git archive HEAD | tar -x -C /tmp/perfkit-load
  (cd /tmp/perfkit-load && while :; do rm -rf .build; swift build -j 1 >/dev/null 2>&1 || true; done) &
  load_pid=$!
}
stop_load() {
  if [ -n "$load_pid" ]; then
    kill "$load_pid" 2>/dev/null || true          # the loop first, so it starts no new build
    pkill -P "$load_pid" 2>/dev/null || true      # then the build it was running
    wait "$load_pid" 2>/dev/null || true
  fi
  load_pid=""
  return 0
}
trap stop_load EXIT
for pair in $(seq "$first" "$pairs"); do
  if [ $((pair % 2)) -eq 1 ]; then start_load; fi
  # perfkit run exits 1 when a measured test fails (for example a time budget under load): the
  # run file is written all the same, and the failure stays in it.
  "$perfkit" run --processes "$processes" --output "$out/a$pair.json" >/dev/null 2>&1 || true
  rm -rf "$out/Baselines"
  "$perfkit" baseline save a --from "$out/a$pair.json" --root "$out/Baselines" >/dev/null
  if [ "$slowdown" != "0" ]; then
    PERFKIT_TEST_SLOWDOWN_PERCENT="$slowdown" "$perfkit" run --processes "$processes" --output "$out/b$pair.json" >/dev/null 2>&1 || true
  else
    "$perfkit" run --processes "$processes" --output "$out/b$pair.json" >/dev/null 2>&1 || true
  fi
  stop_load
  "$perfkit" compare a --root "$out/Baselines" --current "$out/b$pair.json" --json "$out/c$pair.json" >/dev/null || true
  [ -f "$out/c$pair.json" ] || { echo "pair $pair: compare wrote no JSON"; continue; }
  python3 - "$out/c$pair.json" "$pair" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = [r for r in doc["comparison"]["rows"] if r["metric"]["name"] == "wallClock"]
slowed = ("LayoutBenchmarks", "ArtworkBenchmarks")
def flagged(rs): return [r for r in rs if r["verdict"] in ("regressed", "improved")]
s = [r for r in rows if any(k in r["test"] for k in slowed) and r["measurement"] != "varied-30d"]
o = [r for r in rows if r not in s]
judged = [r for r in rows if r["verdict"] in ("regressed", "improved", "withinNoise", "inconclusive")]
print(f"pair {sys.argv[2]}: {len(rows)} wall-clock series, {len(judged)} judged; flagged: slowed subjects {len(flagged(s))} of {len(s)} "
      f"({sum(r['verdict']=='regressed' for r in s)} regressed), other series {len(flagged(o))} of {len(o)}: "
      + ", ".join(f"{r['test'].split('/')[-1]} {r['measurement']} [{r['arm']}, {r['phase']}] {r['verdict']}" for r in flagged(o)))
PY
done
