import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Cost against size: the exponent, the plain name where the fit supports it, growth told from a ratio.
///
/// Cost against size: the exponent, the plain name only where the fit supports it, and a growth
/// change told apart from a change by one ratio at every size.
@Suite struct GrowthTests {
    static let sizes: [Double] = [1_000, 4_000, 16_000, 64_000]

    /// Exact costs `overhead + f(n)` for the order.
    static func points(_ order: GrowthFit.Order, overhead: Double = 500, scale: Double = 3) -> [GrowthFit.Point] {
        sizes.map { GrowthFit.Point(size: $0, cost: overhead + scale * order.f($0)) }
    }

    @Test(arguments: GrowthFit.Order.allCases)
    func anExactCostIsNamedByItsOrder(order: GrowthFit.Order) throws {
        // A fixed overhead small beside the growing part (a log n cost under a large overhead is constant).
        let overhead: Double = order == .constant ? 40_000 : order == .logarithmic ? 5 : 500
        let fit = try #require(GrowthFit(Self.points(order, overhead: overhead), deterministic: true))
        #expect(fit.order == order, "\(fit.name), residual \(fit.residual ?? -1)")
    }

    /// The calendar's history layout (exponent 0.97 over 1, 7, 30 and 90 days) was named n² when a more complex model
    /// was preferred for fitting better.
    ///
    /// A linear cost with overhead is n.
    @Test func aLinearCostWithOverheadIsLinearNotQuadratic() throws {
        let points = [1.0, 7, 30, 90].map { GrowthFit.Point(size: $0, cost: 12_000 + 348_000 * $0) }
        #expect(try #require(GrowthFit(points, deterministic: true)).order == .linear)
    }

    @Test func theExponentIsTheLogLogSlope() throws {
        let fit = try #require(GrowthFit(Self.points(.quadratic, overhead: 0), deterministic: true))
        #expect(abs(fit.exponent - 2) < 1e-9)
        let linear = try #require(GrowthFit(Self.points(.linear, overhead: 0), deterministic: true))
        #expect(abs(linear.exponent - 1) < 1e-9)
    }

    @Test func pointsNoModelFitsGetTheExponentAlone() throws {
        // n^1.5: between n log n and n² over these sizes, within 3% of neither.
        let points = Self.sizes.map { GrowthFit.Point(size: $0, cost: pow($0, 1.5)) }
        let fit = try #require(GrowthFit(points, deterministic: true))
        #expect(fit.order == nil)
        #expect(fit.name == "exponent 1.50")
    }

    @Test func twoSizesGiveAnExponentButNoName() throws {
        let fit = try #require(GrowthFit(Array(Self.points(.linear).prefix(2)), deterministic: true))
        #expect(fit.order == nil && fit.exponent > 0.9)
        #expect(GrowthFit(Array(Self.points(.linear).prefix(1)), deterministic: true) == nil)
    }

    /// A run of a parameterized test `f(n:)` with one instructions series per size.
    static func run(_ cost: (Double) -> Double) -> [TestResult] {
        sizes.map { n in
            let testCase = TestCase(
                function: "M.S/f(n:)", arguments: [.init(name: "n", value: Growth.size(n), number: n)])
            return TestResult(
                id: testCase.id, suite: "M.S",
                measurements: [
                    MeasurementResult(
                        name: "f", arms: ["main"], order: [],
                        series: [Build.series(.instructions, values: [cost(n), cost(n), cost(n)])], unavailable: [])
                ], testCase: testCase)
        }
    }

    @Test func aLinearFunctionMadeQuadraticIsAGrowthChangeAndARegression() throws {
        let before = GrowthReport(baseline: nil, current: Self.run { 200 + 7 * $0 })
        let report = GrowthReport(
            baseline: Self.run { 200 + 7 * $0 }, current: Self.run { 200 + 7 * $0 + $0 * $0 / 50 })
        #expect(before.changes.isEmpty)
        let change = try #require(report.changes.first)
        #expect(report.changes.count == 1 && report.hasRegression)
        #expect(change.before.order == .linear && change.after.order == .quadratic)
        #expect(change.line.hasPrefix("`S/f(n:)` f [main, warm] instructions grew as n, now n²: at 64,000 +"))
    }

    @Test func oneRatioAtEverySizeIsNoGrowthChange() {
        let report = GrowthReport(baseline: Self.run { 200 + 7 * $0 }, current: Self.run { 1.3 * (200 + 7 * $0) })
        #expect(report.changes.isEmpty && !report.hasRegression)
    }

    @Test func aCaseIDIsTheFunctionAndItsArguments() {
        let testCase = TestCase(
            function: "M.S/sort(n:k:)",
            arguments: [.init(name: "n", value: "100", number: 100), .init(name: "k", value: "\"x\"")])
        #expect(testCase.id == "M.S/sort(n:k:) n = 100, k = \"x\"")
        #expect(testCase.size == 100)
    }

    @Test func anOldSingleSeriesAgainstNewCasesSaysItCannotBeMatched() {
        let old = [TestResult(id: "M.S/f(n:)", suite: "M.S", measurements: [])]
        let lines = Comparison.unmatchedCases(baseline: old, current: Self.run { $0 })
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("not matched: `S/f(n:)` is one series in the baseline") == true)
        #expect(lines.first?.contains("4 cases in the current run") == true)
    }

    @Test func theCostAxisIsLabelledEvenWithinOneDecade() {
        #expect(GrowthChart.ticks(from: 0, to: 3) == [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000])
        #expect(GrowthChart.ticks(from: 3.2, to: 7.8) == [1e4, 1e5, 1e6, 1e7])
        #expect(GrowthChart.ticks(from: log10(150), to: log10(900)) == [200, 300, 400, 500, 600, 700, 800, 900])
        #expect([500, 20_000, 1_500_000, 3e9].map(GrowthChart.compact) == ["500", "20k", "1.5M", "3G"])
    }
}
