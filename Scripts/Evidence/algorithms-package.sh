#!/usr/bin/env bash
# apple/swift-algorithms as a user would adopt PerfKit (fifth session): its own tests `@testable import`
# the library (a release build needs -enable-testing), a Set-based `uniqued()`, a `[String: [String]]`
# `grouped(by:)`, a dictionary keyed by `ObjectIdentifier`, a parameterized and an async benchmark
# (algorithms-benchmarks.swift.txt). Two counting runs of one build, a baseline, then a commit that looks
# each key up before inserting it in `uniqued()`'s iterator, compared by `abba --counts`.
# usage: Scripts/Evidence/algorithms-package.sh ALGORITHMS_GIT NUMERICS_GIT [OUT=/tmp/algorithms-evidence]
#   (the two repositories as bare git folders, e.g. from `fetch github:apple/swift-algorithms`)
set -euo pipefail
perfkit=$(pwd); algorithms=$1; numerics=$2; out=${3:-/tmp/algorithms-evidence}
rm -rf "$out"; mkdir -p "$out"; git clone -q "$perfkit" "$out/perfkit-user"; git clone -q "$algorithms" "$out/algos"
cd "$out/algos"
swift package config set-mirror --original https://github.com/apple/swift-numerics.git --mirror "$numerics"
python3 - "$out/perfkit-user" <<'PY'
import sys
p = "Package.swift"; s = open(p).read()
s = s.replace('from: "1.0.0")\n  ],', 'from: "1.0.0"),\n    .package(path: "%s"),\n  ],' % sys.argv[1])
s = s.replace('''      dependencies: ["Algorithms"]),''', '''      dependencies: ["Algorithms"]),
    .testTarget(
      name: "AlgorithmsBenchmarks",
      dependencies: ["Algorithms", .product(name: "PerfKitTesting", package: "perfkit-user")]),''', 1)
open(p, "w").write(s)
PY
mkdir -p Tests/AlgorithmsBenchmarks
cp "$perfkit/Scripts/Evidence/algorithms-benchmarks.swift.txt" Tests/AlgorithmsBenchmarks/AlgorithmsBenchmarks.swift
printf '.perfkit/\n' >> .gitignore
git add -A && git -c user.name=e -c user.email=e@e commit -qm "PerfKit benchmarks"
# An array, not a function: /usr/bin/time runs programs, not shell functions.
pk=(swift package --allow-writing-to-package-directory perfkit)
/usr/bin/time -f "swift test: %e s" swift test --filter AlgorithmsBenchmarks > "$out/test.log" 2>&1; tail -1 "$out/test.log"
for n in 1 2; do
    /usr/bin/time -f "counting run $n: %e s" "${pk[@]}" run --counts-only --output "$out/c$n.json" > "$out/c$n.log" 2>&1
    tail -1 "$out/c$n.log"
done
python3 "$perfkit/Scripts/Evidence/counts-paired.py" "$out/c1.json" "$out/c2.json"
"${pk[@]}" baseline save main --from "$out/c2.json"
python3 - <<'PY'
p = "Sources/Algorithms/Unique.swift"; s = open(p).read()
old = "        if seen.insert(projection(element)).inserted {"
s = s.replace(old, "        let key = projection(element)\n        if !seen.contains(key), seen.insert(key).inserted {", 1)
open(p, "w").write(s)
PY
git -c user.name=e -c user.email=e@e commit -qam "uniqued: look the key up before inserting it"
set +e
/usr/bin/time -f "abba --counts: %e s" "${pk[@]}" abba HEAD~1 HEAD --counts --markdown "$out/abba.md" > "$out/abba.txt" 2> "$out/abba.err"
echo "abba exit $?"; tail -1 "$out/abba.err"; cat "$out/abba.txt"
"${pk[@]}" history record > "$out/history.txt" 2>&1; echo "history record exit $?"; tail -1 "$out/history.txt"
