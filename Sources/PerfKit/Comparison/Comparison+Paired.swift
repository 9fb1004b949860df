import Foundation
import PerfKitCore

extension Comparison {
    /// Compares paired series on one scale, the per-round log ratios.
    ///
    /// The Hodges–Lehmann estimate of their centre with its exact signed-rank CI (back-transformed to a ratio), the
    /// Wilcoxon signed-rank test against the noise band's edge, Benjamini–Hochberg across the decisions, and the two
    /// gates. Thread CPU beside a wall clock is shown, not a separate decision; series at the clock's resolution are
    /// not judged. Deterministic metrics whose samples are identical on each side are compared exactly. Series that
    /// could not be paired are listed as added (only in B), removed (only in A) or inconclusive (missing from some
    /// rounds), never dropped.
    /// - Parameters:
    ///   - paired: The session's series: one per test, measurement, arm, phase and metric.
    ///   - bands: Noise bands.
    ///   - alpha: False discovery rate of this judgement; CIs have confidence 1 − `alpha` (a look
    ///     of a ``SequentialPlan`` passes its ``SequentialPlan/alphaPerLook``).
    ///   - decided: Rows decided at an earlier look of a sequential comparison: kept as they are,
    ///     and left out of this look's Benjamini–Hochberg step.
    ///   - environmentA: Where side A was measured (nil: not recorded).
    ///   - environmentB: Where side B was measured (nil: not recorded).
    /// - Throws: ``StatisticsError`` for non-finite values.
    /// - Complexity: O(S · r³) for S series and r ≤ 50 rounds (the exact signed-rank distribution).
    public init(
        paired: Pairing, bands: NoiseBands, alpha: Double = 0.05, decided: [SeriesID: ComparisonRow] = [:],
        environmentA: Environment?,
        environmentB: Environment?
    ) throws {
        let context = RowContext(
            bands: bands, alpha: alpha, wallClockSeries: Set(paired.paired.filter { $0.metric == .wallClock }.map(\.id))
        )
        var rows: [ComparisonRow] = []
        for series in paired.paired {
            rows.append(
                try decided[series.id]
                    ?? Self.row(
                        series.id, metric: series.metric, baseline: series.baseline, current: series.current,
                        replication: .rounds(series), context: context))
        }
        try Self.judgeStatistically(&rows, alpha: alpha)
        Self.judgeLeakFixes(&rows)
        for series in paired.unpaired { rows.append(try Self.unpairedRow(series, context: context)) }
        self.rows = rows.sorted { $0.id < $1.id }
        baselineEnvironment = environmentA
        currentEnvironment = environmentB
    }

    /// The row of a series that could not be paired.
    ///
    /// Added, removed, exact when it is a constant count on each side, or inconclusive when it is missing from some
    /// rounds (a test that failed in some processes, or an exact-pass count, taken in the first ABBA block only, that
    /// differs between the processes that took it).
    static func unpairedRow(_ series: UnpairedSeries, context: RowContext) throws -> ComparisonRow {
        var note =
            "not paired: in A in \(series.baseline.count) of \(series.rounds) rounds, in B in \(series.current.count)"
        if Metric.exactPass.contains(series.metric) {
            note =
                "an exact count that differs between the processes of the first ABBA block, the only ones that take it "
                + "(\(note))"
        }
        return try row(
            series.id, metric: series.metric, baseline: series.baseline.isEmpty ? nil : series.baseline,
            current: series.current.isEmpty ? nil : series.current,
            replication: series.baseline.isEmpty || series.current.isEmpty ? nil : .unpaired(note: note),
            context: context)
    }
}
