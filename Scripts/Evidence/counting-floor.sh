#!/usr/bin/env bash
# What a counting process costs before its test runs: the package's release test bundle,
# stripped as a counting run strips it, started under valgrind as a counting process is (the shim preloaded, ASLR off,
# symbols bound at start-up, instrumentation off) with a filter no test matches, REPEATS times; then the same start
# natively, and once under callgrind with instrumentation on from the start, whose ten costliest functions (inclusive)
# say where the start-up's instructions go.
# usage: counting-floor.sh [PACKAGE_DIR=.] [REPEATS=3]   (after a `perfkit run --counts` there, so the release
# bundle and .perfkit/shim-build exist)
set -euo pipefail
cd "${1:-.}"; repeats=${2:-3}
bundle=$(ls .build/release/*PackageTests.xctest | head -1)
shim=.perfkit/shim-build/release/libPerfKitValgrindShim.so
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
objcopy --strip-debug "$bundle" "$work/bundle"
run() {
    env -i PATH=/usr/bin:/bin HOME=/tmp LC_ALL=C LD_BIND_NOW=1 SWIFT_DETERMINISTIC_HASHING=1 \
        LD_PRELOAD="$PWD/$shim" "$@" --testing-library swift-testing --no-parallel --filter NoTestIsNamedThis \
        > /dev/null 2>&1 || true
}
for i in $(seq "$repeats"); do
    start=$(date +%s.%N)
    run setarch "$(uname -m)" -R valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no \
        --callgrind-out-file="$work/off.%p" --log-file="$work/log" "$work/bundle"
    echo "under valgrind, instrumentation off: $(echo "$(date +%s.%N) - $start" | bc | cut -c1-5) s"
done
start=$(date +%s.%N); run "$work/bundle"; echo "natively: $(echo "$(date +%s.%N) - $start" | bc | cut -c1-5) s"
run valgrind --tool=callgrind --callgrind-out-file="$work/on" --log-file="$work/log" "$work/bundle"
echo "start-up instructions (callgrind, instrumentation on from the start), the costliest inclusive:"
callgrind_annotate --inclusive=yes "$work/on" 2> /dev/null | grep -v "'2 " \
    | grep -E "PROGRAM TOTALS|TypeInfoV15unqualifiedNameSSvg |conformsToProtocolMaybeInstantiateSuperclasses\(.*bool\) \[|:_dl_relocate_object |:_dl_lookup_symbol_x " \
    | cut -c1-110
