import Foundation
import PerfKitCore

/// One compared series: test, measurement, arm, phase and metric, both summaries and the verdict.
public struct ComparisonRow: Sendable, Codable, Equatable {
    /// The series' identity.
    public var id: SeriesID {
        SeriesID(test: test, measurement: measurement, arm: arm, phase: phase, metric: metric.name)
    }
    /// The test's ID (`Module.Suite/test()`).
    public var test: String
    /// The measurement's name within its test.
    public var measurement: String
    /// The arm (or `second vs first` in an arm-against-arm comparison).
    public var arm: String
    /// The phase.
    public var phase: Phase
    /// The metric, with its unit, polarity and kind.
    public var metric: Metric
    /// Summary of the baseline (or A) side; nil when the series was added.
    public var baseline: Summary?
    /// Summary of the current (or B) side; nil when the series was removed.
    public var current: Summary?
    /// Ratio of medians, current over baseline, with its 95% CI (nil when the baseline median is
    /// zero or negative, or the row is exact).
    public var change: Estimate?
    /// Difference of medians, current − baseline, with its 95% CI.
    ///
    /// Set instead of ``change`` when the baseline median is zero or negative and a ratio is undefined.
    public var difference: Estimate? = nil
    /// Two-sided Mann–Whitney p-value, raw and Benjamini–Hochberg adjusted.
    public var pValue: Double?
    /// The Benjamini–Hochberg adjusted p over the comparison's decisions.
    public var qValue: Double?
    /// Noise band applied (relative).
    public var noiseBand: Double
    /// The verdict; ``note`` says why.
    public var verdict: Verdict
    /// Plain explanation (for example "could resolve ±12%").
    public var note: String
    /// The smallest one-sided p its test can reach with these sample sizes (1 / 2ⁿ for n pairs, 1 / C(n + m, n) for two
    /// samples): the significance floor.
    ///
    /// Nil for rows without a test.
    public var smallestP: Double? = nil
    /// The smallest relative change (0.03 = 3%) the row could have called regressed or improved with 80% power at its
    /// sample sizes, its noise and its band.
    ///
    /// The band plus the CI half-width plus z₀.₈ standard errors. Set on statistical rows with a ratio (paired rounds,
    /// or per-process medians of stored runs); nil elsewhere.
    public var detectableChange: Double? = nil
    /// The confidence of ``change``'s interval when it is not 95% (a look of a sequential
    /// comparison judges at 1 − α / looks); nil for 95%.
    public var confidence: Double? = nil
    /// Whether the row was compared exactly: a deterministic metric with every sample identical on each side.
    public var isExact: Bool {
        guard metric.isDeterministic, !metric.isSimulated, let b = baseline, let c = current else { return false }
        return b.min == b.max && c.min == c.max
    }
    /// Why the row is not judged or inconclusive (nil for a decided or exact row): the typed cause
    /// reports group by; ``note`` is its wording, for people.
    public var reason: VerdictReason? = nil
    /// The units the row's statistics were computed over; nil for rows without statistics
    /// (exact, added, removed, not judged).
    public var replicatedOver: ReplicationUnit? = nil
}

/// What a statistical row's values replicate over: the level its variance was estimated at.
public enum ReplicationUnit: String, Sendable, Codable, Equatable {
    /// Per-process medians of two stored runs.
    case processes
    /// Per-round ratios of a paired ABBA session.
    case rounds
    /// Samples of one process (a stored run of one process, for metrics other than time).
    case samples
    /// Per-process medians of a simulated count taken with the bundle's code at several placements.
    ///
    /// A count that follows code addresses varies between placements as between builds.
    case placements
}

extension Double {
    /// A confidence level as a label: 0.99 → `99% CI`.
    public var ciLabel: String { "\(Format.trim(self * 100))% CI" }
}

