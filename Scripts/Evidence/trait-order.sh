#!/usr/bin/env bash
# SwiftPM 6.3's order of a package's trait defines, plan by plan: a package with three
# traits on by default, its build plan removed and rebuilt six times as PerfKit's builds do, then six
# times more with SWIFT_DETERMINISTIC_HASHING=1 (what PerfKit's builds now set). Each line: how many
# compile commands ran, then the order of the defines in the plan.
# usage: trait-order.sh   (made in /tmp/trait-order)
set -uo pipefail
rm -rf /tmp/trait-order && mkdir -p /tmp/trait-order/Sources/Lib && cd /tmp/trait-order
cat > Package.swift <<'SWIFT'
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "Tr",
    traits: [
        .trait(name: "Alpha"), .trait(name: "Beta"), .trait(name: "Gamma"),
        .default(enabledTraits: ["Alpha", "Beta", "Gamma"]),
    ],
    targets: [.target(name: "Lib")]
)
SWIFT
echo 'public func f() -> Int { 1 }' > Sources/Lib/Lib.swift
swift build --scratch-path s > /dev/null 2>&1
order() { grep -o '"-D\(Alpha\|Beta\|Gamma\)"[^]]*' s/debug.yaml | head -1 | grep -o '"-D[A-Za-z]*"' | tr -d '"\n'; echo; }
replan() { rm -f s/*.yaml s/debug/description.json; "$@" swift build --scratch-path s 2>&1 | grep -c Compiling | tr '\n' ' '; order; }
echo "random seed (SwiftPM's default):"; for i in 1 2 3 4 5 6; do replan env; done
echo "SWIFT_DETERMINISTIC_HASHING=1:"; for i in 1 2 3 4 5 6; do replan env SWIFT_DETERMINISTIC_HASHING=1; done
