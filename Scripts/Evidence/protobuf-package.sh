#!/usr/bin/env bash
# apple/swift-protobuf as a user adopts PerfKit: a package whose manifest also builds a C++ `protoc`
# (abseil and libprotobuf, vendored) and two more executables no test needs. Its tree (a bare repository,
# cloned) gets a ProtobufBenchmarks suite over the library's well-known types (a
# `google.protobuf.Struct`, a `[String: Value]` map: JSON encoding of 10, 100 and 400 fields, binary decoding of 10
# and 100, the text format, an async JSON decode) and PerfKit as a path dependency with the Jemalloc and History
# traits. Then: perfkit run --counts (the release build of the test product alone), a second counting run of the
# same build, a timing run after it (its build step), and, for the record, the old way: every target in release
# (`swift build -c release --build-tests`) in a scratch folder of its own.
# usage: protobuf-package.sh BARE_REPO [PERFKIT_CHECKOUT]   (made in /tmp/pb)
set -uo pipefail
bare=$1; perfkit=${2:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}
rm -rf /tmp/pb && mkdir -p /tmp/pb && cd /tmp/pb
git clone -q "$perfkit" perfkit && git clone -q "$bare" swift-protobuf && cd swift-protobuf
printf '#!/bin/sh\nexec swift package --allow-writing-to-package-directory perfkit "$@"\n' > /tmp/pb/pk
chmod +x /tmp/pb/pk; pk=/tmp/pb/pk
t() { local label=$1; shift; /usr/bin/time -f "$label: %e s" "$@"; echo "$label exit $?"; }
python3 - <<'PY'
p = 'Package.swift'
s = open(p).read()
s = s.replace('    targets: [\n', '    dependencies: [.package(path: "../perfkit", traits: ["Jemalloc", "History"])],\n'
              '    targets: [\n', 1)
s = s.replace('    ],\n    swiftLanguageModes', '        .testTarget(\n            name: "ProtobufBenchmarks",\n'
              '            dependencies: ["SwiftProtobuf", .product(name: "PerfKitTesting", package: "perfkit")]\n'
              '        ),\n    ],\n    swiftLanguageModes', 1)
open(p, 'w').write(s)
PY
mkdir -p Tests/ProtobufBenchmarks && cat > Tests/ProtobufBenchmarks/ProtobufBenchmarks.swift <<'SWIFT'
import Foundation
import PerfKitTesting
import SwiftProtobuf
import Testing

/// A `google.protobuf.Struct` of `n` fields (a `[String: Value]` map): numbers, strings and lists.
func record(_ n: Int) -> Google_Protobuf_Struct {
    var fields: [String: Google_Protobuf_Value] = [:]
    for i in 0..<n {
        switch i % 3 {
        case 0: fields["count\(i)"] = Google_Protobuf_Value(floatLiteral: Double(i) * 1.5)
        case 1: fields["name\(i)"] = Google_Protobuf_Value(stringLiteral: "value \(i)")
        default:
            let list: Google_Protobuf_ListValue = [1, "two", true]
            fields["list\(i)"] = Google_Protobuf_Value(listValue: list)
        }
    }
    return Google_Protobuf_Struct(fields: fields)
}

@Suite struct ProtobufBenchmarks {
    @Test(.performance(), arguments: [10, 100, 400])
    func jsonEncode(n: Int) throws {
        let message = record(n)
        try measure("json") { _ = try message.jsonString() }
    }

    @Test(.performance(), arguments: [10, 100])
    func binaryDecode(n: Int) throws {
        let bytes: [UInt8] = try record(n).serializedBytes()
        try measure("decode") { _ = try Google_Protobuf_Struct(serializedBytes: bytes) }
    }

    @Test(.performance())
    func textFormat() throws {
        let message = record(50)
        try measure("text") { _ = message.textFormatString() }
    }

    @Test(.performance())
    func decodeAsync() async throws {
        let json = try record(20).jsonString()
        try await measure("json decode", async: { try Google_Protobuf_Struct(jsonString: json) })
    }
}
SWIFT
echo ".perfkit/" >> .gitignore
git add -A && git -c user.email=pb@example.invalid -c user.name=PB commit -qm "PerfKit benchmarks"
t "pk run --counts" $pk run --counts
t "c1" $pk run --counts-only --output .perfkit/runs/c1.json
t "c2" $pk run --counts-only --output .perfkit/runs/c2.json
python3 "$perfkit/Scripts/Evidence/counts-paired.py" .perfkit/runs/c1.json .perfkit/runs/c2.json | tail -3
t "pk run (timing after counting)" $pk run --output .perfkit/runs/t1.json
ls .perfkit/build/release/ | grep -c protoc
t "every target (--build-tests)" swift build -c release --build-tests --scratch-path /tmp/pb/every > /tmp/pb/every.log 2>&1