extension ComparisonRow {
    /// The row every comparison path starts from (stored runs, paired rounds, series that could not be paired).
    ///
    /// The series, both sides' values summarised, its band; not yet judged.
    /// - Parameters:
    ///   - id: The series.
    ///   - metric: Its metric.
    ///   - baseline: The baseline's (or A's) values, nil when the series was added.
    ///   - current: The current (or B's) values, nil when it was removed.
    ///   - bands: The noise bands; the row takes the series' own.
    /// - Throws: ``StatisticsError`` for empty or non-finite values.
    init(_ id: SeriesID, metric: Metric, baseline: [Double]?, current: [Double]?, bands: NoiseBands) throws {
        self.init(
            test: id.test, measurement: id.measurement, arm: id.arm, phase: id.phase, metric: metric,
            baseline: try baseline.map { try Summary($0) }, current: try current.map { try Summary($0) }, change: nil,
            pValue: nil, qValue: nil,
            noiseBand: bands.band(for: id, metric: metric), verdict: .withinNoise, note: "")
    }

    /// Whether a statistical test decided the row: within noise, regressed or improved, with a p-value.
    public var isDecidedByTest: Bool { pValue != nil && [.withinNoise, .regressed, .improved].contains(verdict) }
}

/// The comparison of two sets of results.
public struct Comparison: Sendable, Codable, Equatable {
    /// Every compared series, sorted.
    public var rows: [ComparisonRow]
    /// Where the baseline (or A) side was measured.
    public var baselineEnvironment: Environment?
    /// Where the current (or B) side was measured.
    public var currentEnvironment: Environment?
    /// The machine fields that differ between the two sides (empty when they match or are unknown).
    ///
    /// Timing and OS-memory rows are then not judged unless the comparison was told to allow it.
    public var machineDifferences: [String] = []

    /// A comparison of ready-made rows.
    /// - Parameters:
    ///   - rows: The rows, sorted.
    ///   - baselineEnvironment: Where the baseline (or A) side was measured.
    ///   - currentEnvironment: Where the current (or B) side was measured.
    public init(rows: [ComparisonRow], baselineEnvironment: Environment? = nil, currentEnvironment: Environment? = nil)
    {
        self.rows = rows
        self.baselineEnvironment = baselineEnvironment
        self.currentEnvironment = currentEnvironment
    }

    /// Count of rows per verdict.
    public func count(_ verdict: Verdict) -> Int { rows.filter { $0.verdict == verdict }.count }

    /// Whether anything regressed.
    public var hasRegression: Bool { count(.regressed) > 0 }

    /// "2 regressions, 1 improvement, 14 within noise".
    ///
    /// Reports use ``ReportHeadline``, the one headline builder (kinds kept apart, reasons grouped); this older summary
    /// folds the kinds.
    @available(*, deprecated, message: "use ReportHeadline, which keeps the kinds of measurement apart")
    public var headline: String {
        func plural(_ n: Int, _ word: String, _ words: String) -> String { "\(n) \(n == 1 ? word : words)" }
        var parts = [
            plural(count(.regressed), "regression", "regressions"),
            plural(count(.improved), "improvement", "improvements"),
            "\(count(.withinNoise)) within noise",
        ]
        if count(.inconclusive) > 0 { parts.append("\(count(.inconclusive)) inconclusive") }
        if count(.unchanged) > 0 { parts.append("\(count(.unchanged)) unchanged exactly") }
        if count(.notJudged) > 0 { parts.append("\(count(.notJudged)) not judged") }
        if count(.added) > 0 { parts.append("\(count(.added)) added") }
        if count(.removed) > 0 { parts.append("\(count(.removed)) removed") }
        return parts.joined(separator: ", ")
    }

    /// Whether the two sides were measured on different machines.
    public var machinesDiffer: Bool { !machineDifferences.isEmpty }

