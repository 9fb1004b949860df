import PerfKitCore

/// Arm-against-arm comparisons inside one run.
///
/// For every measurement with two or more arms, each arm against the first one declared (the reference), on the same
/// workload and binary, with the arms run in ABBA order.
public enum ArmComparison {
    /// The name of a compared row's arm, `second vs first`.
    public static func label(_ arm: String, against reference: String) -> String { "\(arm) vs \(reference)" }

    /// Compares every later arm of every multi-arm measurement with its first arm.
    /// - Parameters:
    ///   - tests: One run's results.
    ///   - bands: Noise bands.
    /// - Returns: The comparison, or nil when no measurement has two arms.
    /// - Throws: ``StatisticsError`` for non-finite samples.
    /// - Complexity: as
    ///   ``Comparison/init(baseline:current:bands:alpha:baselineEnvironment:currentEnvironment:allowOtherMachine:)``.
    public static func compare(_ tests: [TestResult], bands: NoiseBands = NoiseBands()) throws -> Comparison? {
        var references: [TestResult] = []
        var others: [TestResult] = []
        for test in tests {
            var left: [MeasurementResult] = []
            var right: [MeasurementResult] = []
            for m in test.measurements where m.arms.count > 1 {
                let reference = m.arms[0]
                for arm in m.arms.dropFirst() {
                    let label = Self.label(arm, against: reference)
                    func relabel(_ source: String) -> MeasurementResult {
                        var copy = m
                        copy.series = m.series.filter { $0.arm == source }.map {
                            var s = $0
                            s.arm = label
                            return s
                        }
                        return copy
                    }
                    left.append(relabel(reference))
                    right.append(relabel(arm))
                }
            }
            guard !left.isEmpty else { continue }
            references.append(TestResult(id: test.id, suite: test.suite, measurements: left))
            others.append(TestResult(id: test.id, suite: test.suite, measurements: right))
        }
        guard !references.isEmpty else { return nil }
        var comparison = try Comparison(baseline: references, current: others, bands: bands)
        for index in comparison.rows.indices { markIdleArm(&comparison.rows[index]) }
        return comparison
    }

    /// How many times more one arm must cost than the other, with the cheaper under ``idleCeiling``,
    /// for the cheaper to count as doing no work in the phase.
    public static let idleRatio = 100.0

    /// The most a call may cost and still be "no work": 1 µs of time, 1,000 instructions.
    public static func idleCeiling(_ unit: MetricUnit) -> Double? {
        switch unit {
        case .nanoseconds: 1_000
        case .instructions: 1_000
        default: nil
        }
    }

    /// Marks a row not judged when one arm does almost no work in its phase.
    ///
    /// An example is the calendar's warm
    /// scroll: the reference arm 87.73 ns a call against the native arm's 112.1 µs, once reported
    /// "+127,249% regressed". Such a ratio says which arm works in the phase, not how much faster
    /// one is, so it stays out of the headline's regressions and improvements.
    static func markIdleArm(_ row: inout ComparisonRow) {
        guard let ceiling = idleCeiling(row.metric.unit), let a = row.baseline?.median, let b = row.current?.median,
            min(a, b) > 0, min(a, b) < ceiling, max(a, b) / min(a, b) >= idleRatio
        else { return }
        let idle = a < b ? "the reference arm" : "this arm"
        row.verdict = .notJudged
        row.reason = .armIdle
        row.note =
            "not comparable: \(idle) does almost no work in this phase (\(Format.value(min(a, b), row.metric.unit)) a "
            + "call against \(Format.value(max(a, b), row.metric.unit))); the ratio says which arm works here, not "
            + "how much faster one is"
    }
}
