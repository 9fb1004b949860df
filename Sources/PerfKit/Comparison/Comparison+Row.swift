import Foundation
import PerfKitCore

extension Comparison {
    /// How the two sides of a series replicate: the units a statistical row compares.
    enum Replication {
        /// Two stored runs: independent samples grouped by process; per-process medians are the units.
        case processes(baseline: SampleSeries, current: SampleSeries)
        /// The rounds of an ABBA session, paired by round: the per-round ratios are the units.
        case rounds(PairedSeries)
        /// On both sides but not comparable unit by unit (missing from some rounds); the note says why.
        case unpaired(note: String)

        /// The fewest calls a sample of each side was timed over.
        var calls: (baseline: Int, current: Int) {
            switch self {
            case .processes(let b, let c): (b.minimumCallsPerSample, c.minimumCallsPerSample)
            case .rounds(let series): (series.callsPerSample ?? 1, series.callsPerSample ?? 1)
            case .unpaired: (1, 1)
            }
        }
    }

    /// What every row of one comparison is judged under.
    struct RowContext {
        /// The noise bands; a row takes its series' own.
        var bands: NoiseBands
        /// The comparison's error rate; paired CIs have confidence 1 − `alpha`.
        var alpha: Double
        /// Series whose wall clock is a decision: thread CPU beside it is shown, not decided.
        var wallClockSeries: Set<SeriesID>
        /// Machine fields that differ and were not allowed: timing and OS memory are not judged.
        var otherMachine: [String] = []
        /// The filter of a partial current run: a series missing from it was not measured, not removed.
        var currentFilter: String? = nil
        /// Fields that make simulated counts incomparable (toolchain, valgrind, build) and differ.
        var countingDifferences: [String] = []
        /// When the CPUs' features differ (valgrind's hwcaps), both lines: counts are judged, with a note.
        var countingCPUs: (baseline: String, current: String)? = nil
        /// Whether the current run took counts only: the baseline's other series were not measured.
        var currentCountsOnly = false
    }

    /// Builds the row of one series, the one function every comparison path uses.
    ///
    /// Added or removed when a side is missing; exact when a deterministic metric is constant on each side; not judged
    /// for the reasons ``notJudgedReason(_:row:otherMachine:supporting:calls:)`` names; otherwise estimated from its
    /// replication units (per-process medians of stored runs, or the ratios of paired rounds) and left for
    /// ``judgeStatistically(_:alpha:)``, which applies Benjamini–Hochberg and the two gates across the comparison's
    /// decisions.
    /// - Parameters:
    ///   - id: The series.
    ///   - metric: Its metric.
    ///   - baseline: The baseline side's values; nil when the series was added.
    ///   - current: The current side's values; nil when it was removed.
    ///   - replication: How the sides replicate; nil when a side is missing.
    ///   - context: Bands, α, supporting series, machine differences and a partial run's filter.
    /// - Returns: The row: decided already (added, removed, exact, not judged, inconclusive), or
    ///   with its change and p against the band's edge, awaiting the gates.
    /// - Throws: ``StatisticsError`` for empty or non-finite values.
    static func row(
        _ id: SeriesID, metric: Metric, baseline: [Double]?, current: [Double]?, replication: Replication?,
        context: RowContext
    ) throws -> ComparisonRow {
        var row = try ComparisonRow(id, metric: metric, baseline: baseline, current: current, bands: context.bands)
        guard let baseline, let current, let replication else {
            missingSide(&row, baseline: baseline, context: context)
            return row
        }
        if metric.polarity == .neither && !(isConstant(baseline) && isConstant(current) && baseline[0] == current[0]) {
            row.verdict = .notJudged
            row.reason = .noBetterDirection
            row.note =
                "\(metric.name) has no better direction (fewer can mean memory kept): shown, not judged"
            return row
        }
        if metric.isCounted {
            try judgeSimulated(&row, baseline: baseline, current: current, replication: replication, context: context)
            return row
        }
        // An exact count needs no pairing: constant on each side, any process of a side stands for
        // all (an ABBA session takes them in its first block only).
        if metric.isDeterministic && isConstant(baseline) && isConstant(current) {
            judgeExactly(
                &row, baseline: baseline[0], current: current[0], threshold: context.bands.absolute[metric.name] ?? 0)
            return row
        }
        if case .unpaired(let note) = replication {
            row.verdict = .inconclusive
            row.reason = .notPaired
            row.note = note
            return row
        }
        let supporting = metric == .threadCPU && context.wallClockSeries.contains(id.with(metric: .wallClock))
        if let (reason, text) = notJudgedReason(
            metric, row: row, otherMachine: context.otherMachine, supporting: supporting, calls: replication.calls)
        {
            row.verdict = .notJudged
            row.reason = reason
            row.note = text
            return row
        }
        switch replication {
        case .processes(let b, let c): try estimateProcesses(&row, b, c)
        case .rounds(let series): try estimateRounds(&row, series, alpha: context.alpha)
        case .unpaired: break
        }
        return row
    }