    /// Compares current results against baseline results (two separate runs).
    ///
    /// The process is the unit of replication: a statistical row compares the per-process
    /// medians of both sides (Mann–Whitney, and the two-sample Hodges–Lehmann ratio with its exact
    /// interval, on log values), so drift between processes is inside the noise estimate. A timing
    /// row with one process on either side is not judged. Regressed or improved needs both gates:
    /// the change is significant against the noise band's edge after Benjamini–Hochberg across the
    /// comparison's decisions (q < `alpha`), and its 95% CI lies outside the band. Thread CPU beside
    /// a wall clock is shown but is not a separate decision. Deterministic metrics whose samples
    /// are identical on each side are compared exactly. When the machines differ, timing and
    /// OS-memory rows are not judged unless `allowOtherMachine`.
    /// - Parameters:
    ///   - baseline: Baseline test results.
    ///   - current: Current test results.
    ///   - bands: Noise bands per metric.
    ///   - alpha: False discovery rate.
    ///   - baselineEnvironment: Where the baseline was measured.
    ///   - currentEnvironment: Where the current results were measured.
    ///   - allowOtherMachine: Judge timing rows even when the machines differ.
    ///   - currentFilter: The filter of a partial current run: the baseline's other tests are
    ///     "not measured in this run", not removed.
    ///   - currentCountsOnly: Whether the current run is a counting run alone: the baseline's timing series are then
    ///     "not measured in this run", not removed.
    /// - Throws: ``StatisticsError`` for non-finite samples; ``ComparisonError`` for mismatched units.
    /// - Complexity: O(R · (n log n + p²)) for R rows, n samples and p processes per row.
    public init(
        baseline: [TestResult], current: [TestResult], bands: NoiseBands = NoiseBands(), alpha: Double = 0.05,
        baselineEnvironment: Environment? = nil, currentEnvironment: Environment? = nil,
        allowOtherMachine: Bool = false,
        currentFilter: String? = nil, currentCountsOnly: Bool = false
    ) throws {
        self.baselineEnvironment = baselineEnvironment
        self.currentEnvironment = currentEnvironment
        if let b = baselineEnvironment, let c = currentEnvironment {
            machineDifferences = b.machineDifferences(from: c)
        }
        let otherMachine = allowOtherMachine ? [] : machineDifferences
        let base = SeriesTable(baseline)
        let now = SeriesTable(current)
        var context = RowContext(
            bands: bands, alpha: alpha, wallClockSeries: Set(base.keys.filter { $0.metric == Metric.wallClock.name }),
            otherMachine: otherMachine,
            currentFilter: currentFilter)
        context.currentCountsOnly = currentCountsOnly
        if let b = baselineEnvironment, let c = currentEnvironment {
            context.countingDifferences = b.countingDifferences(from: c)
            if let x = b.valgrindCPU, let y = c.valgrindCPU, x != y { context.countingCPUs = (x, y) }
        }
        var rows: [ComparisonRow] = []
        for key in Array(Set(base.keys).union(now.keys)).sorted() {
            let b = base.series[key], c = now.series[key]
            if let b, let c, b.metric.unit != c.metric.unit {
                throw ComparisonError.mismatchedUnits(key.description, b.metric.unit.symbol, c.metric.unit.symbol)
            }
            let replication = b.flatMap { b in c.map { Replication.processes(baseline: b, current: $0) } }
            rows.append(
                try Self.row(
                    key, metric: (c ?? b)!.metric, baseline: b?.values, current: c?.values, replication: replication,
                    context: context))
        }
        try Self.judgeStatistically(&rows, alpha: alpha)
        Self.judgeLeakFixes(&rows)
        self.rows = rows
    }

