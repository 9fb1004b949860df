import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// The decisions behind a verdict, one at a time: which statistic, which gate, which direction.
@Suite struct ComparisonDecisionTests {
    typealias V = Build

    /// Tests with one series per (id, values) pair, all of `metric`.
    static func many(_ series: [(String, [Double])], metric: Metric = .wallClock) -> [TestResult] {
        series.flatMap { V.processTests($0.1, metric: metric, id: $0.0) }
    }

    @Test func aDeterministicMetricIsExactOnlyWhenEverySampleIsIdentical() throws {
        let constant = try Comparison(
            baseline: V.processTests(Array(repeating: 161, count: 40), metric: .mallocs),
            current: V.processTests(Array(repeating: 161, count: 30), metric: .mallocs))
        // 30 rounds against 40 of identical code: unchanged, not "improved"
        #expect(constant.rows[0].verdict == .unchanged)
        #expect(constant.rows[0].isExact)
        let varying = try Comparison(
            baseline: V.processTests(V.noisy(170, seed: 1, spread: 0.2), metric: .mallocs),
            current: V.processTests(V.noisy(170, seed: 2, spread: 0.2), metric: .mallocs))
        #expect(varying.rows[0].change != nil)  // compared as a distribution
        #expect(!varying.rows[0].isExact && varying.rows[0].pValue != nil)
        #expect(varying.rows[0].verdict != .regressed && varying.rows[0].verdict != .improved)
    }

    @Test func anAbsoluteThresholdDecidesExactChanges() throws {
        let bands = NoiseBands(absolute: ["mallocs": 2])
        let within = try Comparison(
            baseline: V.processTests([10, 10], metric: .mallocs), current: V.processTests([12, 12], metric: .mallocs),
            bands: bands)
        #expect(within.rows[0].verdict == .withinNoise)
        let beyond = try Comparison(
            baseline: V.processTests([10, 10], metric: .mallocs), current: V.processTests([13, 13], metric: .mallocs),
            bands: bands)
        #expect(beyond.rows[0].verdict == .regressed)
    }

    @Test func largerIsBetterFlipsTheDirection() throws {
        let reused = Metric("viewsReused", unit: .count, polarity: .largerIsBetter, isDeterministic: true)
        let more = try Comparison(
            baseline: V.processTests([100, 100], metric: reused), current: V.processTests([120, 120], metric: reused))
        #expect(more.rows[0].verdict == .improved)
        let throughput = Metric("itemsPerSecond", unit: .count, polarity: .largerIsBetter)
        let faster = try Comparison(
            baseline: V.processTests(V.noisy(100, seed: 1), metric: throughput),
            current: V.processTests(V.noisy(120, seed: 2), metric: throughput))
        #expect(faster.rows[0].verdict == .improved)
        let slower = try Comparison(
            baseline: V.processTests(V.noisy(100, seed: 3), metric: throughput),
            current: V.processTests(V.noisy(80, seed: 4), metric: throughput))
        #expect(slower.rows[0].verdict == .regressed)
    }

    @Test func aCIOutsideTheBandThatIsNotSignificantAfterAdjustmentIsInconclusive() throws {
        // Three values a side: the smallest two-sided Mann–Whitney p is 0.1, never below 0.05,
        // while the ratio's bootstrap CI can lie well outside ±5%.
        let comparison = try Comparison(
            baseline: V.processTests([100, 101, 102]), current: V.processTests([130, 131, 132]))
        let row = comparison.rows[0]
        #expect(row.change!.lower > 1.05)
        #expect(row.qValue! >= 0.05)
        #expect(row.verdict == .inconclusive)
        #expect(row.reason == .notSignificant)
    }

    /// The test runs against the band's edge on the estimate's side.
    ///
    /// For a change just beyond +5% its p-value is moderate, where against −5%, the wrong edge, it would be the
    /// smallest eight values a side allow (7.8e-5; found by the mutation check).
    @Test func aChangeJustBeyondTheBandIsTestedAgainstItsOwnEdge() throws {
        var baseline: [(String, [Double])] = [("S/edge()", (0..<8).map { 99 + Double($0) * 2 / 7 })]
        var current: [(String, [Double])] = [("S/edge()", (0..<8).map { 105.2 + Double($0) * 2 / 7 })]
        for k in 0..<19 {
            baseline.append(("S/t\(k)()", V.noisy(100, seed: UInt64(10 + k), count: 8)))
            current.append(("S/t\(k)()", V.noisy(100, seed: UInt64(40 + k), count: 8)))
        }
        let comparison = try Comparison(baseline: Self.many(baseline), current: Self.many(current))
        let row = try #require(comparison.rows.first { $0.test == "S/edge()" })
        #expect(row.change!.value > 1.05)
        #expect(row.pValue! > 0.001, "p \(row.pValue!) against +5%")
    }

    @Test func benjaminiHochbergAdjustsAcrossEveryRowOfTheComparison() throws {
        // One clear regression among nineteen unchanged series: every decision's q comes from one family of twenty.
        var baseline: [(String, [Double])] = [("S/slow()", V.noisy(100, seed: 1, count: 8))]
        var current: [(String, [Double])] = [("S/slow()", V.noisy(130, seed: 2, count: 8))]
        for k in 0..<19 {
            baseline.append(("S/t\(k)()", V.noisy(100, seed: UInt64(10 + k), count: 8)))
            current.append(("S/t\(k)()", V.noisy(100, seed: UInt64(40 + k), count: 8)))
        }
        let comparison = try Comparison(baseline: Self.many(baseline), current: Self.many(current))
        let decisions = comparison.rows.filter { $0.pValue != nil }
        #expect(decisions.count == 20)
        let expected = try BenjaminiHochberg.adjust(decisions.map { $0.pValue! })
        #expect(decisions.map { $0.qValue! } == expected)  // adjusted as one family of twenty
        #expect(comparison.rows.first { $0.test == "S/slow()" }?.verdict == .regressed)
        // p tests the claim a verdict makes (beyond the ±5% band, one-sided): an unchanged series is no discovery.
        #expect(
            decisions.filter { $0.test != "S/slow()" }.allSatisfy { $0.pValue! > 0.5 && $0.verdict == .withinNoise })
        let alone = try Comparison(baseline: Self.many([baseline[0]]), current: Self.many([current[0]]))
        #expect(alone.rows[0].qValue == alone.rows[0].pValue)  // a single row is not adjusted
    }

    @Test func aZeroBaselineMedianIsComparedByTheDifference() throws {
        let bytes = Metric("bytesAllocated", unit: .bytes, isDeterministic: true)
        let comparison = try Comparison(
            baseline: V.processTests([0, 0, 0, 0, 0, 0, 0, 8], metric: bytes),
            current: V.processTests([3088, 4000, 85808, 3100, 3500, 3200, 3300, 3400], metric: bytes))
        let row = comparison.rows[0]
        #expect(row.change == nil)
        #expect(row.difference.map { $0.value == 3350 } == true)  // median 3350 − median 0
        #expect(row.verdict == .regressed)
        let json = try StoredFile.encode(comparison, for: "comparison.json")
        #expect(!String(decoding: json, as: UTF8.self).contains("inf"))
    }

    @Test func fewerThanThreeValuesASideSayTooFewNotTooNoisy() throws {
        let comparison = try Comparison(baseline: V.processTests([100, 101]), current: V.processTests([150, 151]))
        #expect(comparison.rows[0].verdict == .inconclusive)
        #expect(comparison.rows[0].reason == .tooFew)
    }
}
