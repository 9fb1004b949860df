#!/usr/bin/env bash
# A user's package whose measured code follows addresses (issue 37): a `Set` of objects' identities, a
# dictionary keyed by `ObjectIdentifier`, a `[String: Int]`, each built from inputs the test makes before
# `measure`, and one over objects a lazily initialised global made (issue 61 item 6). Two counting runs of one build, then a second, separately built copy (a comment added), and
# the count series compared (Scripts/Evidence/counts-identical.py).
# usage: hash-package.sh [PERFKIT_CHECKOUT]   (default: this checkout; the package is made in /tmp/hashes)
set -euo pipefail
perfkit=${1:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}; here=$(cd "$(dirname "$0")" && pwd)
root=/tmp/hashes; rm -rf $root; mkdir -p $root; cd $root
git clone -q "$perfkit" perfkit
mkdir -p hashes/Sources/Hashes hashes/Tests/HashesTests && cd hashes
cat > Package.swift <<'SWIFT'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Hashes",
    dependencies: [.package(path: "../perfkit")],
    targets: [
        .target(name: "Hashes"),
        .testTarget(name: "HashesTests", dependencies: ["Hashes", .product(name: "PerfKitTesting", package: "perfkit")]),
    ]
)
SWIFT
cat > Sources/Hashes/Hashes.swift <<'SWIFT'
/// A node of a graph, compared by identity.
public final class Node: Sendable {
    public let weight: Int
    public init(weight: Int) { self.weight = weight }
}

/// How many distinct nodes `nodes` holds.
public func distinct(_ nodes: [Node]) -> Int { Set(nodes.map(ObjectIdentifier.init)).count }

/// Each node's total weight over its occurrences in `nodes`, keyed by identity.
public func weights(_ nodes: [Node]) -> [ObjectIdentifier: Int] {
    var totals: [ObjectIdentifier: Int] = [:]
    for node in nodes { totals[ObjectIdentifier(node), default: 0] += node.weight }
    return totals
}

/// Nodes made once, at first use, by whichever thread touches them first (a lazily initialised global).
public let sharedPool: [Node] = (0..<2_000).map { Node(weight: $0) }

/// How often each word occurs.
public func wordCounts(_ words: [String]) -> [String: Int] {
    var counts: [String: Int] = [:]
    for word in words { counts[word, default: 0] += 1 }
    return counts
}
SWIFT
cat > Tests/HashesTests/HashBenchmarks.swift <<'SWIFT'
import Hashes
import PerfKitTesting
import Testing

@Suite struct HashBenchmarks {
    @Test(.performance()) func identitySet() throws {
        let pool = (0..<2_000).map { Node(weight: $0) }
        let nodes = (0..<6_000).map { pool[($0 &* 7_919) % pool.count] }
        try measure("distinct") { distinct(nodes) }
    }

    @Test(.performance()) func identityDictionary() throws {
        let pool = (0..<2_000).map { Node(weight: $0) }
        let nodes = (0..<6_000).map { pool[($0 &* 7_919) % pool.count] }
        try measure("weights") { weights(nodes).count }
    }

    @Test(.performance()) func globalIdentityDictionary() throws {
        let nodes = (0..<6_000).map { sharedPool[($0 &* 7_919) % sharedPool.count] }
        try measure("weights of a global's nodes") { weights(nodes).count }
    }

    @Test(.performance()) func stringDictionary() throws {
        let words = (0..<6_000).map { "word-\(($0 &* 7_919) % 1_500)" }
        try measure("wordCounts") { wordCounts(words).count }
    }
}
SWIFT
printf '.build/\n.perfkit/\n' > .gitignore
git init -q -b main && git add -A && git -c user.email=u@x -c user.name=u commit -qm "hashes"
swift build -c release --package-path ../perfkit --product perfkit >/dev/null 2>&1
tool=../perfkit/.build/release/perfkit
for n in 1 2; do /usr/bin/time -f "counting run $n: %e s" $tool run --counts-only > run$n.log 2>&1; tail -1 run$n.log; done
cp -r . ../hashes-b && cd ../hashes-b && rm -rf .build .perfkit
echo "// a second build of the same code" >> Sources/Hashes/Hashes.swift
/usr/bin/time -f "counting run of the second build: %e s" $tool run --counts-only > run3.log 2>&1; tail -1 run3.log
cd ..
latest() { ls -t $1/.perfkit/runs/*.json | head -${2:-1} | tail -1; }
echo "== two runs of one build"; python3 "$here/counts-identical.py" "$(latest hashes 1)" "$(latest hashes 2)" | tail -4
echo "== two builds"; python3 "$here/counts-identical.py" "$(latest hashes 1)" "$(latest hashes-b 1)" | tail -4
cd $root && cp -r hashes hashes-c && cd hashes-c && rm -rf .build .perfkit
python3 - <<'EOF2'
p = 'Sources/Hashes/Hashes.swift'
s = open(p).read().replace("    for word in words { counts[word, default: 0] += 1 }\n",
    "    for word in words { counts[word, default: 0] += 1 }\n    for word in words.prefix(60) { counts[word, default: 0] += 0 }\n")
open(p, 'w').write(s)
p = 'Tests/HashesTests/HashBenchmarks.swift'
s = open(p).read().replace("@Suite struct HashBenchmarks {\n", """@Suite struct HashBenchmarks {
    static let suitePool = (0..<2_000).map { Node(weight: $0 &* 3) }

    @Test(.performance()) func suiteStaticIdentityDictionary() throws {
        let nodes = (0..<6_000).map { Self.suitePool[($0 &* 7_919) % Self.suitePool.count] }
        try measure("weights of a static's nodes") { weights(nodes).count }
    }
""")
open(p, 'w').write(s)
EOF2
/usr/bin/time -f "counting run after a change elsewhere: %e s" $tool run --counts-only > run4.log 2>&1; tail -1 run4.log
$tool baseline save first --from "$(ls ../hashes/.perfkit/runs/2*.json | head -1)" > /dev/null
echo "== a change elsewhere"; $tool compare first | sed -n 2,3p
echo "== the suite's static objects, two runs"; $tool run --counts-only > run5.log 2>&1
cd $root && python3 "$here/counts-identical.py" "$(latest hashes-c 1)" "$(latest hashes-c 2)" | tail -1
