#!/usr/bin/env bash
# apple/swift-argument-parser as a user adopts PerfKit: its tree (a bare repository,
# cloned) gets a ParsingBenchmarks suite (a parameterized parse of 10, 100 and 400 targets,
# help text, an error message) and PerfKit as a path dependency with the Jemalloc and History traits (the manifest
# moved to tools 6.1 for traits). Then: swift test, perfkit run --counts, two counting runs of one build (c3, c4),
# a history entry and a baseline, a checksum of each argument in parseIndividualArg (a small parse regression) and
# a comment-only commit after it, a counting run, compare, history record, abba --counts, bisect, history show.
# usage: argument-parser-package.sh BARE_REPO [PERFKIT_CHECKOUT]   (made in /tmp/ap)
set -uo pipefail
bare=$1; perfkit=${2:-$(git -C "$(dirname "$0")" rev-parse --show-toplevel)}
rm -rf /tmp/ap && mkdir -p /tmp/ap && cd /tmp/ap
git clone -q "$perfkit" perfkit && git clone -q "$bare" sap && cd sap
printf '#!/bin/sh\nexec swift package --allow-writing-to-package-directory perfkit "$@"\n' > /tmp/ap/pk
chmod +x /tmp/ap/pk; pk=/tmp/ap/pk
t() { local label=$1; shift; /usr/bin/time -f "$label: %e s" "$@"; echo "$label exit $?"; }
python3 - <<'PY'
p = 'Package.swift'
s = open(p).read().replace('// swift-tools-version:6.0', '// swift-tools-version:6.1', 1)
s = s.replace('  dependencies: [],', '  dependencies: [.package(path: "../perfkit", traits: ["Jemalloc", "History"])],', 1)
s = s.replace('    // Core Library\n', '    .testTarget(\n      name: "ArgumentParserBenchmarks",\n'
              '      dependencies: ["ArgumentParser", .product(name: "PerfKitTesting", package: "perfkit")]),\n\n'
              '    // Core Library\n', 1)
open(p, 'w').write(s)
PY
mkdir -p Tests/ArgumentParserBenchmarks && cat > Tests/ArgumentParserBenchmarks/ParsingBenchmarks.swift <<'SWIFT'
import ArgumentParser
import PerfKitTesting
import Testing

struct Build: ParsableCommand {
    @Option(name: .shortAndLong, help: "Targets to build.") var target: [String] = []
    @Option(help: "Jobs.") var jobs: Int = 1
    @Option(name: .customLong("define"), parsing: .unconditionalSingleValue) var defines: [String] = []
    @Flag(name: .shortAndLong, help: "Verbose.") var verbose = false
    @Flag(inversion: .prefixedNo) var cache = true
    @Argument(help: "Files.") var files: [String] = []
}

struct Tool: ParsableCommand {
    static let configuration = CommandConfiguration(subcommands: [Build.self, Clean.self])
}

struct Clean: ParsableCommand {
    @Flag var all = false
}

/// Arguments for a build with `n` targets, `n` defines and `n` files.
func arguments(_ n: Int) -> [String] {
    var words = ["build", "--jobs", "8", "-v", "--no-cache"]
    for i in 0..<n {
        words += ["--target", "t\(i)", "--define", "D\(i)=\(i)", "file\(i).swift"]
    }
    return words
}

@Suite struct ParsingBenchmarks {
    @Test(.performance(), arguments: [10, 100, 400])
    func parseBuild(n: Int) throws {
        let words = arguments(n)
        try measure("parse") { _ = try Tool.parseAsRoot(words) }
    }

    @Test(.performance())
    func helpText() throws {
        try measure("help") { _ = Tool.helpMessage(for: Build.self) }
    }

    @Test(.performance())
    func errorForAnUnknownOption() throws {
        try measure("error") { _ = Tool.fullMessage(for: ValidationError("--frobnicate")) }
    }
}
SWIFT
echo ".perfkit/" >> .gitignore
git add -A && git commit -qm "PerfKit benchmarks"
t "swift test" swift test --filter ParsingBenchmarks > /tmp/ap/test.log 2>&1
t "pk run --counts" $pk run --counts
t "c3" $pk run --counts-only --output .perfkit/runs/c3.json
t "c4" $pk run --counts-only --output .perfkit/runs/c4.json
python3 "$perfkit/Scripts/Evidence/counts-paired.py" .perfkit/runs/c3.json .perfkit/runs/c4.json | tail -3
export PERFKIT_HISTORY=/tmp/ap/history.sqlite; rm -f $PERFKIT_HISTORY
t "history record base" $pk history record --from .perfkit/runs/c3.json
t "baseline save" $pk baseline save main --from .perfkit/runs/c3.json
git add Baselines && git commit -qm "PerfKit baseline"
base=$(git rev-parse HEAD)
python3 - <<'PY'
p = 'Sources/ArgumentParser/Parsing/SplitArguments.swift'
s = open(p).read()
old = "  let index = SplitArguments.Index(inputIndex: .init(rawValue: position))\n  if let nonDashIdx"
new = ("  let index = SplitArguments.Index(inputIndex: .init(rawValue: position))\n"
       "  let checksum = arg.unicodeScalars.reduce(0) { $0 &* 31 &+ Int($1.value) }\n"
       "  if checksum == Int.min { return [] }\n"
       "  if let nonDashIdx")
assert old in s
open(p, 'w').write(s.replace(old, new, 1))
PY
git commit -qam "parseIndividualArg: a checksum of each argument"
echo "// a comment" >> Sources/ArgumentParser/Utilities/Tree.swift && git commit -qam "Tree: a comment"
t "run --counts-only (changed)" $pk run --counts-only --output .perfkit/runs/c5.json
t "compare" $pk compare main --current .perfkit/runs/c5.json --markdown /tmp/ap/pr.md --fail-on regression
t "history record changed" $pk history record --from .perfkit/runs/c5.json
t "abba --counts" $pk abba "$base" HEAD --counts --markdown /tmp/ap/abba.md
t "bisect" $pk bisect "$base" HEAD --series 'ParsingBenchmarks/parseBuild(n:)'
t "history show" $pk history show --markdown /tmp/ap/history.md
