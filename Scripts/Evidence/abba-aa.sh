#!/usr/bin/env bash
# A/A of `perfkit abba` with default settings between two separately built binaries of identical
# measured code: this commit (A) and an empty commit on top of it (B), in a scratch clone so the
# repository is left as it was. Prints the answer, the looks taken and the wall time of the abba
# command, both worktree builds included (the perfkit build before it is timed apart).
# Usage: Scripts/abba-aa.sh [FILTER=Benchmarks/] [OUTPUT_DIR=.perfkit/evidence/aa-<time>]
set -euo pipefail
filter=${1:-Benchmarks/}
root=$(pwd)
out=${2:-$root/.perfkit/evidence/aa-$(date -u +%Y%m%d-%H%M%S)}
mkdir -p "$out"
scratch=$(mktemp -d /tmp/perfkit-abba-aa.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
git clone -q "$root" "$scratch" && cd "$scratch"
git -c user.name=evidence -c user.email=evidence@localhost commit -q --allow-empty -m "no-op: identical measured code, built separately"
started=$(date +%s)
swift build -c release --product perfkit >"$out/build.log" 2>&1
echo "perfkit built in $(( $(date +%s) - started )) s"
started=$(date +%s)
set +e
.build/release/perfkit abba HEAD~1 HEAD --filter "$filter" --markdown "$out/aa.md" --json "$out/aa.json" >"$out/aa.txt" 2>"$out/aa.err"
status=$?
set -e
echo "abba HEAD~1 HEAD (both release builds included): $(( $(date +%s) - started )) s, exit $status"
cat "$out/aa.txt"
grep -o "Looks taken: [^.]*\. Stopped at [^.]*" "$out/aa-full.md" | head -1 || true
python3 - "$out/aa.json" <<'EOF'
import json, sys, collections, math
rows = json.load(open(sys.argv[1]))["comparison"]["rows"]
timing = [r for r in rows if r["metric"]["unit"] == "ns" and r.get("pValue") is not None]
count = collections.Counter(r["verdict"] for r in timing)
within = count.get("withinNoise", 0)
print(f"timing series judged: {len(timing)}; {dict(count)}; within noise {within} of {len(timing)} ({100 * within / max(len(timing), 1):.0f}%)")
# CI half-widths shrink about as 1/sqrt(rounds): the rounds an inconclusive series would need for
# its CI to fit inside its band, at the spread measured then (Evidence.md).
needs = []
for r in timing:
    c = r.get("change")
    if r["verdict"] != "inconclusive" or not c or not c["lower"] or not c["upper"]:
        continue
    half = (math.log(c["upper"]) - math.log(c["lower"])) / 2
    band = math.log(1 + r["noiseBand"])
    needs.append((half, band))
if needs:
    print("inconclusive series: CI half-width / band: " + ", ".join(f"{h / b:.1f}" for h, b in sorted(needs))
          + " (rounds needed ≈ rounds run × that ratio squared)")
EOF
