/// One compared series: test, measurement, arm, phase and metric, both summaries and the verdict.
public struct ComparisonRow: Sendable, Codable, Equatable {
    public var test: String
    public var measurement: String
    public var arm: String
    public var phase: Phase
    public var metric: Metric
    public var baseline: Summary?
    public var current: Summary?
    /// Ratio of medians, current over baseline, with its 95% CI (nil when the baseline median is
    /// zero or negative, or the row is exact).
    public var change: Estimate?
    /// Difference of medians, current − baseline, with its 95% CI: set instead of ``change`` when
    /// the baseline median is zero or negative and a ratio is undefined.
    public var difference: Estimate? = nil
    /// Two-sided Mann–Whitney p-value, raw and Benjamini–Hochberg adjusted.
    public var pValue: Double?
    public var qValue: Double?
    /// Noise band applied (relative).
    public var noiseBand: Double
    public var verdict: Verdict
    /// Plain explanation (for example "could resolve ±12%").
    public var note: String
}

/// The comparison of two sets of results.
public struct Comparison: Sendable, Codable, Equatable {
    public var rows: [ComparisonRow]
    public var baselineEnvironment: Environment?
    public var currentEnvironment: Environment?

    /// Count of rows per verdict.
    public func count(_ verdict: Verdict) -> Int { rows.filter { $0.verdict == verdict }.count }

    /// Whether anything regressed.
    public var hasRegression: Bool { count(.regressed) > 0 }

    /// "2 regressions, 1 improvement, 14 within noise".
    public var headline: String {
        func plural(_ n: Int, _ word: String, _ words: String) -> String { "\(n) \(n == 1 ? word : words)" }
        var parts = [
            plural(count(.regressed), "regression", "regressions"), plural(count(.improved), "improvement", "improvements"),
            "\(count(.withinNoise)) within noise",
        ]
        if count(.inconclusive) > 0 { parts.append("\(count(.inconclusive)) inconclusive") }
        if count(.unchanged) > 0 { parts.append("\(count(.unchanged)) unchanged exactly") }
        if count(.added) > 0 { parts.append("\(count(.added)) added") }
        if count(.removed) > 0 { parts.append("\(count(.removed)) removed") }
        return parts.joined(separator: ", ")
    }

    /// Whether the two sides were measured on different machines.
    public var machinesDiffer: Bool {
        guard let a = baselineEnvironment, let b = currentEnvironment else { return false }
        return a.machine.identifier != b.machine.identifier
    }

    /// Compares current results against baseline results.
    ///
    /// Statistical metrics get the two-gate verdict: regressed or improved only when Mann–Whitney
    /// is significant after Benjamini–Hochberg across the whole comparison (q < `alpha`) and the
    /// 95% CI of the ratio of medians lies entirely outside the noise band. A CI inside the band
    /// is within noise; otherwise the data cannot resolve the band: inconclusive. Deterministic
    /// metrics are compared exactly against absolute thresholds.
    /// - Parameters:
    ///   - baseline: Baseline test results.
    ///   - current: Current test results.
    ///   - bands: Noise bands per metric.
    ///   - alpha: False discovery rate.
    /// - Throws: ``StatisticsError`` for non-finite samples; ``ComparisonError`` for mismatched units.
    /// - Complexity: O(R · B · n) for R rows, B bootstrap resamples, n samples per row.
    public init(
        baseline: [TestResult], current: [TestResult], bands: NoiseBands = NoiseBands(), alpha: Double = 0.05,
        baselineEnvironment: Environment? = nil, currentEnvironment: Environment? = nil
    ) throws {
        self.baselineEnvironment = baselineEnvironment
        self.currentEnvironment = currentEnvironment
        let base = SeriesTable(baseline)
        let now = SeriesTable(current)
        var rows: [ComparisonRow] = []
        var statisticalRows: [Int] = []
        for key in Array(Set(base.keys).union(now.keys)).sorted() {
            let b = base.series[key], c = now.series[key]
            let metric = (c ?? b)!.metric
            if let b, let c, b.metric.unit != c.metric.unit {
                throw ComparisonError.mismatchedUnits(key.description, b.metric.unit.symbol, c.metric.unit.symbol)
            }
            var row = ComparisonRow(
                test: key.test, measurement: key.measurement, arm: key.arm, phase: key.phase, metric: metric,
                baseline: try b.map { try Summary($0.values) }, current: try c.map { try Summary($0.values) },
                change: nil, pValue: nil, qValue: nil,
                noiseBand: bands.band(test: key.test, measurement: key.measurement, arm: key.arm, phase: key.phase, metric: metric),
                verdict: .withinNoise, note: "")
            guard let b, let c else {
                row.verdict = b == nil ? .added : .removed
                rows.append(row)
                continue
            }
            if metric.isDeterministic && Self.isConstant(b.values) && Self.isConstant(c.values) {
                Self.judgeExactly(&row, baseline: b.values[0], current: c.values[0], threshold: bands.absolute[metric.name] ?? 0)
                rows.append(row)
                continue
            }
            let varies = metric.isDeterministic ? "varies between samples, so compared as a distribution; " : ""
            if b.values.count < 3 || c.values.count < 3 {
                row.verdict = .inconclusive
                row.note = "too few samples (\(b.values.count) and \(c.values.count); need 3 per side)"
                rows.append(row)
                continue
            }
            row.pValue = try MannWhitney(b.values, c.values).pValue
            if row.baseline!.median > 0 {
                row.change = try TwoSampleEstimate.ratioOfMedians(baseline: b.values, current: c.values)
            } else {
                row.difference = try TwoSampleEstimate.differenceOfMedians(baseline: b.values, current: c.values)
            }
            row.note = varies
            statisticalRows.append(rows.count)
            rows.append(row)
        }
        try Self.judgeStatistically(&rows, at: statisticalRows, alpha: alpha)
        self.rows = rows
    }

