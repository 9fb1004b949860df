import PerfKit
import PerfKitCore
import PerfKitTestSupport
import Testing

/// Arms against the first arm (issue 61 item 5): an arm that does no work in a phase is not a
/// "+127,249% regression" in the headline.
@Suite struct ArmComparisonTests {
    static func test(reference: Double, native: Double, metric: Metric = .instructions) -> TestResult {
        let series = [
            Build.series(metric, values: [reference, reference, reference], arm: "reference"),
            Build.series(metric, values: [native, native, native], arm: "native"),
        ]
        return TestResult(
            id: "S/scroll()", suite: "S",
            measurements: [
                MeasurementResult(
                    name: "scroll", arms: ["reference", "native"], order: [], series: series, unavailable: [])
            ])
    }

    @Test func anArmThatDoesNoWorkInAPhaseIsNotJudged() throws {
        let idle = try #require(try ArmComparison.compare([Self.test(reference: 50, native: 1_120_000)]))
        let row = try #require(idle.rows.first)
        #expect(row.verdict == .notJudged)
        #expect(row.reason == .armIdle)
        #expect(row.note.hasPrefix("not comparable: the reference arm does almost no work in this phase"))
        #expect(!idle.hasRegression)
    }

    @Test func twoArmsThatBothWorkAreJudged() throws {
        let working = try #require(try ArmComparison.compare([Self.test(reference: 500_000, native: 1_000_000)]))
        #expect(working.rows.first?.verdict == .regressed)
        // Cheap on both sides: not idle, whatever the ratio of two cheap figures.
        let cheap = try #require(try ArmComparison.compare([Self.test(reference: 500, native: 900)]))
        #expect(cheap.rows.first?.reason != .armIdle)
    }
}
