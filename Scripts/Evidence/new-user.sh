#!/usr/bin/env bash
# A new user's path from README alone (Documentation/Evidence.md, "the redesign, checked"): an empty
# folder, a clone of PerfKit beside it, the README's parser package and commands through the plugin.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=/tmp/newuser; rm -rf $root; mkdir -p $root; cd $root
git clone -q /work/main perfkit
. "$here/parser-package.sh"   # README's parser package, committed; defines pk
start=$(date +%s)
echo "== swift test"; swift test 2>&1 | tail -2
echo "== pk run --counts"; pk run --counts 2>&1 | tail -4
echo "== pk baseline save main"; pk baseline save main 2>&1 | tail -2
# README's package does not ask for the History trait: `history` says what to install and exits 1.
echo "== pk history record (History trait off)"; set +e; pk history record 2>&1 | tail -1; echo "exit ${PIPESTATUS[0]}"; set -e
# … change the code: a checksum left in parseSum (about 20% more work)
python3 - <<'PY'
p = 'Sources/Parser/Parser.swift'
s = open(p).read()
s = s.replace("    return total &+ current\n}", "    var check = 0\n    for byte in line.utf8.prefix(line.utf8.count / 5) { check = check &* 31 &+ Int(byte) }\n    if check == 42 { total &+= 1 }\n    return total &+ current\n}", 1)
open(p, 'w').write(s)
PY
git -c user.email=u@x -c user.name=u commit -qam "a checksum in parseSum"
echo "== pk run --counts (changed)"; pk run --counts 2>&1 | tail -2
echo "== pk compare main"; set +e; pk compare main --markdown pr.md --fail-on regression 2>&1 | head -12; echo "exit ${PIPESTATUS[0]}"; set -e
echo "total $(( $(date +%s) - start )) s"