    /// A row with a side missing.
    ///
    /// Added, removed, or not measured in this run (no counts taken, counts only, or a partial run's filter), never
    /// "removed" for what the run did not measure.
    static func missingSide(_ row: inout ComparisonRow, baseline: [Double]?, context: RowContext) {
        if baseline == nil {
            row.verdict = .added
        } else if row.metric.isSimulated {
            // A run without --counts against a baseline with counts: say so, never "removed".
            row.verdict = .notJudged
            row.reason = .notMeasured
            row.note = "not counted in this run: measure with perfkit run --counts to judge simulated counts"
        } else if context.currentCountsOnly {
            row.verdict = .notJudged
            row.reason = .notMeasured
            row.note = "not measured in this run (it took simulated counts only)"
        } else if let filter = context.currentFilter {
            row.verdict = .notJudged
            row.reason = .notMeasured
            row.note = "not measured in this run (it measured only tests matching '\(filter)')"
        } else {
            row.verdict = .removed
        }
    }

    /// Estimates a row of two stored runs from their per-process medians.
    ///
    /// A timing row with one process on either side is not judged (drift between processes is not estimable); other
    /// metrics of one-process runs fall back to samples.
    static func estimateProcesses(_ row: inout ComparisonRow, _ b: SampleSeries, _ c: SampleSeries) throws {
        let processes = min(b.processCount, c.processCount)
        if row.metric.unit == .nanoseconds && processes < 2 {
            row.verdict = .notJudged
            row.reason = .onePerSide
            row.note =
                "one process per side: drift between processes is not estimable (measure with perfkit run --processes "
                + "N, or compare revisions with perfkit abba)"
            return
        }
        let level =
            processes >= 2
            ? "per-process medians of \(b.processCount) and \(c.processCount) processes" : "samples of one process"
        let (x, y) = processes >= 2 ? (b.processMedians(), c.processMedians()) : (b.values, c.values)
        let varies = row.metric.isDeterministic ? "varies between samples, so compared as a distribution; " : ""
        row.note = varies + "\(level); "
        row.replicatedOver = processes >= 2 ? .processes : .samples
        guard x.count >= 3, y.count >= 3 else {
            row.verdict = .inconclusive
            row.reason = .tooFew
            row.note += "too few values (\(x.count) and \(y.count); need 3 per side)"
            return
        }
        try estimateIndependent(&row, x, y)
    }

    /// Estimates a paired row on one scale, the per-round log ratios.
    ///
    /// The Hodges–Lehmann estimate of their centre with its exact signed-rank CI at 1 − `alpha` (back-transformed to a
    /// ratio), and the Wilcoxon signed-rank p against the band's edge on the estimate's side.
    static func estimateRounds(_ row: inout ComparisonRow, _ series: PairedSeries, alpha: Double) throws {
        row.replicatedOver = .rounds
        guard series.baseline.count >= 4 else {
            row.verdict = .inconclusive
            row.reason = .tooFew
            row.note = "too few rounds (\(series.baseline.count); need 4)"
            return
        }
        let logs = series.ratios.filter { $0.isFinite && $0 > 0 }.map { Foundation.log($0) }
        guard logs.count >= 4 else {  // a zero on one side makes a ratio meaningless
            row.verdict = .inconclusive
            row.reason = .tooFew
            row.note = "too few rounds with a finite, positive ratio (\(logs.count); need 4)"
            return
        }
        let centre = HodgesLehmann.interval(logs, confidence: 1 - alpha)
        row.change = Estimate(
            value: Foundation.exp(centre.value), lower: Foundation.exp(centre.lower),
            upper: Foundation.exp(centre.upper))
        // One-sided against the band's edge on the estimate's side: the claim a verdict can make.
        let edge = Foundation.log(centre.value >= 0 ? 1 + row.noiseBand : 1 - row.noiseBand)
        let twoSided = try Wilcoxon([Double](repeating: 0, count: logs.count), logs.map { $0 - edge }).pValue
        row.pValue = oneSided(twoSided, beyondEdge: abs(centre.value) > abs(edge))
        row.smallestP = SequentialPlan.signedRankFloor(pairs: logs.count)
        row.confidence = alpha == 0.05 ? nil : 1 - alpha
        row.detectableChange = detectableChange(
            halfWidth: (centre.upper - centre.lower) / 2, band: row.noiseBand, alpha: alpha)
        row.note = row.metric.isDeterministic ? "varies between rounds, so compared as a distribution; " : ""
    }

