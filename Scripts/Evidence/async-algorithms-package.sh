#!/usr/bin/env bash
# A user package of apple/swift-async-algorithms' concurrent algorithms, measured as a new user would: merge, zip,
# buffer, combineLatest, AsyncChannel (library code that starts unstructured tasks), an AsyncStream whose producer is
# a Task, and a Deque control, each with .performance() and .budget(.leakedAllocations, max: 0). swift-collections is
# served from a local clone through SwiftPM's mirror setting (the machine reaches no outside registry).
# usage: async-algorithms-package.sh ASYNC_ALGORITHMS_BARE COLLECTIONS_BARE [PERFKIT_CHECKOUT] [FOLDER]
set -euo pipefail
algorithms=$1; collections=$2
perfkit=${3:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}
root=${4:-/tmp/aa}
rm -rf "$root" && mkdir -p "$root" && cd "$root"
git clone -q "$perfkit" perfkit
git clone -q "$algorithms" saa
git clone -q "$collections" swift-collections
mkdir -p user/Tests/AsyncUserTests && cd user
cat > Package.swift <<'SWIFT'
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "AsyncUser",
    dependencies: [
        .package(path: "../saa"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.5.1"),
        .package(path: "../perfkit", traits: ["Jemalloc", "History"]),
    ],
    targets: [
        .testTarget(
            name: "AsyncUserTests",
            dependencies: [
                .product(name: "AsyncAlgorithms", package: "saa"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "PerfKitTesting", package: "perfkit"),
            ])
    ]
)
SWIFT
cat > Tests/AsyncUserTests/AsyncAlgorithmsBenchmarks.swift <<'SWIFT'
import AsyncAlgorithms
import DequeModule
import PerfKitTesting
import Testing

@Suite struct AsyncAlgorithmsBenchmarks {
    @Test(.performance(), .budget(.leakedAllocations, max: 0)) func mergeTwo() async throws {
        try await measure("merge", async: {
            var total = 0
            for await value in merge([1, 2, 3, 4].async, [5, 6, 7, 8].async) { total += value }
            return total
        })
    }

    @Test(.performance(), .budget(.leakedAllocations, max: 0)) func zipTwo() async throws {
        try await measure("zip", async: {
            var total = 0
            for await (a, b) in zip([1, 2, 3, 4].async, [5, 6, 7, 8].async) { total += a * b }
            return total
        })
    }

    @Test(.performance(), .budget(.leakedAllocations, max: 0)) func bufferBounded() async throws {
        try await measure("buffer", async: {
            var total = 0
            for await value in (0..<64).async.buffer(policy: .bounded(8)) { total += value }
            return total
        })
    }

    @Test(.performance(), .budget(.leakedAllocations, max: 0)) func combineLatestTwo() async throws {
        try await measure("combineLatest", async: {
            var total = 0
            for await (a, b) in combineLatest([1, 2, 3].async, [4, 5, 6].async) { total += a + b }
            return total
        })
    }

    @Test(.performance(), .budget(.leakedAllocations, max: 0)) func channel() async throws {
        try await measure("channel", async: {
            let channel = AsyncChannel<Int>()
            let producer = Task {
                for value in 0..<16 { await channel.send(value) }
                channel.finish()
            }
            var total = 0
            for await value in channel { total += value }
            await producer.value
            return total
        })
    }

    @Test(.performance(), .budget(.leakedAllocations, max: 0)) func streamFedByATask() async throws {
        try await measure("stream", async: {
            let stream = AsyncStream<Int> { continuation in
                Task {
                    for value in 0..<16 { continuation.yield(value) }
                    continuation.finish()
                }
            }
            var total = 0
            for await value in stream { total += value }
            return total
        })
    }

    @Test(.performance(), .budget(.leakedAllocations, max: 0)) func dequeControl() throws {
        try measure("deque") {
            var deque = Deque<Int>()
            for value in 0..<100 { deque.append(value) }
            while deque.count > 50 { deque.removeFirst() }
            return deque.count
        }
    }
}
SWIFT
swift package config set-mirror --original https://github.com/apple/swift-collections.git --mirror "$root/swift-collections"
git init -q && git add -A && git -c user.email=u@example.com -c user.name=user commit -qm "AsyncUser: measured algorithms"
echo "ready: $root/user"
