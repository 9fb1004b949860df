#!/usr/bin/env bash
# Runs Documentation/CI.md's commands on a throwaway repository: a package that depends on this
# checkout of PerfKit, a base commit, and a head commit that makes one of two functions 20% slower.
#   Scripts/ci-recipe-check.sh [ROUNDS]     (default: abba's adaptive rounds; a number fixes them)
# Passes when `perfkit abba BASE HEAD --fail-on regression` exits 1, names the slowed function on
# standard output and in the report's first 15 lines, does not flag the unchanged one, and writes a
# report that fits a pull-request comment; then when a baseline saved per toolchain is the one
# compare uses, and `perfkit check --thresholds` exits 1 with the exceeded limit in the job summary.
set -euo pipefail
perfkit_src="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-}"
work="$(mktemp -d /tmp/perfkit-ci-recipe.XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/app/Sources/Checksums" "$work/app/Tests/ChecksumsTests"
cd "$work/app"
cat > Package.swift <<SWIFT
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "Checksums",
    dependencies: [.package(path: "$perfkit_src")],
    targets: [
        .target(name: "Checksums"),
        .testTarget(name: "ChecksumsTests", dependencies: ["Checksums", .product(name: "PerfKitTesting", package: "$(basename "$perfkit_src")")]),
    ]
)
SWIFT
cat > Sources/Checksums/Checksums.swift <<'SWIFT'
/// Two checksums over the same bytes; `extraRounds` is the knob the head commit turns.
public enum Checksums {
    public static var extraRounds: Int { 0 }
    @inline(never) public static func adler(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for _ in 0...extraRounds { for byte in bytes { a = (a &+ UInt32(byte)) % 65_521; b = (b &+ a) % 65_521 } }
        return b << 16 | a
    }
    @inline(never) public static func fletcher(_ bytes: [UInt8]) -> UInt16 {
        var a: UInt16 = 0, b: UInt16 = 0
        for byte in bytes { a = (a &+ UInt16(byte)) % 255; b = (b &+ a) % 255 }
        return b << 8 | a
    }
}
SWIFT
cat > Tests/ChecksumsTests/ChecksumBenchmarks.swift <<'SWIFT'
import Checksums
import PerfKitTesting
import Testing

@Suite struct ChecksumBenchmarks {
    static let bytes = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    @Test(.performance(samples: 20)) func adler() throws { try measure("adler") { Checksums.adler(Self.bytes) } }
    @Test(.performance(samples: 20)) func fletcher() throws { try measure("fletcher") { Checksums.fletcher(Self.bytes) } }
}
SWIFT
printf '.build/\n.perfkit/\nperf/\n' > .gitignore
git init -q && git add -A && git -c user.email=ci@example.com -c user.name=ci commit -qm base
base=$(git rev-parse HEAD)
# The head: adler does 20% more work (one more pass over a fifth of the bytes).
python3 - <<'PY'
p = "Sources/Checksums/Checksums.swift"
s = open(p).read()
s = s.replace("for _ in 0...extraRounds { for byte in bytes {", "for _ in 0...extraRounds { for byte in bytes + bytes.prefix(bytes.count / 5) {")
open(p, "w").write(s)
PY
git -c user.email=ci@example.com -c user.name=ci commit -qam "adler: 20% more work"
set +e
swift package --allow-writing-to-package-directory perfkit abba "$base" HEAD ${rounds:+--rounds "$rounds"} \
  --markdown perf/report.md --csv perf/report.csv --fail-on regression > "$work/stdout.txt" 2> "$work/stderr.txt"
status=$?
set -e
cat "$work/stdout.txt"
grep "Looks taken" perf/report-full.md perf/report.md 2>/dev/null | head -1 | sed 's/.*Looks taken/Looks taken/' 
fail() { echo "ci-recipe-check: FAILED: $*"; tail -5 "$work/stderr.txt"; exit 1; }
[ "$status" -ne 0 ] || fail "abba exited 0 on a 20% slowdown"
grep -q "regressed .*adler()" "$work/stdout.txt" || fail "adler is not named as regressed on standard output"
head -15 perf/report.md | grep -q "regressed.*adler()" || fail "adler is not named in the report's first 15 lines"
if grep -q "regressed .*fletcher()\|improved .*fletcher()" "$work/stdout.txt"; then fail "the unchanged fletcher was flagged"; fi
size=$(wc -c < perf/report.md)
[ "$size" -le 60000 ] || fail "perf/report.md is $size characters"
[ -f perf/report-full.md ] && [ -f perf/report.csv ] && [ -f perf/report-raw.csv ] || fail "a report file is missing"
echo "ci-recipe-check: abba passed (exit $status, report $size characters)"

# The per-toolchain gate (Documentation/CI.md, "Per-toolchain gates"): a baseline saved for this
# toolchain, found again by compare, and package-benchmark's threshold files checked with the table
# in the job summary. The head's adler allocates (its `bytes + …` array), fletcher does not.
pk() { swift package --allow-writing-to-package-directory perfkit "$@"; }
toolchain=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -1)
pk run > "$work/run.txt" 2>> "$work/stderr.txt" || fail "perfkit run failed"
pk baseline save main --per-toolchain > /dev/null 2>> "$work/stderr.txt"
pk compare main > "$work/compare.txt" 2>> "$work/stderr.txt" || true
grep -q "^baseline main.swift-$toolchain: the one saved for this run's toolchain" "$work/compare.txt" \
  || fail "compare did not use main.swift-$toolchain"
mkdir -p "Thresholds/$toolchain"
echo '{"mallocCountTotal": 0}' > "Thresholds/$toolchain/ChecksumsTests.adler.p90.json"
echo '{"mallocCountTotal": 0}' > "Thresholds/$toolchain/ChecksumsTests.fletcher.p90.json"
summary="$work/job-summary.md"
set +e
pk check --thresholds Thresholds | tee -a "$summary"
gate=${PIPESTATUS[0]}
set -e
[ "$gate" -eq 1 ] || fail "check exited $gate, not 1, on adler's mallocs over a limit of 0"
grep -q "adler.*mallocCountTotal.*exceeded" "$summary" || fail "the summary does not name adler's exceeded limit"
grep -q "fletcher.*mallocCountTotal.*passed" "$summary" || fail "fletcher's limit is not shown as held"
echo "ci-recipe-check: passed (abba exit $status, report $size characters; check exit $gate)"
