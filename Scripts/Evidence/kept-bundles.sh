#!/usr/bin/env bash
# One build per revision (Documentation/Builds.md): in PACKAGE (a git checkout of a Swift package with at least two
# commits, PerfKitTesting a dependency), with no worktree, kept bundle or pinned build left, runs
#   1. a timing `perfkit abba HEAD~1 HEAD --rounds 6` (builds A from nothing, B from A's products),
#   2. a counting `perfkit abba HEAD~1 HEAD --counts` (runs the pair the first kept: nothing built),
#   3. the timing `abba` again (nothing built),
# and prints each one's wall time with its build lines and its headline.
# usage: Scripts/Evidence/kept-bundles.sh PACKAGE [PERFKIT=the perfkit on PATH]
set -euo pipefail
package=${1:?usage: kept-bundles.sh PACKAGE [PERFKIT]}; perfkit=${2:-perfkit}
cd "$package"
rm -rf .perfkit/worktrees .perfkit/bundles .perfkit/build-pinned
mkdir -p .perfkit
git worktree prune
for step in "abba HEAD~1 HEAD --rounds 6" "abba HEAD~1 HEAD --counts" "abba HEAD~1 HEAD --rounds 6"; do
    started=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$perfkit" $step > "$package/.perfkit/kept-bundles.log" 2>&1 || true
    ended=$(date +%s.%N)
    echo "== perfkit $step: $(echo "$ended - $started" | bc) s"
    grep -E "built .* in |nothing to build|crashed|regressed|improved|unchanged exactly|rounds, stopped|counted both" \
        "$package/.perfkit/kept-bundles.log" | grep -v "^\[" || true
done
