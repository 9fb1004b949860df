#!/usr/bin/env bash
# After hash-package.sh: a 0.1% change of work in an address-following body (`weights`, a dictionary keyed by
# ObjectIdentifier: a call of a separate 1,300-step loop, about 2,000 of 2,008,495 instructions (500 steps counted 770), so the dictionary
# loop's own code is compiled as before; six more dictionary updates were tried first and compiled the hot loop
# differently, counting 0.2% fewer instructions), built separately, counted
# RUNS times and compared each time with the first build's baseline. Counts how often the changed series and the
# untouched ones are flagged.  usage: tenth-percent.sh [RUNS]   (default 10)
set -euo pipefail
runs=${1:-10}; cd /tmp/hashes
tool=/tmp/hashes/perfkit/.build/release/perfkit
(cd hashes && $tool baseline save base --from "$(ls .perfkit/runs/2*.json | head -1)" >/dev/null)
rm -rf tenth && cp -r hashes-b tenth && cd tenth && rm -rf .build .perfkit Baselines && cp -r ../hashes/Baselines .
python3 - <<'PY'
p = 'Sources/Hashes/Hashes.swift'
s = open(p).read()
s = s.replace("    for node in nodes { totals[ObjectIdentifier(node), default: 0] += node.weight }",
              "    for node in nodes { totals[ObjectIdentifier(node), default: 0] += node.weight }\n"
              "    if extraWork(1_300) == 42, let first = nodes.first { totals[ObjectIdentifier(first)] = 0 }", 1)
s += "\n/// About 2,000 instructions of work.\n@inline(never) func extraWork(_ n: Int) -> Int {\n"
s += "    var x = 0\n    for i in 0..<n { x = x &* 31 &+ i }\n    return x\n}\n"
open(p, 'w').write(s)
PY
flagged=0; untouched=0
for n in $(seq 1 $runs); do
  $tool run --counts-only > run$n.log 2>&1
  out=$($tool compare base 2>&1 || true)
  echo "$out" | grep -q "regressed .*identityDictionary" && flagged=$((flagged+1))
  others=$(echo "$out" | grep -E "^ *- (regressed|improved)" | grep -vc identityDictionary || true)
  untouched=$((untouched+others))
  [ $n = 1 ] && echo "$out" | grep -E "regressed|improved|within|unchanged" | head -6
done
echo "changed series flagged in $flagged of $runs comparisons; untouched series flagged $untouched times in $((2*runs)) comparisons"
