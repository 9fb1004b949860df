#!/usr/bin/env bash
# The whole workflow on a package PerfKit did not write: in PACKAGE (a git checkout on a branch, at least three
# commits, the last changing a counted body), counts commit HEAD~2 and HEAD, saves the first as baseline `main`,
# compares, bisects SERIES, records both in a history store, shows it and writes its site, then runs `swift test`.
# usage: Scripts/Evidence/user-workflow.sh PACKAGE SERIES [PERFKIT=the perfkit on PATH]
set -euo pipefail
package=${1:?usage: user-workflow.sh PACKAGE SERIES [PERFKIT]}; series=${2:?SERIES}; pk=${3:-perfkit}
out=$(mktemp -d)
cd "$package"
branch=$(git branch --show-current)
git checkout -q HEAD~2
"$pk" run --counts-only --output "$out/base.json"
"$pk" history record --from "$out/base.json" --store "$out/history.sqlite"
"$pk" baseline save main --from "$out/base.json"
git checkout -q "$branch"
"$pk" run --counts-only
"$pk" history record --store "$out/history.sqlite"
"$pk" compare main --markdown "$out/pr.md" || echo "compare exit $?"
ls "$out"/pr*
"$pk" bisect HEAD~2 HEAD --series "$series"
"$pk" history show --store "$out/history.sqlite"
"$pk" history site --store "$out/history.sqlite" --output "$out/site"
swift test 2>&1 | tail -1
echo "outputs: $out"
