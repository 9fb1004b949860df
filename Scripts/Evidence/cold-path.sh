#!/usr/bin/env bash
# The cold path side by side (round 1 runs PerfKit first; later rounds reverse the order): PerfKit's by every route
# (README's parser package: the plugin's `perfkit run`, whose first run builds the tests beside the tool; the binary
# route as documented, `swift package … perfkit build` then `.build/debug/perfkit run`; and, for the record, the
# binary built alone by `swift build --product perfkit` before `.build/debug/perfkit run`) and package-benchmark's
# (the same two functions as benchmarks: its tool build and first `swift package benchmark`), each from an empty
# build folder, ROUNDS times each.
# MIRRORS is a folder of git repositories named as SwiftPM names the packages: package-benchmark, swift-system,
# swift-argument-parser, TextTable, hdrhistogram-swift, swift-atomics, package-jemalloc, swift-numerics (here,
# links to what `fetch` brought under /work/.mirror). package-benchmark is taken at 1ce127f, the last commit
# before it depends on swift-runtime-interposer (not to be had here), with hdrhistogram-swift pinned to its
# mirror's head (the mirror has no 0.1.4 tag); its dependencies are resolved before the clock starts.
# usage: Scripts/Evidence/cold-path.sh OUT MIRRORS [ROUNDS=2]
set -euo pipefail
root=$(pwd); out=$1; mirrors=$2; rounds=${3:-2}
rm -rf "$out"; mkdir -p "$out"

perfkit_side() {  # $1: round
    local dir="$out/perfkit-$1"
    mkdir -p "$dir" && git clone -q "$root" "$dir/perfkit"
    (cd "$dir" && source "$root/Scripts/Evidence/parser-package.sh" > /dev/null &&
        /usr/bin/time -o "$dir/time" -f "%e" swift package --allow-writing-to-package-directory perfkit run \
            > "$dir/log" 2>&1)
    echo "perfkit round $1: $(cat "$dir/time") s"
}

perfkit_cli_side() {  # $1: round; $2: the build command before `.build/debug/perfkit run`; $3: the side's name
    local dir="$out/perfkit-$3-$1"
    mkdir -p "$dir" && git clone -q "$root" "$dir/perfkit"
    (cd "$dir" && source "$root/Scripts/Evidence/parser-package.sh" > /dev/null &&
        /usr/bin/time -o "$dir/time" -f "%e" bash -c "$2 && .build/debug/perfkit run" > "$dir/log" 2>&1)
    echo "perfkit ($3 route) round $1: $(cat "$dir/time") s"
}

benchmark_side() {  # $1: round
    local dir="$out/benchmark-$1"
    mkdir -p "$dir/bench/Sources/Parser" "$dir/bench/Benchmarks/ParserBenchmarks"
    git clone -q "$mirrors/package-benchmark" "$dir/package-benchmark"
    git -C "$dir/package-benchmark" checkout -q 1ce127f
    local head; head=$(git -C "$mirrors/hdrhistogram-swift" rev-parse HEAD)
    sed -i "s|hdrhistogram-swift.git\", .upToNextMajor(from: \"0.1.4\")|hdrhistogram-swift.git\", revision: \"$head\"|" \
        "$dir/package-benchmark/Package.swift"
    cd "$dir/bench"
    cp "$out/perfkit-1/parser/Sources/Parser/Parser.swift" Sources/Parser/  # the parser's two functions
    cat > Package.swift <<'SWIFT'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Parser",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "../package-benchmark")],
    targets: [
        .target(name: "Parser"),
        .executableTarget(
            name: "ParserBenchmarks",
            dependencies: ["Parser", .product(name: "Benchmark", package: "package-benchmark")],
            path: "Benchmarks/ParserBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
SWIFT
    cat > Benchmarks/ParserBenchmarks/ParserBenchmarks.swift <<'SWIFT'
import Benchmark
import Parser

let line = (0..<1_000).map(String.init).joined(separator: ",")

let benchmarks: @Sendable () -> Void = {
    Benchmark("sum") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(parseSum(line)) }
    }
    Benchmark("fields") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(countFields(line)) }
    }
}
SWIFT
    for r in apple/swift-system apple/swift-argument-parser ordo-one/TextTable HdrHistogram/hdrhistogram-swift \
        apple/swift-atomics ordo-one/package-jemalloc apple/swift-numerics; do
        swift package config set-mirror --original "https://github.com/$r.git" --mirror "$mirrors/${r#*/}"
        swift package config set-mirror --original "https://github.com/$r" --mirror "$mirrors/${r#*/}"
    done
    swift package resolve > "$dir/resolve.log" 2>&1
    /usr/bin/time -o "$dir/time" -f "%e" swift package --allow-writing-to-package-directory benchmark --no-progress \
        > "$dir/log" 2>&1
    cd "$root"
    echo "package-benchmark round $1: $(cat "$dir/time") s"
}

for round in $(seq 1 "$rounds"); do
    binary() { perfkit_cli_side "$round" "swift package --allow-writing-to-package-directory perfkit build" cli; }
    serial() { perfkit_cli_side "$round" "swift build --product perfkit" serial; }
    if [ $((round % 2)) = 1 ]; then perfkit_side "$round"; binary; serial; benchmark_side "$round"
    else benchmark_side "$round"; serial; binary; perfkit_side "$round"; fi
done
python3 - "$out" "$rounds" <<'PY'
import sys, statistics
out, rounds = sys.argv[1], int(sys.argv[2])
p = [float(open(f"{out}/perfkit-{r}/time").read()) for r in range(1, rounds + 1)]
b = [float(open(f"{out}/benchmark-{r}/time").read()) for r in range(1, rounds + 1)]
c = [float(open(f"{out}/perfkit-cli-{r}/time").read()) for r in range(1, rounds + 1)]
s = [float(open(f"{out}/perfkit-serial-{r}/time").read()) for r in range(1, rounds + 1)]
m = statistics.median(b)
print(f"perfkit plugin {p} s, binary (perfkit build) {c} s, binary (swift build --product) {s} s, "
      f"package-benchmark {b} s; medians {statistics.median(p):.1f} / {statistics.median(c):.1f} / "
      f"{statistics.median(s):.1f} / {m:.1f}: {statistics.median(p) / m:.2f}x, {statistics.median(c) / m:.2f}x, "
      f"{statistics.median(s) / m:.2f}x")
PY
