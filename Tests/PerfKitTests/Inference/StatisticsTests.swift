import PerfKit
import Testing

/// Reference values computed independently with numpy 2.4 and scipy 1.17 (see the issue's
/// cross-check script `Scripts/crosscheck_stats.py`).
@Suite struct StatisticsTests {
    static let x = [12.1, 15.3, 11.8, 14.2, 13.9, 16.0, 12.7]
    static let y = [14.8, 17.2, 15.9, 16.4, 18.1, 15.5, 17.7, 16.9]

    struct PercentileCase: CustomTestStringConvertible, Sendable {
        var p: Double
        var expected: Double
        var testDescription: String { "p\(p) = \(expected)" }
    }

    @Test(arguments: [
        PercentileCase(p: 0, expected: 11.8), PercentileCase(p: 10, expected: 11.98),
        PercentileCase(p: 25, expected: 12.4), PercentileCase(p: 50, expected: 13.9),
        PercentileCase(p: 90, expected: 15.58), PercentileCase(p: 99, expected: 15.958),
        PercentileCase(p: 99.9, expected: 15.9958), PercentileCase(p: 100, expected: 16.0),
    ])
    func percentilesMatchNumpy(_ c: PercentileCase) throws {
        let value = try Quantile.percentile(Self.x, c.p)
        #expect(abs(value - c.expected) <= 1e-12 * c.expected)
    }

    @Test func summaryHoldsEveryStatistic() throws {
        let summary = try Summary(Self.x, percentiles: [99.9])
        #expect(summary.count == 7)
        #expect(summary.min == 11.8)
        #expect(summary.max == 16.0)
        #expect(abs(summary.median - 13.9) < 1e-12)
        #expect(abs(summary.medianAbsoluteDeviation - 1.4) < 1e-12)
        #expect(abs(summary.interquartileRange - (14.75 - 12.4)) < 1e-12)
        #expect(abs(summary.extraPercentiles[99.9]! - 15.9958) < 1e-12)
        #expect(summary.outliers.total == 0)
    }

    @Test func tukeyOutliersAreCountedNotDropped() throws {
        let values = [10.0, 10, 11, 11, 12, 12, 13, 13, 18, 40]
        let summary = try Summary(values)
        #expect(summary.count == 10)
        #expect(summary.max == 40)
        #expect(summary.outliers.highSevere == 1)
        #expect(summary.outliers.highMild == 1)
        #expect(summary.outliers.lowMild + summary.outliers.lowSevere == 0)
    }

    struct BadInput: CustomTestStringConvertible, Sendable {
        var values: [Double]
        var expected: StatisticsError
        var testDescription: String { "\(expected)" }
    }

    @Test(arguments: [
        BadInput(values: [], expected: .empty),
        BadInput(values: [1, .nan], expected: .notFinite(index: 1, value: .nan)),
        BadInput(values: [.infinity], expected: .notFinite(index: 0, value: .infinity)),
    ])
    func nonFiniteAndEmptyInputsAreRejected(_ c: BadInput) {
        #expect(throws: StatisticsError.self) { try Summary(c.values) }
        #expect(throws: StatisticsError.self) { try MannWhitney(c.values, [1, 2, 3]) }
    }

    @Test func mannWhitneyExactMatchesScipy() throws {
        let test = try MannWhitney(Self.x, Self.y)
        #expect(test.isExact)
        #expect(test.u == 4)
        #expect(abs(test.pValue - 0.0037296037296037296) <= 1e-12)
    }

    @Test func mannWhitneyWithTiesUsesCorrectedNormalApproximation() throws {
        let a: [Double] = [1, 2, 2, 3, 4, 5, 5, 5, 6, 7, 8, 9, 10]
        let b: [Double] = [3, 4, 4, 6, 7, 8, 9, 11, 12, 12, 13, 14]
        let test = try MannWhitney(a, b)
        #expect(!test.isExact)
        #expect(test.u == 38.5)
        #expect(abs(test.pValue - 0.033381371609219807) / 0.0333 <= 1e-9)
    }

    @Test func wilcoxonSignedRankMatchesScipy() throws {
        let a = [1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30]
        let b = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29]
        let test = try Wilcoxon(a, b)
        #expect(test.statistic == 5)
        #expect(abs(test.pValue - 0.0390625) < 1e-12)
    }

    @Test func benjaminiHochbergMatchesScipy() throws {
        let adjusted = try BenjaminiHochberg.adjust([0.01, 0.04, 0.03, 0.005, 0.5, 0.2])
        let expected = [0.03, 0.06, 0.06, 0.03, 0.5, 0.24]
        for (a, e) in zip(adjusted, expected) { #expect(abs(a - e) < 1e-12) }
    }

    @Test func ratioOfMediansIsSeededAndBracketsThePoint() throws {
        let one = try TwoSampleEstimate.ratioOfMedians(baseline: Self.x, current: Self.y, seed: 7)
        let two = try TwoSampleEstimate.ratioOfMedians(baseline: Self.x, current: Self.y, seed: 7)
        #expect(one == two)
        #expect(abs(one.value - 16.65 / 13.9) < 1e-12)
        #expect(one.lower <= one.value && one.value <= one.upper)
    }

    @Test func hodgesLehmannShiftOfShiftedSampleIsTheShift() throws {
        let shifted = Self.x.map { $0 + 2.5 }
        let estimate = try TwoSampleEstimate.hodgesLehmannShift(baseline: Self.x, current: shifted, resamples: 200)
        #expect(abs(estimate.value - 2.5) < 1e-9)
    }

    @Test func selectionMedianAgreesWithSortOnSeededData() throws {
        var generator = SeededGenerator(seed: 42)
        for n in [1, 2, 3, 10, 101, 1000] {
            let values = (0..<n).map { _ in Double(generator.index(below: 50)) }
            #expect(try Quantile.median(values) == Quantile.percentile(sorted: values.sorted(), 50))
        }
    }
}
