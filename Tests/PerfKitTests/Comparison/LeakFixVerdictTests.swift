import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// A leak fix is an improvement.
///
/// Its leaked allocations improve, its frees and releases have no better direction, and the instructions its frees cost
/// are named, never called a regression.
@Suite struct LeakFixVerdictTests {
    /// One test, two measurements: a multi-million-instruction body and a leaking one.
    static func tests(big: Double, leakyInstructions: Double, leaked: Double, frees: Double) -> [TestResult] {
        func measurement(_ name: String, _ series: [SampleSeries]) -> MeasurementResult {
            MeasurementResult(name: name, arms: ["main"], order: [], series: series, unavailable: [])
        }
        return [
            TestResult(
                id: "S/t()", suite: "S",
                measurements: [
                    measurement("big", [Build.series(.instructions, values: [big, big])]),
                    measurement(
                        "leaky",
                        [
                            Build.series(.instructions, values: [leakyInstructions, leakyInstructions]),
                            Build.series(.mallocs, values: [329, 329]), Build.series(.frees, values: [frees, frees]),
                            Build.series(.leakedAllocations, values: [leaked]),
                        ]),
                ])
        ]
    }

    @Test func aLeakFixImprovesAndARealChangeBesideItRegresses() throws {
        let comparison = try Comparison(
            baseline: Self.tests(big: 5_600_000, leakyInstructions: 288, leaked: 1, frees: 329),
            current: Self.tests(big: 5_600_050, leakyInstructions: 335, leaked: 0, frees: 330),
            baselineEnvironment: SimulatedCountTests.counted(), currentEnvironment: SimulatedCountTests.counted())
        func row(_ measurement: String, _ metric: Metric) throws -> ComparisonRow {
            try #require(comparison.rows.first { $0.measurement == measurement && $0.metric == metric })
        }
        let big = try row("big", .instructions)
        #expect(big.verdict == .regressed)
        #expect(big.difference?.value == 50 && big.reason == nil)
        #expect(try row("leaky", .leakedAllocations).verdict == .improved)
        #expect(try row("leaky", .frees).verdict == .notJudged)
        let cost = try row("leaky", .instructions)
        #expect(cost.verdict == .notJudged)
        #expect(cost.reason == .leakFixCost)
        #expect(cost.note.hasPrefix("exact: +47 instructions a call (+16.3%)"), "\(cost.note)")
        #expect(!comparison.rows.contains { $0.measurement == "leaky" && $0.verdict == .regressed })
        #expect(comparison.hasRegression)
    }

    /// A rise far beyond what freeing costs is still a regression, leak fix or not.
    @Test func aLargeRiseBesideALeakFixStillRegresses() throws {
        let comparison = try Comparison(
            baseline: Self.tests(big: 1, leakyInstructions: 288, leaked: 1, frees: 329),
            current: Self.tests(big: 1, leakyInstructions: 288 + 5_000, leaked: 0, frees: 330),
            baselineEnvironment: SimulatedCountTests.counted(), currentEnvironment: SimulatedCountTests.counted())
        let cost = try #require(comparison.rows.first { $0.measurement == "leaky" && $0.metric == .instructions })
        #expect(cost.verdict == .regressed)
    }

    /// Retains that were the same in every sample compare as unchanged, whatever the number of samples.
    @Test func identicalRetainsWithMoreSamplesAreUnchangedExactly() throws {
        let comparison = try Comparison(
            baseline: SimulatedCountTests.tests([313, 313], metric: .retains),
            current: SimulatedCountTests.tests([313, 313, 313, 313], metric: .retains),
            baselineEnvironment: SimulatedCountTests.counted(), currentEnvironment: SimulatedCountTests.counted())
        #expect(comparison.rows[0].verdict == .unchanged, "\(comparison.rows[0].note)")
    }
}
