import Foundation

extension Comparison {
    /// Compares paired series on one scale, the per-round log ratios: the Hodges–Lehmann estimate
    /// of their centre with its exact signed-rank CI (back-transformed to a ratio), the Wilcoxon
    /// signed-rank test against the noise band's edge, Benjamini–Hochberg across the decisions,
    /// and the two gates. Thread CPU beside a wall clock is shown, not a separate decision; series
    /// at the clock's resolution are not judged. Deterministic metrics whose samples are identical
    /// on each side are compared exactly. Series that could not
    /// be paired are listed as added (only in B), removed (only in A) or inconclusive (missing
    /// from some rounds), never dropped.
    /// - Parameters:
    ///   - paired: The session's series: one per test, measurement, arm, phase and metric.
    ///   - bands: Noise bands.
    ///   - alpha: False discovery rate of this judgement; CIs have confidence 1 − `alpha` (a look
    ///     of a ``SequentialPlan`` passes its ``SequentialPlan/alphaPerLook``).
    ///   - decided: Rows decided at an earlier look of a sequential comparison: kept as they are,
    ///     and left out of this look's Benjamini–Hochberg step.
    /// - Throws: ``StatisticsError`` for non-finite values.
    /// - Complexity: O(S · r³) for S series and r ≤ 50 rounds (the exact signed-rank distribution).
    public init(
        paired: Pairing, bands: NoiseBands, alpha: Double = 0.05, decided: [SeriesID: ComparisonRow] = [:], environmentA: Environment?,
        environmentB: Environment?
    ) throws {
        var rows: [ComparisonRow] = []
        let wallSeries = Set(paired.paired.filter { $0.metric == .wallClock }.map(\.id))
        for series in paired.paired {
            if let row = decided[series.id] {
                rows.append(row)
                continue
            }
            var row = try ComparisonRow(series.id, metric: series.metric, baseline: series.baseline, current: series.current, bands: bands)
            if series.metric.isDeterministic && Self.isConstant(series.baseline) && Self.isConstant(series.current) {
                Self.judgeExactly(&row, baseline: series.baseline[0], current: series.current[0], threshold: bands.absolute[series.metric.name] ?? 0)
                rows.append(row)
                continue
            }
            let supporting = series.metric == .threadCPU && wallSeries.contains(series.id.with(metric: .wallClock))
            if let reason = Self.notJudgedReason(
                series.metric, row: row, otherMachine: [], supporting: supporting, calls: (series.callsPerSample ?? 1, series.callsPerSample ?? 1))
            {
                row.verdict = .notJudged
                row.note = reason
                rows.append(row)
                continue
            }
            guard series.baseline.count >= 4 else {
                row.verdict = .inconclusive
                row.note = "too few rounds (\(series.baseline.count); need 4)"
                rows.append(row)
                continue
            }
            let logs = series.ratios.filter { $0.isFinite && $0 > 0 }.map { Foundation.log($0) }
            guard logs.count >= 4 else {  // a zero on one side makes a ratio meaningless
                row.verdict = .inconclusive
                row.note = "too few rounds with a finite, positive ratio (\(logs.count); need 4)"
                rows.append(row)
                continue
            }
            let centre = HodgesLehmann.interval(logs, confidence: 1 - alpha)
            row.change = Estimate(value: Foundation.exp(centre.value), lower: Foundation.exp(centre.lower), upper: Foundation.exp(centre.upper))
            // One-sided against the band's edge on the estimate's side: the claim a verdict can make.
            let edge = Foundation.log(centre.value >= 0 ? 1 + row.noiseBand : 1 - row.noiseBand)
            let twoSided = try Wilcoxon([Double](repeating: 0, count: logs.count), logs.map { $0 - edge }).pValue
            row.pValue = Self.oneSided(twoSided, beyondEdge: abs(centre.value) > abs(edge))
            row.smallestP = SequentialPlan.signedRankFloor(pairs: logs.count)
            row.confidence = alpha == 0.05 ? nil : 1 - alpha
            row.detectableChange = Self.detectableChange(halfWidth: (centre.upper - centre.lower) / 2, band: row.noiseBand, alpha: alpha)
            row.note = series.metric.isDeterministic ? "varies between rounds, so compared as a distribution; " : ""
            rows.append(row)
        }
        try Self.judgeStatistically(&rows, alpha: alpha)
        for series in paired.unpaired { rows.append(try Self.unpairedRow(series, bands: bands)) }
        self.rows = rows.sorted { $0.id < $1.id }
        baselineEnvironment = environmentA
        currentEnvironment = environmentB
    }

    /// The smallest relative change detected with 80% power: a change c is called when its CI,
    /// about c ± h on the log scale, clears the band's edge; with h = z₁₋α/₂ · se the estimate must
    /// exceed the edge by h + z₀.₈ · se, 80% of the time.
    /// - Parameters:
    ///   - halfWidth: Half the CI's width on the log scale.
    ///   - band: The noise band (relative).
    ///   - alpha: The CI's error rate.
    /// - Returns: The relative change (0.03 = 3%).
    static func detectableChange(halfWidth: Double, band: Double, alpha: Double) -> Double {
        let standardError = halfWidth / Normal.quantile(1 - alpha / 2)
        return Foundation.exp(Foundation.log(1 + band) + halfWidth + Normal.quantile(0.8) * standardError) - 1
    }

    /// The row of a series that could not be paired: added, removed, or inconclusive when it is
    /// missing from some rounds (a test that failed in some processes, for example).
    static func unpairedRow(_ series: UnpairedSeries, bands: NoiseBands) throws -> ComparisonRow {
        var row = try ComparisonRow(
            series.id, metric: series.metric, baseline: series.baseline.isEmpty ? nil : series.baseline, current: series.current.isEmpty ? nil : series.current,
            bands: bands)
        row.verdict = .inconclusive
        if series.baseline.isEmpty {
            row.verdict = .added
        } else if series.current.isEmpty {
            row.verdict = .removed
        } else {
            row.note = "not paired: in A in \(series.baseline.count) of \(series.rounds) rounds, in B in \(series.current.count)"
        }
        return row
    }
}
