import Foundation
import PerfKitCore

/// Cost against size for every parameterized test whose cases have a size (``TestCase/size``).
///
/// One ``GrowthFit`` per test function, measurement, arm, phase and metric.
public struct Growth: Sendable, Equatable {
    /// What one fit is of: a series of a test function across its cases.
    public struct Key: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The test function's ID (`Suite/sort(n:)`).
        public var function: String
        /// The measurement.
        public var measurement: String
        /// The arm.
        public var arm: String
        /// The phase.
        public var phase: Phase
        /// The metric.
        public var metric: Metric

        /// The key of one function's series.
        public init(function: String, measurement: String, arm: String, phase: Phase, metric: Metric) {
            self.function = function
            self.measurement = measurement
            self.arm = arm
            self.phase = phase
            self.metric = metric
        }

        /// `Suite/sort(n:) sort [main, warm] instructions`.
        public var description: String {
            "\(SeriesID.shortTest(function)) \(measurement) [\(arm), \(phase.identifier)] \(metric.name)"
        }

        /// Ordered by function, measurement, arm, phase and metric.
        public static func < (a: Key, b: Key) -> Bool {
            (a.function, a.measurement, a.arm, a.phase, a.metric.name)
                < (b.function, b.measurement, b.arm, b.phase, b.metric.name)
        }
    }

    /// Every fit, by key.
    public var fits: [Key: GrowthFit]

    /// The growth of `tests`' sized cases (a function needs two sizes or more).
    public init(_ tests: [TestResult]) {
        var points: [Key: [GrowthFit.Point]] = [:]
        for test in tests {
            guard let testCase = test.testCase, let size = testCase.size else { continue }
            for measurement in test.measurements {
                for series in measurement.series where !series.values.isEmpty {
                    let key = Key(
                        function: testCase.function, measurement: measurement.name, arm: series.arm,
                        phase: series.phase, metric: series.metric)
                    let sorted = series.values.sorted()
                    points[key, default: []].append(
                        GrowthFit.Point(
                            size: size, cost: Quantile.percentile(sorted: sorted, 50),
                            low: series.metric.isDeterministic ? nil : Quantile.percentile(sorted: sorted, 25),
                            high: series.metric.isDeterministic ? nil : Quantile.percentile(sorted: sorted, 75)))
                }
            }
        }
        self.init(points: points)
    }

    /// The growth of sized points already gathered (a function needs two sizes or more), for
    /// readers that do not hold run results (a branch's history).
    /// - Parameter points: Each key's points, one per size, in any order.
    public init(points: [Key: [GrowthFit.Point]]) {
        var fits: [Key: GrowthFit] = [:]
        for (key, list) in points { fits[key] = GrowthFit(list, deterministic: key.metric.isDeterministic) }
        self.fits = fits
    }

    /// A size as written in a report: `16,000` (``Format/grouped(_:)``).
    public static func size(_ n: Double) -> String { Format.grouped(n) }

    /// The test functions with a fit, sorted.
    public var functions: [String] { Array(Set(fits.keys.map(\.function))).sorted() }
}

/// A series whose growth changed between two sides: "instructions grew as n, now n²".
public struct GrowthChange: Sendable, Equatable {
    /// The series.
    public var key: Growth.Key
    /// The baseline's fit.
    public var before: GrowthFit
    /// The current fit.
    public var after: GrowthFit
    /// The largest size both sides measured, and the ratio there (current / baseline).
    public var largest: (size: Double, ratio: Double)

    /// Equal when every field is.
    public static func == (a: GrowthChange, b: GrowthChange) -> Bool {
        a.key == b.key && a.before == b.before && a.after == b.after && a.largest == b.largest
    }

    /// Whether it grows faster now (a regression).
    public var isFaster: Bool { (after.order ?? .cubic, after.exponent) > (before.order ?? .cubic, before.exponent) }

    /// The changes of growth between `baseline` and `current`.
    ///
    /// A deterministic count whose named order differs (or, unnamed, whose exponent moved by 0.5 or more), and whose
    /// change is not one ratio at every size (that is an ordinary change, judged by the comparison).
    public static func changes(baseline: Growth, current: Growth) -> [GrowthChange] {
        var result: [GrowthChange] = []
        for (key, after) in current.fits where key.metric.isDeterministic {
            guard let before = baseline.fits[key] else { continue }
            let orderChanged = before.order != nil && after.order != nil && before.order != after.order
            let exponentMoved =
                (before.order == nil || after.order == nil) && abs(after.exponent - before.exponent) >= 0.5
            guard orderChanged || exponentMoved else { continue }
            let ratios: [(Double, Double)] = after.points.compactMap { point in
                before.points.first { $0.size == point.size }.map { (point.size, point.cost / $0.cost) }
            }
            guard let high = ratios.map(\.1).max(), let low = ratios.map(\.1).min(), high / low > 1.1,
                let last = ratios.max(by: { $0.0 < $1.0 })
            else { continue }
            result.append(GrowthChange(key: key, before: before, after: after, largest: (last.0, last.1)))
        }
        return result.sorted { $0.key < $1.key }
    }

    /// One line: "`Suite/f(n:)` m [main, warm] instructions grew as n, now n²: at 16,000 +3,100%".
    public var line: String {
        "`\(SeriesID.shortTest(key.function))` \(key.measurement) [\(key.arm), \(key.phase.identifier)] "
            + "\(key.metric.name) grew as \(before.name), now \(after.name): at \(Growth.size(largest.size)) "
            + "\(MarkdownReport.percent(largest.ratio))"
    }
}