    /// Sets a row's change and its p against the band's edge from two independent samples
    /// (per-process medians, or samples when a side has one process).
    static func estimateIndependent(_ row: inout ComparisonRow, _ x: [Double], _ y: [Double]) throws {
        let band = row.noiseBand
        if x.allSatisfy({ $0 > 0 }) && y.allSatisfy({ $0 > 0 }) {
            let lx = x.map { Foundation.log($0) }, ly = y.map { Foundation.log($0) }
            let shift = HodgesLehmann.shiftInterval(lx, ly)
            row.change = Estimate(
                value: Foundation.exp(shift.value), lower: Foundation.exp(shift.lower),
                upper: Foundation.exp(shift.upper))
            // The claim a verdict can make is "the change lies beyond the band": a one-sided test
            // against the band's edge on the estimate's side, so Benjamini–Hochberg controls false
            // regressions and improvements, not rejections of "no change at all".
            let edge = Foundation.log(shift.value >= 0 ? 1 + band : 1 - band)
            let twoSided = try MannWhitney(lx.map { $0 + edge }, ly).pValue
            row.pValue = oneSided(twoSided, beyondEdge: abs(shift.value) > abs(edge))
            let n = Double(x.count), m = Double(y.count)
            let logCount: Double = lgamma(n + 1) + lgamma(m + 1) - lgamma(n + m + 1)
            row.smallestP = Foundation.exp(logCount)
            row.detectableChange = detectableChange(halfWidth: (shift.upper - shift.lower) / 2, band: band, alpha: 0.05)
        } else {
            row.difference = try TwoSampleEstimate.differenceOfMedians(baseline: x, current: y)
            row.pValue = try MannWhitney(x, y).pValue
        }
    }

    /// The smallest relative change detected with 80% power.
    ///
    /// A change c is called when its CI, about c ± h on the log scale, clears the band's edge; with h = z₁₋α/₂ · se the
    /// estimate must exceed the edge by h + z₀.₈ · se, 80% of the time.
    /// - Parameters:
    ///   - halfWidth: Half the CI's width on the log scale.
    ///   - band: The noise band (relative).
    ///   - alpha: The CI's error rate.
    /// - Returns: The relative change (0.03 = 3%).
    static func detectableChange(halfWidth: Double, band: Double, alpha: Double) -> Double {
        let standardError = halfWidth / Normal.quantile(1 - alpha / 2)
        return Foundation.exp(Foundation.log(1 + band) + halfWidth + Normal.quantile(0.8) * standardError) - 1
    }

    /// A one-sided p from a two-sided one.
    ///
    /// Half of it when the estimate lies beyond the edge being tested (the direction of the claim), else one minus that
    /// half.
    static func oneSided(_ twoSided: Double, beyondEdge: Bool) -> Double {
        beyondEdge ? twoSided / 2 : 1 - twoSided / 2
    }

    /// The relative tolerance simulated counts are judged with unless a noise file sets one for the metric: none.
    ///
    /// A count that repeats is compared exactly, placement by placement, and one that varies between samples against
    /// that variation (``judgeCountsByPlacement(_:_:_:floor:)``).
    /// A fixed tolerance called a real +48-instruction change in every sample "within noise".
    public static let defaultCountTolerance = 0.0

    /// The smallest change of a simulated count per call that is judged: none, so any difference of an exact count is a
    /// verdict.
    ///
    /// A user may set a floor (a noise file's `absolute`, or `--count-floor N`).
    public static let defaultCountFloor = 0.0

    /// Whether two simulated counts per call differ.
    ///
    /// Beyond the relative tolerance and the floor both (the rule every count verdict uses: comparisons, history change
    /// points, bisection).
    /// - Parameters:
    ///   - before: The earlier median per call.
    ///   - after: The later one.
    ///   - tolerance: Relative tolerance, widened for address-sensitive series (``countTolerance(base:spread:)``).
    ///   - floor: Smallest absolute change (default ``defaultCountFloor``).
    /// - Returns: Whether the two counts differ.
    public static func countsDiffer(
        _ before: Double, _ after: Double, tolerance: Double = defaultCountTolerance, floor: Double = defaultCountFloor
    ) -> Bool {
        guard before > 0 else { return after != before }
        return abs(after / before - 1) > tolerance && abs(after - before) > floor && after != before
    }

    /// Judges a simulated count.
    ///
    /// Unchanged when every sample is identical on both sides, else the change of the median per call against the
    /// relative tolerance. Not judged when the toolchain, valgrind or the build differ (the count then measures another
    /// binary or another simulator). The relative tolerance a simulated count is judged with: `base`, or twice what the
    /// series moved when the heap moved (``SampleSeries/processSpread``) when that is more. A separately built binary
    /// moves the heap too, and identical code then counts differently.
    /// - Parameters:
    ///   - base: The tolerance without address sensitivity (default ``defaultCountTolerance``).
    ///   - spread: The larger process spread of the two sides.
    /// - Returns: The tolerance.
    public static func countTolerance(base: Double = defaultCountTolerance, spread: Double) -> Double {
        max(base, 2 * spread)
    }

