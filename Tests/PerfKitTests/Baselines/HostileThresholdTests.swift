import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// package-benchmark files that once crashed the reader or injected code into pasted budgets.
///
/// Each is refused with the file and the field named, and every name printed as Swift stays inside its comment or
/// literal.
@Suite struct HostileThresholdTests {
    let folder = TemporaryFolder("perfkit-hostile-thresholds")

    func refusal(_ body: () throws -> Any) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Limits past 2^53 (1e19, 1e300, 2^64) are refused before any conversion to an integer.
    @Test(arguments: ["1e19", "1e300", "18446744073709551616"])
    func aHugeLimitIsRefusedNamingTheField(limit: String) throws {
        try folder.write(["6.3/A.b.p90.json": "{\"wallClock\": \(limit)}"])
        let message = refusal { try PackageBenchmarkThresholds(folder: folder.path + "/6.3") }
        #expect(message?.contains("field 'wallClock': the limit") == true, "\(message ?? "read")")
        #expect(message?.contains("too large") == true)
    }

    /// A metric PerfKit has no counterpart for is skipped and named, never refusing the folder.
    @Test func anUnknownMetricIsSkippedAndNamed() throws {
        try folder.write([
            "6.3/A.b.p90.json": "{\"objectAllocCount\": 3, \"mallocCountTotal\": 7, \"throughput\": 9}"
        ])
        let thresholds = try PackageBenchmarkThresholds(folder: folder.path + "/6.3")
        #expect(thresholds.limits.map(\.metric) == [.mallocs, .objectAllocations])
        #expect(thresholds.unreadMetrics == ["throughput"])
    }

    static func histogramFile(_ histogram: String) -> String {
        "{\"results\":[{\"name\":\"encode\",\"target\":\"T\"},[{\"metric\":{\"mallocCountTotal\":{}},"
            + "\"statistics\":{\"prefersLarger\":false,\"histogram\":\(histogram)}}]]}"
    }

    /// Histograms whose fields would overflow the percentile's arithmetic are refused, naming the field.
    @Test(arguments: [
        ("\"counts\":[1],\"_totalCount\":1,\"unitMagnitude\":64", "unitMagnitude"),
        ("\"counts\":[1],\"_totalCount\":1,\"unitMagnitude\":-1", "unitMagnitude"),
        ("\"counts\":[1],\"_totalCount\":1,\"unitMagnitude\":63", "unitMagnitude"),
        (
            "\"counts\":[9223372036854775808,9223372036854775808],\"_totalCount\":18446744073709551615,\"unitMagnitude\":0",
            "counts"
        ),
        ("\"counts\":[1,1],\"_totalCount\":5,\"unitMagnitude\":0", "_totalCount"),
    ])
    func anOverflowingHistogramIsRefused(fields: String, field: String) throws {
        let histogram = "{\(fields),\"subBucketHalfCountMagnitude\":10,\"maxValue\":10,\"minNonZeroValue\":1}"
        try folder.write(["results.json": Self.histogramFile(histogram)])
        let message = refusal { try PackageBenchmarkThresholds(baselineFile: folder.path + "/results.json") }
        #expect(message?.contains("histogram field '\(field)'") == true, "\(message ?? "read")")
    }

    /// A seeded mutation fuzz of a valid baseline file: every mutant is read or refused, none crashes.
    @Test func aMutatedBaselineIsReadOrRefusedNeverACrash() throws {
        let valid = Self.histogramFile(
            "{\"counts\":[0,2,1],\"_totalCount\":3,\"unitMagnitude\":0,\"subBucketHalfCountMagnitude\":10,"
                + "\"maxValue\":2,\"minNonZeroValue\":1}")
        let replacements = [
            "0", "-1", "64", "63", "62", "2147483647", "9223372036854775807", "18446744073709551615", "1e300",
            "[]", "[9223372036854775808,9223372036854775808]", "\"x\"", "null", "{}",
        ]
        var generator = SeededGenerator(seed: 72)
        let numbers = try NSRegularExpression(pattern: "-?[0-9]+|\\[[0-9,]*\\]")
        let spots = numbers.matches(in: valid, range: NSRange(valid.startIndex..., in: valid))
        var refused = 0
        for mutant in 0..<300 {
            var text = valid
            for _ in 0...(mutant % 3) {
                let spot = spots[Int(generator.next() % UInt64(spots.count))]
                let range = Range(spot.range, in: valid)!
                let replacement = replacements[Int(generator.next() % UInt64(replacements.count))]
                if text[range.lowerBound...].count >= valid[range].count, text.indices.contains(range.lowerBound) {
                    text.replaceSubrange(
                        range.lowerBound..<text.index(range.lowerBound, offsetBy: valid[range].count), with: replacement
                    )
                }
            }
            try folder.write(["m.json": text])
            if refusal({ try PackageBenchmarkThresholds(baselineFile: folder.path + "/m.json") }) != nil {
                refused += 1
            }
        }
        #expect(refused > 0)
    }

