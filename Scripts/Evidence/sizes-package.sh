#!/usr/bin/env bash
# A user's package with parameterized benchmarks over sizes (issue 36's evidence): a linear
# checksum and an n log n sortUnique, three sizes each; commit 2 makes the checksum quadratic.
# usage: sizes-package.sh PERFKIT_FOLDER NEW_FOLDER
set -euo pipefail
perfkit=$(cd "$1" && pwd)
mkdir -p "$2" && cd "$2"
git init -q -b main && git config user.email s@example.invalid && git config user.name S
mkdir -p Sources/Sizes Tests/SizesTests
cat > Package.swift <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Sizes",
    dependencies: [.package(path: "$perfkit")],
    targets: [
        .target(name: "Sizes"),
        .testTarget(
            name: "SizesTests",
            dependencies: ["Sizes", .product(name: "PerfKitTesting", package: "$(basename "$perfkit")")]),
    ]
)
SWIFT
cat > Sources/Sizes/Sizes.swift <<'SWIFT'
/// A checksum over the elements: one pass.
@inline(never) public func checksum(_ xs: [Int]) -> Int {
    var h = 0
    for x in xs { h = h &* 31 &+ x }
    return h
}

/// The distinct elements, sorted.
@inline(never) public func sortUnique(_ xs: [Int]) -> [Int] {
    var out: [Int] = []
    out.reserveCapacity(xs.count)
    for x in xs.sorted() where out.last != x { out.append(x) }
    return out
}
SWIFT
cat > Tests/SizesTests/SizesBenchmarks.swift <<'SWIFT'
import PerfKitTesting
import Sizes
import Testing

/// A fixed pseudo-random input of n elements (SplitMix64, seed 7).
func input(_ n: Int) -> [Int] {
    var state: UInt64 = 7
    return (0..<n).map { _ in
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: (z ^ (z >> 31)) % 1_000_000)
    }
}

@Suite struct SizesBenchmarks {
    @Test(.performance(samples: 10), arguments: [256, 1_024, 4_096])
    func checksum(n: Int) throws {
        let xs = input(n)
        try measure("checksum") { Sizes.checksum(xs) }
    }

    @Test(.performance(samples: 10), arguments: [256, 1_024, 4_096])
    func sortUnique(n: Int) throws {
        let xs = input(n)
        try measure("sortUnique") { Sizes.sortUnique(xs) }
    }
}
SWIFT
printf '.perfkit/\n.build/\n' > .gitignore
git add -A && git commit -q -m "base: a linear checksum, an n log n sortUnique"
python3 - <<'PY'
p = "Sources/Sizes/Sizes.swift"
s = open(p).read()
s = s.replace("    for x in xs { h = h &* 31 &+ x }", "    for (i, x) in xs.enumerated() { h = h &* 31 &+ x &+ xs[..<i].count(where: { $0 == x }) }")
open(p, "w").write(s)
PY
git commit -qam "checksum: count earlier equal elements (quadratic)"
git rev-list --reverse main