    /// Judges a counted metric (instructions, retains, releases).
    ///
    /// Not judged when the toolchain, valgrind or the build differ. A series that repeats at every placement on both
    /// sides is compared placement by placement, exactly, and one that varies within a placement against that variation
    /// (``judgeCountsByPlacement(_:_:_:floor:)``); one whose placements moved apart, with enough of them, as a
    /// distribution of per-placement medians (``judgeCountsAcrossPlacements(_:_:_:context:)``).
    static func judgeSimulated(
        _ row: inout ComparisonRow, baseline: [Double], current: [Double], replication: Replication,
        context: RowContext
    ) throws {
        if !context.countingDifferences.isEmpty {
            row.verdict = .notJudged
            row.reason = .countsFromAnotherSetup
            row.note =
                "simulated counts from another \(context.countingDifferences.joined(separator: ", ")): not comparable"
            return
        }
        var sides: (b: [Int]?, c: [Int]?) = (nil, nil)
        var series: (b: SampleSeries, c: SampleSeries)?
        if case .processes(let b, let c) = replication {
            sides = (b.processes, c.processes)
            series = (b, c)
        }
        let floor = context.bands.absolute[row.metric.name] ?? defaultCountFloor
        if baseline == current && sides.b == sides.c {
            row.verdict = .unchanged
            row.change = Estimate(value: 1, lower: 1, upper: 1)
            row.note = "simulated count, identical in every sample" + notes(series, context)
            return
        }
        let b = PlacementCounts(values: baseline, processes: sides.b)
        let c = PlacementCounts(values: current, processes: sides.c)
        if !judgeCountsByPlacement(&row, b, c, floor: floor), let series {
            try judgeCountsAcrossPlacements(&row, series.b, series.c, context: context)
            return
        }
        row.note += notes(series, context)
    }

    /// What a count row adds to its note: where a varying count varies, a heap that was not pinned, CPUs with other
    /// features.
    private static func notes(_ series: (b: SampleSeries, c: SampleSeries)?, _ context: RowContext) -> String {
        let varying =
            (series?.c.profile?.varying ?? series?.b.profile?.varying)?.first.map {
                "; its samples vary in \($0.function) (by up to \(Format.grouped($0.value)) instructions)"
            } ?? ""
        let heap = (series?.c.heapUnpinned ?? series?.b.heapUnpinned).map { "; heap not pinned (\($0))" } ?? ""
        let cpu =
            context.countingCPUs.map {
                "; counted on CPUs with different features (\($0.baseline) / \($0.current)): glibc may pick other "
                    + "string routines"
            }
            ?? ""
        return varying + heap + cpu
    }

    /// The fewest processes per side from which a moving count is judged across placements.
    ///
    /// The fewest processes per side from which a count that moved between them is judged across
    /// placements (``judgeCountsAcrossPlacements(_:_:_:context:)``) rather than against a widened
    /// tolerance: 3, the fewest per side ``estimateProcesses(_:_:_:)`` accepts.
    public static let minimumPlacements = 3

    /// Judges a simulated count that follows code addresses as a timing series is judged.
    ///
    /// Judges a simulated count that follows code addresses (its processes, the bundle's code at
    /// other placements, counted differently) as a timing series is judged from its processes: the
    /// per-process medians of each side, the Hodges–Lehmann shift with its CI and a one-sided
    /// Mann–Whitney p against the count tolerance's edge, then Benjamini–Hochberg among the
    /// comparison's counts and the two gates. Another build moves such a count as another placement
    /// does (the calendar's playback: up to 2.6%), so a change smaller than its spread is out of
    /// reach and the row says so instead of calling a build's layout a change.
    static func judgeCountsAcrossPlacements(
        _ row: inout ComparisonRow, _ b: SampleSeries, _ c: SampleSeries, context: RowContext
    ) throws {
        row.noiseBand = context.bands.relative[row.metric.name] ?? defaultCountTolerance
        let (x, y) = (b.processMedians(), c.processMedians())
        row.replicatedOver = .placements
        try estimateIndependent(&row, x, y)
        row.note =
            "simulated count that follows code addresses (its placements spread "
            + "\(Format.trim(max(b.processSpread, c.processSpread) * 100))%): per-placement medians of \(x.count) and "
            + "\(y.count) placements; "
    }

    /// Whether every value is the same: only then is a deterministic metric compared exactly.
    static func isConstant(_ values: [Double]) -> Bool { values.allSatisfy { $0 == values[0] } }
}
