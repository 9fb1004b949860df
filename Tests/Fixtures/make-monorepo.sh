#!/usr/bin/env bash
# A monorepo shaped like real ones, for perfkit's field tests (PerfKitToolTests/MonorepoTests) and
# by hand: a root package whose measured code lives in a local package inside the repository
# (Packages/Core), and PerfKit as a path dependency outside it. Four commits:
#   1 base, 2 "10% more work" inside Packages/Core, 3 an unrelated change, 4 a rename of Core's file.
# usage: make-monorepo.sh PERFKIT_FOLDER NEW_FOLDER
set -euo pipefail
perfkit=$(cd "$1" && pwd)
mkdir -p "$2"
cd "$2"
git init -q -b main
git config user.email mono@example.invalid
git config user.name Mono
mkdir -p Packages/Core/Sources/Core Sources/Mono Sources/mono-tool Tests/MonoTests
cat > Package.swift <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Mono",
    dependencies: [.package(path: "Packages/Core"), .package(path: "$(realpath --relative-to=. "$perfkit")")],
    targets: [
        .target(name: "Mono", dependencies: [.product(name: "Core", package: "Core")]),
        // An executable no test needs: a release build of the tests leaves it out.
        .executableTarget(name: "mono-tool", dependencies: ["Mono"]),
        .testTarget(
            name: "MonoTests",
            dependencies: ["Mono", .product(name: "PerfKitTesting", package: "$(basename "$perfkit")")]),
    ]
)
SWIFT
# Core has package traits on by default, as swift-protobuf has: SwiftPM 6.3 writes their defines in
# an order each planning process picks at random, unless PerfKit's builds fix its hash seed.
cat > Packages/Core/Package.swift <<'SWIFT'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Core", products: [.library(name: "Core", targets: ["Core"])],
    traits: [
        .trait(name: "Streams"), .trait(name: "Masks"), .trait(name: "Checks"),
        .default(enabledTraits: ["Streams", "Masks", "Checks"]),
    ],
    targets: [.target(name: "Core")])
SWIFT
work() {  # $1: the loop's rounds per element
    cat > Packages/Core/Sources/Core/$2 <<SWIFT
/// The measured work: a checksum over n elements, $1 rounds each.
@inline(never) public func checksum(_ n: Int) -> UInt64 {
    var h: UInt64 = 1469598103934665603
    for i in 0..<n {
        for r in 0..<$1 { h = (h ^ UInt64(i &+ r)) &* 1099511628211 }
    }
    return h
}
SWIFT
}
work 10 Core.swift
cat > Sources/Mono/Mono.swift <<'SWIFT'
import Core

/// The root package's entry: the local package's checksum.
public func monoChecksum(_ n: Int) -> UInt64 { checksum(n) }

/// Seen only by tests that import the module with `@testable`.
func internalSeed() -> Int { 7 }
SWIFT
printf 'import Mono\n\nprint(monoChecksum(10))\n' > Sources/mono-tool/main.swift
# A test that imports with @testable, as most packages' tests do: a release build needs -enable-testing.
cat > Tests/MonoTests/MonoInternals.swift <<'SWIFT'
@testable import Mono
import Testing

@Test func theInternalSeedIsSeven() { #expect(internalSeed() == 7) }
SWIFT
cat > Tests/MonoTests/MonoBenchmarks.swift <<'SWIFT'
import Foundation
import Mono
import PerfKitTesting
import Testing

@Suite struct MonoBenchmarks {
    @Test(.performance()) func checksum() throws {
        try measure("checksum") { monoChecksum(2_000) }
    }
}
SWIFT
cat > Tests/MonoTests/MonoFailing.swift <<'SWIFT'
import Foundation
import Mono
import PerfKitTesting
import Testing

/// Measured tests that fail on purpose, selected by --filter in the exit-status tests (a file of
/// their own: Swift Testing's --filter also matches a test's source file name).
@Suite struct MonoFailing {
    /// A budget no run meets: 0 allocations for a body that allocates.
    @Test(.performance(), .budget(.mallocs, max: 0)) func allocates() throws {
        try measure("allocates") { [Int](repeating: 1, count: 64 + Int.random(in: 0..<2)) }
    }

    /// Fails only under valgrind (the counting process preloads PerfKit's shim): a counting failure
    /// after a finished timing run.
    @Test(.performance()) func failsUnderValgrind() throws {
        if (ProcessInfo.processInfo.environment["LD_PRELOAD"] ?? "").contains("shim") { abort() }
        try measure("checksum") { monoChecksum(100) }
    }
}
SWIFT
printf '.perfkit/\n.build/\n' > .gitignore
git add -A && git commit -q -m "base"
work 11 Core.swift
git commit -qam "Core: 10% more work per element"
echo "# Mono" > README.md
git add README.md && git commit -q -m "README"
git mv Packages/Core/Sources/Core/Core.swift Packages/Core/Sources/Core/Checksum.swift
git commit -q -m "Core: rename Core.swift to Checksum.swift"
git rev-list --reverse main