    /// Why a statistical row is shown but not judged, or nil when it is judged.
    ///
    /// `calls` are the fewest calls a sample of each side was timed over: the resolution gates look at a sample's
    /// duration (per-call median × calls) on each side and judge by the shorter, never at the per-call figure (a
    /// batched 90 ns body is a 50 µs sample).
    static func notJudgedReason(
        _ metric: Metric, row: ComparisonRow, otherMachine: [String], supporting: Bool,
        calls: (baseline: Int, current: Int) = (1, 1)
    ) -> (VerdictReason, String)? {
        if supporting {
            return (
                .supportingCPU,
                "thread CPU of a series decided by its wall clock: shown beside it, not a separate decision"
            )
        }
        if !otherMachine.isEmpty {
            return (
                .otherMachine,
                "recorded on another machine (\(otherMachine.joined(separator: ", ")) differ): timing and OS memory "
                    + "are not comparable; use perfkit abba on one machine, or --allow-other-machine"
            )
        }
        guard metric.unit == .nanoseconds, let baseline = row.baseline?.median else { return nil }
        let durations = [(baseline, calls.baseline)] + (row.current.map { [($0.median, calls.current)] } ?? [])
        let median = durations.map { perCall, calls in perCall * Double(calls) }.min() ?? baseline
        if metric == .threadCPU && median < ClockResolution.cpuJudgeable {
            return (
                .clockResolution,
                "below the CPU clock's resolution: \(Format.duration(median)) a sample is under "
                    + "\(Format.duration(ClockResolution.cpuJudgeable)) (a CPU-time read costs about 1 µs here)"
            )
        }
        if median < ClockResolution.wallJudgeable {
            return (
                .clockResolution,
                "at clock resolution: \(Format.duration(median)) a sample is under 100 × a clock read "
                    + "(\(Format.duration(ClockResolution.wallJudgeable))); a subject that allows batching is timed "
                    + "many calls per sample"
            )
        }
        return nil
    }

    /// Compares a deterministic metric exactly, given that every sample on each side is the same value.
    ///
    /// Equal values are unchanged; a change beyond the absolute threshold is a regression or an improvement by
    /// polarity.
    static func judgeExactly(_ row: inout ComparisonRow, baseline: Double, current: Double, threshold: Double) {
        let delta = current - baseline
        row.note =
            "exact (every sample identical): \(Format.value(baseline, row.metric.unit)) → "
            + "\(Format.value(current, row.metric.unit)), threshold \(Format.trim(threshold))"
        if delta == 0 {
            row.verdict = .unchanged
        } else if abs(delta) <= threshold {
            row.verdict = .withinNoise
        } else {
            row.verdict = (delta > 0) == (row.metric.polarity == .smallerIsBetter) ? .regressed : .improved
        }
    }

    /// Adjusts the p-values of every row still to be decided with Benjamini–Hochberg, then decides them.
    ///
    /// Adjusts the p-values of every row still to be decided (those with a p-value and no
    /// verdict reason yet: the comparison's decisions) with Benjamini–Hochberg, then applies the two gates.
    /// - Complexity: O(m log m) for m decisions.
    static func judgeStatistically(_ rows: inout [ComparisonRow], alpha: Double) throws {
        let open = rows.indices.filter {
            rows[$0].pValue != nil && rows[$0].qValue == nil && rows[$0].verdict == .withinNoise
        }
        // Counts and time are separate families: a count judged across placements is not made
        // inconclusive by the number of timing rows beside it, nor a timing row by counts.
        for simulated in [false, true] {
            let indices = open.filter { rows[$0].metric.isSimulated == simulated }
            guard !indices.isEmpty else { continue }
            let q = try BenjaminiHochberg.adjust(indices.map { rows[$0].pValue! })
            for (k, index) in indices.enumerated() {
                rows[index].qValue = q[k]
                applyTwoGates(&rows[index], alpha: alpha, decisions: indices.count)
            }
        }
    }