    /// Whether every value is the same: only then is a deterministic metric compared exactly.
    static func isConstant(_ values: [Double]) -> Bool { values.allSatisfy { $0 == values[0] } }

    /// Compares a deterministic metric exactly, given that every sample on each side is the same
    /// value: equal values are unchanged; a change beyond the absolute threshold is a regression
    /// or an improvement by polarity.
    static func judgeExactly(_ row: inout ComparisonRow, baseline: Double, current: Double, threshold: Double) {
        let delta = current - baseline
        row.note =
            "exact (every sample identical): \(Format.value(baseline, row.metric.unit)) → \(Format.value(current, row.metric.unit)), threshold \(Format.trim(threshold))"
        if delta == 0 {
            row.verdict = .unchanged
        } else if abs(delta) <= threshold {
            row.verdict = .withinNoise
        } else {
            row.verdict = (delta > 0) == (row.metric.polarity == .smallerIsBetter) ? .regressed : .improved
        }
    }

    /// Adjusts the p-values of the rows at `indices` with Benjamini–Hochberg and applies the two gates.
    /// - Complexity: O(m log m) for m rows.
    static func judgeStatistically(_ rows: inout [ComparisonRow], at indices: [Int], alpha: Double) throws {
        let q = try BenjaminiHochberg.adjust(indices.map { rows[$0].pValue! })
        for (k, index) in indices.enumerated() {
            rows[index].qValue = q[k]
            applyTwoGates(&rows[index], alpha: alpha)
        }
    }

    /// Applies the two gates to a row whose change, p and q are set.
    static func applyTwoGates(_ row: inout ComparisonRow, alpha: Double) {
        guard let change = row.change else {
            judgeDifference(&row, alpha: alpha)
            return
        }
        let band = row.noiseBand
        let significant = row.qValue! < alpha
        let above = change.lower > 1 + band, below = change.upper < 1 - band
        let inside = change.lower >= 1 - band && change.upper <= 1 + band
        let halfWidth = (change.upper - change.lower) / 2 / max(change.value, 1e-12)
        if significant && (above || below) {
            let worse = above == (row.metric.polarity == .smallerIsBetter)
            row.verdict = worse ? .regressed : .improved
            row.note += "q = \(Format.trim(row.qValue!)); CI outside ±\(Format.trim(band * 100))%"
        } else if inside {
            row.verdict = .withinNoise
            row.note += "CI inside ±\(Format.trim(band * 100))%"
        } else {
            row.verdict = .inconclusive
            if halfWidth > band {
                row.note += "can resolve about ±\(Format.trim(halfWidth * 100))%, not ±\(Format.trim(band * 100))%"
            } else if above || below {
                row.note += "CI outside ±\(Format.trim(band * 100))% but not significant after Benjamini–Hochberg (q = \(Format.trim(row.qValue!)))"
            } else {
                row.note +=
                    "CI crosses the ±\(Format.trim(band * 100))% edge: a change about as large as the band (resolves about ±\(Format.trim(halfWidth * 100))%)"
            }
        }
    }

    /// The gates for a row whose baseline median is zero or negative, where a ratio is undefined:
    /// the difference of medians must be significant and its CI must exclude zero.
    static func judgeDifference(_ row: inout ComparisonRow, alpha: Double) {
        guard let difference = row.difference else { return }
        let unit = row.metric.unit
        let interval = "\(Format.value(difference.value, unit)) (\(Format.value(difference.lower, unit)) … \(Format.value(difference.upper, unit)))"
        row.note += "baseline median \(Format.value(row.baseline!.median, unit)): ratio undefined, difference of medians \(interval)"
        let significant = row.qValue! < alpha
        if significant && (difference.lower > 0 || difference.upper < 0) {
            row.verdict = (difference.lower > 0) == (row.metric.polarity == .smallerIsBetter) ? .regressed : .improved
        } else if difference.lower == 0 && difference.upper == 0 {
            row.verdict = .withinNoise
        } else {
            row.verdict = .inconclusive
            row.note += significant ? "; CI includes no change" : "; not significant after Benjamini–Hochberg"
        }
    }
}

/// Errors of comparisons.
public enum ComparisonError: Error, Sendable, CustomStringConvertible {
    case mismatchedUnits(String, String, String)
    public var description: String {
        switch self {
        case .mismatchedUnits(let key, let a, let b): "mismatched units for \(key): baseline \(a), current \(b)"
        }
    }
}

/// Series of many tests keyed by test, measurement, arm, phase and metric.
struct SeriesTable {
    struct Key: Hashable, Comparable, CustomStringConvertible {
        var test: String
        var measurement: String
        var arm: String
        var phase: Phase
        var metricName: String
        static func < (a: Key, b: Key) -> Bool {
            (a.test, a.measurement, a.metricName, a.arm, a.phase.identifier) < (b.test, b.measurement, b.metricName, b.arm, b.phase.identifier)
        }
        var description: String { "\(test) \(measurement) [\(arm), \(phase)] \(metricName)" }
    }
    var series: [Key: SampleSeries] = [:]
    var keys: [Key] { Array(series.keys) }

    init(_ tests: [TestResult]) {
        for test in tests {
            for measurement in test.measurements {
                for s in measurement.series {
                    series[Key(test: test.id, measurement: measurement.name, arm: s.arm, phase: s.phase, metricName: s.metric.name)] = s
                }
            }
        }
    }
}
