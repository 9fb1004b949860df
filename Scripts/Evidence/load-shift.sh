#!/usr/bin/env bash
# One counting process of a test as perfkit runs it, with the bundle where the kernel loads it (MODE kernel) or
# started through the dynamic loader (MODE loader); prints the results folder's counts (2026-12-03).
# usage: Scripts/Evidence/load-shift.sh BUNDLE FILTER MODE(kernel|loader) PAD OUT   (from the package root, after a
#   release build: the shim is taken from .build)
set -u
bundle=$1; filter=$2; mode=$3; pad=$4; out=$5
root=/tmp/perfkit-counts-$(printf '%036d' 0)  # fixed-length root as perfkit makes
rm -rf $root $out; mkdir -p $root/r $out
objcopy --strip-debug $bundle $root/bundle
here=$(pwd)
cp "$here"/.build/x86_64-unknown-linux-gnu/release/libPerfKitValgrindShim.so $root/shim.so
prog=($root/bundle); [ $mode = loader ] && prog=(/lib64/ld-linux-x86-64.so.2 $root/bundle)
env -i PATH=/usr/bin:/bin HOME=/tmp LC_ALL=C SWIFT_DETERMINISTIC_HASHING=1 LD_BIND_NOW=1 LD_PRELOAD=$root/shim.so \
  MALLOC_CONF=dirty_decay_ms:-1,muzzy_decay_ms:-1,tcache:false PERFKIT_MODE=measure PERFKIT_RESULTS_DIR=$root/r \
  PERFKIT_CALLGRIND_OUT=$root/callgrind.out PERFKIT_HEAP_PAD=$pad \
  setarch x86_64 -R valgrind --tool=callgrind --instr-atstart=no --collect-atstart=no "--toggle-collect=*ConcurrentReadableHashMap*find<*" \
  --callgrind-out-file=$root/callgrind.out --log-file=$root/vg.log "${prog[@]}" --testing-library swift-testing --no-parallel --filter "$filter" > $out/stdout 2>&1
echo "status $?"
cp -r $root/r $out/
python3 - "$out/r" "$mode" <<'PY2'
import glob, json, sys
def walk(x):
    if isinstance(x, dict):
        if x.get("metric", {}).get("name") == "instructions": print(sys.argv[2], x.get("values"))
        for v in x.values(): walk(v)
    elif isinstance(x, list):
        for v in x: walk(v)
for f in glob.glob(sys.argv[1] + "/*"): walk(json.load(open(f)))
PY2
