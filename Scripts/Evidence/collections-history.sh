#!/usr/bin/env bash
# A real package's real history, vendored: swift-collections' commits around PR #433 ("Optimize
# unspecialized OrderedSet.init and OrderedSet.firstIndex(of:)", 13245da5), each one's tree copied
# into Vendor/swift-collections of a new repository (one commit each, in topological order, with the
# original subject and hash), under a root package whose benchmark calls OrderedSet from a generic
# function that is never specialized. PerfKit is a path dependency outside the repository.
# usage: collections-history.sh PERFKIT_FOLDER SWIFT_COLLECTIONS_GIT_DIR NEW_FOLDER
set -euo pipefail
perfkit=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
mkdir -p "$3" && cd "$3"
git init -q -b main && git config user.email c@example.invalid && git config user.name C
mkdir -p Sources/Lookup Tests/LookupTests
cat > Package.swift <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Lookup",
    dependencies: [.package(path: "Vendor/swift-collections"), .package(path: "$(realpath --relative-to=. "$perfkit")")],
    targets: [
        .target(name: "Lookup", dependencies: [.product(name: "OrderedCollections", package: "swift-collections")]),
        .testTarget(
            name: "LookupTests",
            dependencies: ["Lookup", .product(name: "PerfKitTesting", package: "$(basename "$perfkit")")]),
    ]
)
SWIFT
cat > Sources/Lookup/Lookup.swift <<'SWIFT'
import OrderedCollections

/// Builds an ordered set from `xs` and looks every element up, from generic code the optimizer
/// never specializes: what a library's generic caller of OrderedSet runs.
@_semantics("optimize.sil.specialize.generic.never")
@inline(never)
public func lookUpAll<T: Hashable>(_ xs: [T]) -> Int {
    let set = OrderedSet(xs)
    var found = 0
    for x in xs { found &+= set.firstIndex(of: x) ?? 0 }
    return found
}
SWIFT
cat > Tests/LookupTests/LookupBenchmarks.swift <<'SWIFT'
import Lookup
import PerfKitTesting
import Testing

@Suite struct LookupBenchmarks {
    /// Ten elements: no hash table, a linear scan (`firstIndex(of:)`).
    @Test(.performance(samples: 10)) func smallSet() throws {
        let xs = Array(0..<10)
        try measure("small") { lookUpAll(xs) }
    }

    /// 2,000 elements: the hash table (`OrderedSet.init`).
    @Test(.performance(samples: 10)) func largeSet() throws {
        let xs = Array(0..<2_000)
        try measure("large") { lookUpAll(xs) }
    }
}
SWIFT
printf '.perfkit/\n.build/\n' > .gitignore
for commit in $(git -C "$source" rev-list --reverse --topo-order 755c06dd~3..1e6a5612); do
    rm -rf Vendor/swift-collections && mkdir -p Vendor/swift-collections
    git -C "$source" archive "$commit" | tar -x -C Vendor/swift-collections
    git add -A
    git commit -q --allow-empty -m "$(git -C "$source" log -1 --format=%s "$commit") (swift-collections $commit)"
done
git log --format='%h %s'
