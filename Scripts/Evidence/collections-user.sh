#!/usr/bin/env bash
# A user's package shaped like a real one (issue 37): swift-collections (fetched, its tree
# committed inside the repository under Vendor/, a local package), code whose hash tables are seeded by their storage
# address (OrderedSet, OrderedDictionary) beside a TreeDictionary, a `[String: Int]` and a type-keyed registry, a
# parameterized benchmark over sizes and an async one. PerfKit is a path dependency outside the repository; its tool
# is built with the History trait. This script only sets the package up (commit "base") and builds the tool; the
# workflow's commands are in Documentation/Evidence.md.
# usage: collections-user.sh PERFKIT_CHECKOUT SWIFT_COLLECTIONS_CHECKOUT NEW_FOLDER
set -euo pipefail
perfkit=$(cd "$1" && pwd); source=$(cd "$2" && pwd)
rm -rf "$3"; mkdir -p "$3"; cd "$3"
git init -q -b main && git config user.email u@example.invalid && git config user.name U
mkdir -p Vendor Sources/Graph Tests/GraphTests
git -C "$source" archive --format=tar --prefix=swift-collections/ HEAD | tar -x -C Vendor
cat > Package.swift <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Graph",
    dependencies: [
        .package(path: "Vendor/swift-collections"),
        .package(path: "$(realpath --relative-to=. "$perfkit")"),
    ],
    targets: [
        .target(name: "Graph", dependencies: [.product(name: "Collections", package: "swift-collections")]),
        .testTarget(
            name: "GraphTests",
            dependencies: ["Graph", .product(name: "PerfKitTesting", package: "$(basename "$perfkit")")]),
    ]
)
SWIFT
cat > Sources/Graph/Graph.swift <<'SWIFT'
import Collections

/// A node of a graph, compared by identity.
public final class Node: Hashable {
    public let weight: Int
    public init(weight: Int) { self.weight = weight }
    public static func == (a: Node, b: Node) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The distinct nodes of `nodes` in first-seen order (an OrderedSet: its hash table is seeded by its storage).
public func firstSeen(_ nodes: [Node]) -> Int { OrderedSet(nodes).count }

/// Total weight per node, in first-seen order.
public func orderedWeights(_ nodes: [Node]) -> Int {
    var totals: OrderedDictionary<Node, Int> = [:]
    for node in nodes { totals[node, default: 0] += node.weight }
    return totals.values.reduce(0, &+)
}

/// How often each word occurs, in a persistent hash tree.
public func treeCounts(_ words: [String]) -> Int {
    var counts: TreeDictionary<String, Int> = [:]
    for word in words { counts[word, default: 0] += 1 }
    return counts.count
}

/// How often each word occurs.
public func wordCounts(_ words: [String]) -> Int {
    var counts: [String: Int] = [:]
    for word in words { counts[word, default: 0] += 1 }
    return counts.count
}

/// A registry of handlers keyed by their type.
public struct Registry {
    var handlers: [ObjectIdentifier: Int] = [:]
    public init() {}
    public mutating func register<T>(_ type: T.Type, _ value: Int) { handlers[ObjectIdentifier(type), default: 0] += value }
    public func value<T>(_ type: T.Type) -> Int { handlers[ObjectIdentifier(type)] ?? 0 }
}
SWIFT
cat > Tests/GraphTests/GraphBenchmarks.swift <<'SWIFT'
import Graph
import PerfKitTesting
import Testing

struct A {}
struct B {}
struct C {}
struct D {}

@Suite struct GraphBenchmarks {
    static func nodes(_ count: Int) -> [Node] {
        let pool = (0..<(count / 3)).map { Node(weight: $0) }
        return (0..<count).map { pool[($0 &* 7_919) % pool.count] }
    }

    @Test(.performance()) func orderedSet() throws {
        let nodes = Self.nodes(6_000)
        try measure("firstSeen") { firstSeen(nodes) }
    }

    @Test(.performance(), arguments: [1_500, 3_000, 6_000, 12_000])
    func orderedDictionary(n: Int) throws {
        let nodes = Self.nodes(n)
        try measure("orderedWeights") { orderedWeights(nodes) }
    }

    @Test(.performance()) func treeDictionary() throws {
        let words = (0..<6_000).map { "word-\(($0 &* 7_919) % 1_500)" }
        try measure("treeCounts") { treeCounts(words) }
    }

    @Test(.performance()) func stringDictionary() throws {
        let words = (0..<6_000).map { "word-\(($0 &* 7_919) % 1_500)" }
        try measure("wordCounts") { wordCounts(words) }
    }

    @Test(.performance()) func registry() throws {
        try measure("register") {
            var registry = Registry()
            for i in 0..<500 {
                registry.register(A.self, i); registry.register(B.self, i)
                registry.register(C.self, i); registry.register(D.self, i)
            }
            return registry.value(A.self) &+ registry.value(D.self)
        }
    }

    @Test(.performance()) func asyncWords() async throws {
        let words = (0..<2_000).map { "w\($0 % 300)" }
        try await measure("asyncWordCounts", async: { await Task.yield(); return wordCounts(words) })
    }
}
SWIFT
printf '.build/\n.perfkit/\n' > .gitignore
git add -A && git commit -qm "base: a graph package over swift-collections (in Vendor/)"
echo "building perfkit (History trait) in $perfkit"
swift build -c release --package-path "$perfkit" --traits Jemalloc,History --product perfkit \
    --scratch-path "$perfkit/.build/history-tool" > /dev/null
echo "ready: $3 at $(git rev-parse --short HEAD); tool $perfkit/.build/history-tool/release/perfkit"
