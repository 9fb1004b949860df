#!/usr/bin/env bash
# README's parser package in the current folder, beside a clone of PerfKit at ../perfkit: its
# Package.swift, two functions, the README's test file as printed, one commit. Sourced by new-user.sh and
# adopter-without-history.sh.
mkdir -p parser/Sources/Parser parser/Tests/ParserTests && cd parser
cat > Package.swift <<'SWIFT'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Parser",
    dependencies: [.package(path: "../perfkit")],
    targets: [
        .target(name: "Parser"),
        .testTarget(name: "ParserTests", dependencies: ["Parser", .product(name: "PerfKitTesting", package: "perfkit")]),
    ]
)
SWIFT
cat > Sources/Parser/Parser.swift <<'SWIFT'
/// Sums the comma-separated integers of a line.
public func parseSum(_ line: String) -> Int {
    var total = 0, current = 0
    for byte in line.utf8 {
        if byte == UInt8(ascii: ",") { total &+= current; current = 0 } else { current = current &* 10 &+ Int(byte &- 48) }
    }
    return total &+ current
}

/// Counts the fields of a line.
public func countFields(_ line: String) -> Int {
    var fields = 1
    for byte in line.utf8 where byte == UInt8(ascii: ",") { fields += 1 }
    return fields
}

/// Sums a line's halves in two child tasks.
public func parseInTasks(_ line: String) async -> Int {
    let middle = line.index(line.startIndex, offsetBy: line.count / 2)
    let halves = [String(line[..<middle]), String(line[middle...])]
    return await withTaskGroup(of: Int.self) { group in
        for half in halves { group.addTask { parseSum(half) } }
        return await group.reduce(0, +)
    }
}
SWIFT
# The README's test file, as printed.
python3 - <<'PY'
import re
readme = open('../perfkit/README.md').read()
blocks = re.findall(r"```swift\n(.*?)```", readme, re.S)
test = next(b for b in blocks if 'ParserBenchmarks' in b)
open('Tests/ParserTests/ParserBenchmarks.swift', 'w').write(test)
PY
printf '.build/\n.perfkit/\n' > .gitignore
git init -q -b main && git add -A && git -c user.email=u@x -c user.name=u commit -qm "parser"
pk() { swift package --allow-writing-to-package-directory perfkit "$@"; }
