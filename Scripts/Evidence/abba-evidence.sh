#!/usr/bin/env bash
# Evidence for `perfkit abba` with default settings (adaptive rounds, ±1% band), between two
# separately built binaries of identical measured code: A is this commit, B an empty commit on top
# of it, each built in its own worktree. Per repeat, two sessions with a fresh seed:
#   A/A   — nothing changed; a series flagged regressed OR improved is a false alarm;
#   slow  — PERFKIT_TEST_SLOWDOWN_PERCENT=$3 in B's processes (the layout subject's work stretched);
#           "detected" means the pre-declared target series ($4) was flagged regressed.
# Everything runs in a scratch clone, so the repository is left as it was. Rates get 95%
# Clopper–Pearson intervals (scipy when available).
# Usage: Scripts/abba-evidence.sh [REPEATS=40] [FILTER=variedFixtureLayout] [SLOWDOWN=3] [TARGET]
#   SLOW_REPEATS=N   slowdown sessions (default REPEATS), in the first N repeats
#   ABBA_ARGS="..."  extra abba options for every session (default "--samples 400": the test's
#                    own 20 samples cover a few milliseconds of one process; 400 cover ~80 ms)
set -uo pipefail
repeats=${1:-40}
filter=${2:-variedFixtureLayout}
slowdown=${3:-3}
target=${4:-'variedFixtureLayout()|varied-30d|timeline|warm|wallClock'}
slow_repeats=${SLOW_REPEATS:-$repeats}
abba_args=${ABBA_ARGS:---samples 400}
root=$(pwd)
out=$root/.perfkit/evidence/abba-$(date -u +%Y%m%d-%H%M%S)
scratch=$(mktemp -d /tmp/perfkit-abba-evidence.XXXXXX)
mkdir -p "$out"
git clone -q "$root" "$scratch" && cd "$scratch" || exit 2
git -c user.name=evidence -c user.email=evidence@localhost commit -q --allow-empty -m "no-op: identical measured code, built separately"
a=$(git rev-parse --short=12 HEAD~1)
b=$(git rev-parse --short=12 HEAD)
swift build -c release --product perfkit >"$out/build.log" 2>&1 || { echo "build failed: $out/build.log" >&2; exit 3; }
perfkit=$scratch/.build/release/perfkit
started=$(date +%s)
for k in $(seq 1 "$repeats"); do
  # shellcheck disable=SC2086
  "$perfkit" abba "$a" "$b" --filter "$filter" --seed "$k" $abba_args --json "$out/aa-$k.json" >"$out/aa-$k.txt" 2>"$out/aa-$k.err" || true
  if [ "$k" -le "$slow_repeats" ]; then
    # shellcheck disable=SC2086
    "$perfkit" abba "$a" "$b" --filter "$filter" --seed "$k" $abba_args --env-b "PERFKIT_TEST_SLOWDOWN_PERCENT=$slowdown" \
      --json "$out/slow-$k.json" >"$out/slow-$k.txt" 2>"$out/slow-$k.err" || true
  fi
  echo "repeat $k done ($(( $(date +%s) - started )) s)" >&2
done
echo "A = $a, B = $b (empty commit), filter $filter, abba options '$abba_args', slowdown $slowdown% in $slow_repeats, $repeats A/A repeats, $(( $(date +%s) - started )) s; files in $out"
python3 - "$out" "$repeats" "$target" <<'EOF'
import json, sys, glob, os
out, repeats, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
try:
    from scipy.stats import beta
    def cp(k, n):
        lo = 0.0 if k == 0 else beta.ppf(0.025, k, n - k + 1)
        hi = 1.0 if k == n else beta.ppf(0.975, k + 1, n - k)
        return f"{100*lo:.1f}–{100*hi:.1f}%"
except ImportError:
    def cp(k, n): return "(scipy missing: no interval)"
def rows(path):
    return json.load(open(path))["comparison"]["rows"]
def key(r): return "|".join([r["test"], r["measurement"], r["arm"], r["phase"], r["metric"]["name"]])
def flagged(rs): return [r for r in rs if r["verdict"] in ("regressed", "improved")]
timing = lambda rs: [r for r in rs if r["metric"]["unit"] == "ns" and r.get("pValue") is not None]
aa_any = aa_series = aa_total = within = 0; ran = slow_ran = 0
detected = slow_flag_other = 0; rounds = []
for k in range(1, repeats + 1):
    a, s = f"{out}/aa-{k}.json", f"{out}/slow-{k}.json"
    if os.path.exists(a):
        ran += 1
        ra = timing(rows(a))
        fa = flagged(ra)
        aa_any += bool(fa); aa_series += len(fa); aa_total += len(ra)
        within += sum(r["verdict"] == "withinNoise" for r in ra)
        print(f"repeat {k}: A/A flagged {len(fa)} of {len(ra)} ({', '.join(r['verdict'] + ' ' + key(r) for r in fa) or 'none'}); "
              + "; ".join(f"{r['arm']} {r['verdict']} {100*(r['change']['value']-1):+.1f}% [{100*(r['change']['lower']-1):+.1f}, {100*(r['change']['upper']-1):+.1f}]" for r in ra if r.get('change')))
    if os.path.exists(s):
        slow_ran += 1
        t = [r for r in timing(rows(s)) if key(r).endswith(target)]
        hit = any(r["verdict"] == "regressed" for r in t)
        detected += hit
        print(f"repeat {k}: slowdown target {'regressed' if hit else (t[0]['verdict'] if t else 'missing')}"
              + (f" {100*(t[0]['change']['value']-1):+.1f}% [{100*(t[0]['change']['lower']-1):+.1f}, {100*(t[0]['change']['upper']-1):+.1f}]; {t[0]['note'][-120:]}" if t and t[0].get('change') else ""))
print(f"A/A: {aa_any} of {ran} repeats flagged any timing series in either direction (95% CI {cp(aa_any, ran)}); "
      f"{aa_series} of {aa_total} series decisions flagged ({cp(aa_series, aa_total)}); {within} of {aa_total} within noise")
print(f"{target} slowed: detected (regressed) in {detected} of {slow_ran} repeats (95% CI {cp(detected, slow_ran)})")
EOF
rm -rf "$scratch"
