import PerfKitCore

/// Arm-against-arm comparisons inside one run: for every measurement with two or more arms,
/// each arm against the first one declared (the reference), on the same workload and binary,
/// with the arms run in ABBA order.
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
        return try Comparison(baseline: references, current: others, bands: bands)
    }
}