    /// Applies the two gates to a row whose change, p (against the band's edge) and q are set.
    ///
    /// An inconclusive row names the gate that failed, the significance floor first (its test cannot reach p ≤ α / m
    /// with these sample sizes, so only many changes at once could pass Benjamini–Hochberg), then the width of the CI
    /// against the band.
    static func applyTwoGates(_ row: inout ComparisonRow, alpha: Double, decisions: Int) {
        guard let change = row.change else {
            judgeDifference(&row, alpha: alpha)
            return
        }
        let band = row.noiseBand
        let bandText = "±\(Format.trim(band * 100))%"
        let significant = row.qValue! < alpha
        let above = change.lower > 1 + band, below = change.upper < 1 - band
        let inside = change.lower >= 1 - band && change.upper <= 1 + band
        let halfWidth = (change.upper - change.lower) / 2 / max(change.value, 1e-12)
        if significant && (above || below) {
            let worse = above == (row.metric.polarity == .smallerIsBetter)
            row.verdict = worse ? .regressed : .improved
            row.note += "beyond the \(bandText) band: q = \(Format.pValue(row.qValue!)), CI outside it"
        } else if inside {
            row.verdict = .withinNoise
            row.note += "CI inside the \(bandText) band"
        } else {
            row.verdict = .inconclusive
            var reasons: [String] = []
            if let floor = row.smallestP, floor * Double(decisions) > alpha {
                row.reason = .significanceFloor
                reasons.append(
                    "significance floor: the smallest p these sample sizes allow is \(String(format: "%.2g", floor)), "
                        + "above the \(String(format: "%.2g", alpha / Double(decisions))) a lone change needs among "
                        + "\(decisions) decisions at α = \(String(format: "%.2g", alpha))"
                )
            }
            if halfWidth > band {
                row.reason = row.reason ?? .tooNoisy
                reasons.append(
                    "too noisy to tell: the CI spans about ±\(Format.trim(halfWidth * 100))%, wider than the "
                        + "\(bandText) band"
                )
            } else if above || below {
                row.reason = row.reason ?? .notSignificant
                reasons.append(
                    "CI outside the \(bandText) band but not significant against its edge after Benjamini–Hochberg (q "
                        + "= \(Format.pValue(row.qValue!)))"
                )
            } else {
                row.reason = row.reason ?? .aboutTheBandsSize
                reasons.append("a change about as large as the \(bandText) band: the CI crosses its edge")
            }
            if let detectable = row.detectableChange {
                reasons.append(
                    "detectable change at these \(row.replicatedOver?.rawValue ?? "samples") about "
                        + "±\(Format.trim(detectable * 100))%"
                )
            }
            row.note += reasons.joined(separator: "; ")
        }
    }

    /// The gates for a row whose baseline median is zero or negative, where a ratio is undefined.
    ///
    /// The difference of medians must be significant and its CI must exclude zero.
    static func judgeDifference(_ row: inout ComparisonRow, alpha: Double) {
        guard let difference = row.difference else { return }
        let unit = row.metric.unit
        let interval =
            "\(Format.value(difference.value, unit)) (\(Format.value(difference.lower, unit)) … "
            + "\(Format.value(difference.upper, unit)))"
        row.note +=
            "baseline median \(Format.value(row.baseline!.median, unit)): ratio undefined, difference of medians "
            + "\(interval)"
        let significant = row.qValue! < alpha
        if significant && (difference.lower > 0 || difference.upper < 0) {
            row.verdict = (difference.lower > 0) == (row.metric.polarity == .smallerIsBetter) ? .regressed : .improved
        } else if difference.lower == 0 && difference.upper == 0 {
            row.verdict = .withinNoise
        } else {
            row.verdict = .inconclusive
            row.reason = significant ? .aboutTheBandsSize : .notSignificant
            row.note += significant ? "; CI includes no change" : "; not significant after Benjamini–Hochberg"
        }
    }
}

/// Errors of comparisons.
public enum ComparisonError: Error, Sendable, CustomStringConvertible {
    case mismatchedUnits(String, String, String)
    /// A one-line reason naming the series.
    public var description: String {
        switch self {
        case .mismatchedUnits(let key, let a, let b): "mismatched units for \(key): baseline \(a), current \(b)"
        }
    }
}

/// Series of many tests keyed by test, measurement, arm, phase and metric.
struct SeriesTable {
    typealias Key = SeriesID
    var series: [Key: SampleSeries] = [:]
    var keys: [Key] { Array(series.keys) }

    init(_ tests: [TestResult]) {
        for test in tests {
            for measurement in test.measurements {
                for s in measurement.series {
                    series[
                        SeriesID(
                            test: test.id, measurement: measurement.name, arm: s.arm, phase: s.phase,
                            metric: s.metric.name)] = s
                }
            }
        }
    }
}
