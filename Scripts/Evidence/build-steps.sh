#!/usr/bin/env bash
# What each run's release build compiles when nothing changed (2026-12-04): in a package that already depends on
# PerfKit (for example /tmp/pb/swift-protobuf after protobuf-package.sh, or /tmp/hashes/hashes after
# hash-package.sh), through the plugin, a timing run, a counting run and a timing run in a row; for each, its time,
# its builds' times and the modules it compiled. Then the control, with no PerfKit process: the package's own
# `swift build -c release --build-tests` run twice in a scratch folder of its own, and what each compiled.
# usage: build-steps.sh PACKAGE_DIR [CONTROL_SCRATCH=/tmp/build-steps-control]
set -uo pipefail
cd "$1"; control=${2:-/tmp/build-steps-control}
compiled() { grep -E '^\[[0-9]+/[0-9]+\] Compiling' "$1" | awk '{print $3}' | sort | uniq -c | tr '\n' ' '; echo; }
for step in timing counting timing; do
    args=(run); [ $step = counting ] && args+=(--counts-only)
    log=$(mktemp)
    /usr/bin/time -f "$step run: %e s" swift package --allow-writing-to-package-directory perfkit "${args[@]}" \
        > "$log" 2>&1
    tail -1 "$log"; grep "Build of product" "$log"; echo "  compiled: $(compiled "$log")"
done
for n in 1 2; do
    log=$(mktemp)
    /usr/bin/time -f "control build $n: %e s" swift build -c release --build-tests --scratch-path "$control" > "$log" 2>&1
    tail -1 "$log"; echo "  compiled: $(compiled "$log")"
done
