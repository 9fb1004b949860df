/// The identity of one series: the test, the measurement in it, the arm, the phase and the metric.
///
/// The one key every stage uses (collector, comparisons, calibration, reports): an identity is
/// never parsed back from a string. ``storageKey`` is the form written where JSON needs a string
/// key (calibrated noise bands); it is only ever built from a `SeriesID`, never split.
public struct SeriesID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The test's ID (`Module.Suite/test()`).
    public var test: String
    /// The measurement's name within the test.
    public var measurement: String
    /// The arm (`main` for a plain measurement).
    public var arm: String
    /// The phase.
    public var phase: Phase
    /// The metric's name.
    public var metric: String

    /// A series identity.
    public init(test: String, measurement: String, arm: String, phase: Phase, metric: String) {
        self.test = test
        self.measurement = measurement
        self.arm = arm
        self.phase = phase
        self.metric = metric
    }

    /// The same series' identity for another metric (for example the wall clock beside a thread CPU row).
    /// - Parameter metric: The other metric.
    /// - Returns: The identity with `metric` in place of this one's.
    public func with(metric: Metric) -> SeriesID {
        SeriesID(test: test, measurement: measurement, arm: arm, phase: phase, metric: metric.name)
    }

    /// The suite, the test ID's part before `/`.
    public var suite: String { String(test.prefix { $0 != "/" }) }
    /// The test's name, the test ID's part after the suite.
    public var testName: String { test.firstIndex(of: "/").map { String(test[test.index(after: $0)...]) } ?? test }

    /// The test ID without its module prefix: `Suite/test()`.
    public var shortTest: String { Self.shortTest(test) }

    /// A test ID without its module prefix: `Module.Suite/test()` → `Suite/test()`.
    /// - Parameter test: A test ID.
    /// - Returns: The short form (the ID itself when it has no suite).
    public static func shortTest(_ test: String) -> String {
        guard let slash = test.firstIndex(of: "/") else { return test }
        let suite = test[..<slash]
        return String(suite.split(separator: ".").last ?? suite) + String(test[slash...])
    }

    /// `test|measurement|arm|phase|metric`: the key of calibrated bands in noise files.
    public var storageKey: String { "\(test)|\(measurement)|\(arm)|\(phase.identifier)|\(metric)" }

    /// Report order: test, measurement, metric, arm, phase.
    public static func < (a: SeriesID, b: SeriesID) -> Bool {
        (a.test, a.measurement, a.metric, a.arm, a.phase.identifier) < (
            b.test, b.measurement, b.metric, b.arm, b.phase.identifier
        )
    }

    /// `Suite/test() measurement [arm, phase] metric`, the test without its module.
    ///
    /// The name `perfkit history show` prints and `perfkit bisect --series` takes.
    public var shortDescription: String { "\(shortTest) \(measurement) [\(arm), \(phase)] \(metric)" }

    /// `Module.Suite/test() measurement [arm, phase] metric`.
    public var description: String { "\(test) \(measurement) [\(arm), \(phase)] \(metric)" }
}