    /// Hostile target and benchmark names print as one comment line and one string literal each.
    ///
    /// The compiler's parser accepts the output, with no declaration added.
    @Test func pastedBudgetsStayCommentsAndLiterals() throws {
        let names = [
            "T\n@Test func injected() {}\n//", "T\r@Test func injected2() {}", "q\"uote\\\")", "e\u{1B}[31mred",
            "line\u{2028}sep",
        ]
        var results: [String] = []
        for (index, name) in names.enumerated() {
            results.append(
                "{\"name\":\(Self.json(name + "b\(index)")),\"target\":\(Self.json(name))},[{\"metric\":{\"mallocCountTotal\":{}},"
                    + "\"statistics\":{\"prefersLarger\":false,\"histogram\":{\"counts\":[0,1],\"_totalCount\":1,"
                    + "\"unitMagnitude\":0,\"subBucketHalfCountMagnitude\":10,\"maxValue\":1,\"minNonZeroValue\":1}}}]")
        }
        try folder.write(["results.json": "{\"results\":[\(results.joined(separator: ","))]}"])
        let thresholds = try PackageBenchmarkThresholds(baselineFile: folder.path + "/results.json")
        let lines = thresholds.budgetSource(folder: folder.path + "/results.json\n@Test func x() {}")
        #expect(lines.count == 1 + 2 * names.count)
        #expect(lines.allSatisfy { !$0.contains("\n") && !$0.contains("\r") && !$0.contains("\u{2028}") })
        #expect(lines.filter { $0.hasPrefix("@Test(") }.count == names.count)
        #expect(lines.filter { $0.hasPrefix("//") }.count == 1 + names.count)
        // The compiler's parser reads the whole output as comments and attributes on stub functions.
        var source = ""
        for (index, line) in lines.enumerated() {
            source += line + "\n"
            if line.hasPrefix("@Test(") { source += "func stub\(index)() {}\n" }
        }
        source = source.replacingOccurrences(of: "{ … }", with: "{}")
        try folder.write(["Budgets.swift": source])
        let parsed = try ChildProcess.runKeepingErrors(["swiftc", "-parse", folder.path + "/Budgets.swift"], in: ".")
        #expect(parsed.status == 0, "\(parsed.errors)")
        #expect(!source.split(separator: "\n").contains { $0.hasPrefix("@Test func") })
    }

    static func json(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    /// A FIFO with no writer is refused at once, never waited on.
    @Test func aFIFOWithNoWriterIsRefusedAtOnce() throws {
        let path = folder.path + "/fifo.p90.json"
        try folder.write([:])
        #expect(mkfifo(path, 0o600) == 0)
        let message = refusal { try InputFile.read(path) }
        #expect(message?.hasSuffix("is a FIFO with no writer") == true, "\(message ?? "read")")
    }
}

/// Names read from files reach the terminal with their control characters escaped (D14), by the tool's one output
/// function.
@Suite struct TerminalSafeOutputTests {
    let folder = TemporaryFolder("perfkit-terminal-safe")

    @Test func anEscapeSequenceInAThresholdNameIsPrintedEscaped() throws {
        try folder.write(["6.3/A\u{1B}[31m\r.b.p90.json": "{\"mallocCountTotal\": 3}"])
        let (status, stdout, stderr) = try ToolProcess("perfkit").run(
            ["check", "--thresholds", folder.path + "/6.3", "--as-budgets"], in: folder.path)
        let output = stdout + stderr
        #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" }, "\(status): \(output)")
        #expect(output.contains("\\u{1B}") || output.contains("\\u{001B}"), "\(output)")
    }

    /// Any line the tool writes, a usage error quoting an option's value included, is made safe where it is written.
    @Test func anEscapeSequenceInAnOptionValueIsPrintedEscaped() throws {
        let (status, _, stderr) = try ToolProcess("perfkit").run(
            ["run", "--build-system", "\u{1B}[31mx\r"], in: folder.path)
        #expect(status == 2)
        #expect(!stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" }, "\(stderr)")
        #expect(stderr.contains("not '\\u{1B}[31mx\\r'"), "\(stderr)")
    }
}
