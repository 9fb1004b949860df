#!/usr/bin/env bash
# A new user's path from README alone (Documentation/Evidence.md, "the redesign, checked"): an empty
# folder, a clone of PerfKit beside it, the README's parser package and commands through the plugin.
set -euo pipefail
root=/tmp/newuser; rm -rf $root; mkdir -p $root; cd $root
git clone -q /work/main perfkit
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
SWIFT
# The README's test file, as printed.
python3 - <<'PY'
import re
readme = open('/tmp/newuser/perfkit/README.md').read()
blocks = re.findall(r"```swift\n(.*?)```", readme, re.S)
test = next(b for b in blocks if 'ParserBenchmarks' in b)
open('Tests/ParserTests/ParserBenchmarks.swift', 'w').write(test)
PY
printf '.build/\n.perfkit/\n' > .gitignore
git init -q -b main && git add -A && git -c user.email=u@x -c user.name=u commit -qm "parser"
pk() { swift package --allow-writing-to-package-directory perfkit "$@"; }
start=$(date +%s)
echo "== swift test"; swift test 2>&1 | tail -2
echo "== pk run --counts"; pk run --counts 2>&1 | tail -4
echo "== pk baseline save main"; pk baseline save main 2>&1 | tail -2
echo "== pk history record"; pk history record 2>&1 | tail -1
# … change the code: a checksum left in parseSum (about 20% more work)
python3 - <<'PY'
p = 'Sources/Parser/Parser.swift'
s = open(p).read()
s = s.replace("    return total &+ current\n}", "    var check = 0\n    for byte in line.utf8.prefix(line.utf8.count / 5) { check = check &* 31 &+ Int(byte) }\n    if check == 42 { total &+= 1 }\n    return total &+ current\n}", 1)
open(p, 'w').write(s)
PY
git -c user.email=u@x -c user.name=u commit -qam "a checksum in parseSum"
echo "== pk run --counts (changed)"; pk run --counts 2>&1 | tail -2
echo "== pk compare main"; set +e; pk compare main --markdown pr.md --fail-on regression 2>&1 | head -12; echo "exit ${PIPESTATUS[0]}"; set -e
echo "== pk history record + show"; pk history record 2>&1 | tail -1; pk history show 2>&1 | head -8
echo "total $(( $(date +%s) - start )) s"
