#!/usr/bin/env bash
# Builds the history evidence of `perfkit history` and `perfkit bisect` (Documentation/Evidence.md,
# "History"): a throwaway package, Tally, in a git repository of 30 commits, and one counting run
# (`perfkit run --counts`) of every commit. Commit 12 makes checksum() do 2% more work (51 rounds
# instead of 50: a count change); commit 21 makes flush() wait 15% longer (a sleep of 2,300 µs
# instead of 2,000: a timing change with the same instructions). The other 28 commits change a
# file the tests do not call, so every commit is another binary.
#
# usage: Scripts/Evidence/history-package.sh PERFKIT_CHECKOUT PERFKIT_BINARY REPO RUNS
#   PERFKIT_CHECKOUT  a PerfKit checkout the package depends on (a copy, so editing PerfKit meanwhile is safe)
#   PERFKIT_BINARY    the perfkit tool that measures
#   REPO              the throwaway repository to create (must not exist)
#   RUNS              the folder the 30 run files go into (NN.json)
set -euo pipefail
checkout=$1 perfkit=$2 repo=$3 runs=$4
mkdir -p "$repo/Sources/Tally" "$repo/Tests/TallyTests" "$runs"
cd "$repo"
git init -q -b main
git config user.email history@example.invalid
git config user.name "History Evidence"
cat > Package.swift <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Tally",
    dependencies: [.package(path: "$checkout")],
    targets: [
        .target(name: "Tally"),
        .testTarget(name: "TallyTests", dependencies: ["Tally", .product(name: "PerfKitTesting", package: "$(basename "$checkout")")]),
    ]
)
SWIFT
write_sources() {  # $1 rounds, $2 sleep microseconds, $3 commit number
  cat > Sources/Tally/Tally.swift <<SWIFT
import Foundation

/// A checksum of \`bytes\` over several rounds.
public func checksum(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for _ in 0..<$1 {
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    return hash
}

/// Waits for a simulated device to take the data.
public func flush() {
    usleep($2)
}
SWIFT
  cat > Sources/Tally/Revision.swift <<SWIFT
/// Which commit of the history evidence this is (a file no measured test calls).
public let revision = $3
public func describe() -> String { "revision \\(revision): " + String(repeating: "x", count: revision) }
SWIFT
}
cat > Tests/TallyTests/TallyBenchmarks.swift <<'SWIFT'
import PerfKitTesting
import Tally
import Testing

@Suite struct TallyBenchmarks {
    static let bytes = (0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    @Test(.performance()) func checksum() throws {
        try measure("checksum") { Tally.checksum(Self.bytes) }
    }

    @Test(.performance()) func flush() throws {
        try measure("flush") { Tally.flush() }
    }
}
SWIFT
printf '.build/\n.perfkit/\n' > .gitignore
for n in $(seq 1 30); do
  rounds=50; sleep=2000
  [ "$n" -ge 12 ] && rounds=51
  [ "$n" -ge 21 ] && sleep=2300
  write_sources $rounds $sleep "$n"
  git add -A
  message="commit $n: revision $n"
  [ "$n" = 12 ] && message="commit 12: checksum makes 51 rounds (2% more work)"
  [ "$n" = 21 ] && message="commit 21: flush waits 2,300 µs (15% longer)"
  git commit -q -m "$message"
done
for n in $(seq 1 30); do
  git checkout -q "$(git rev-list --reverse main | sed -n "${n}p")"
  echo "history-package: measuring commit $n" >&2
  "$perfkit" run --counts --processes 4 --output "$runs/$(printf %02d "$n").json" > "$runs/$(printf %02d "$n").log" 2>&1
done
git checkout -q main
