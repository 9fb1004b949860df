import Foundation
import PerfKitCore

/// A count series as its placements counted it: each placement's median and how far its own samples spread.
///
/// A counting run's processes are placements (the harness's heap shifted, the bundle loaded elsewhere). A count that
/// repeats is one number per placement and spreads by nothing; two such series are compared placement by placement,
/// exactly (``Comparison/judgeCountsByPlacement(_:_:_:floor:)``).
struct PlacementCounts {
    /// The median count at each placement (the process label; 0 for a series without labels).
    var medians: [Int: Double]
    /// The widest spread (highest − lowest) of one placement's samples after its first, when it has three or more.
    ///
    /// A process's first call may pay first uses (a metadata cache filled, a symbol bound); 0 when they repeat
    /// exactly.
    var variation: Double
    /// Whether every sample of every placement, its first included, is the same.
    var isExact: Bool

    /// The series' counts by placement.
    init(values: [Double], processes: [Int]?) {
        var byPlacement: [Int: [Double]] = [:]
        for (index, value) in values.enumerated() {
            let placement = processes.map { $0.indices.contains(index) ? $0[index] : 0 } ?? 0
            byPlacement[placement, default: []].append(value)
        }
        medians = byPlacement.mapValues { Quantile.percentile(sorted: $0.sorted(), 50) }
        variation =
            byPlacement.values.map { samples in
                let later = samples.count >= 3 ? Array(samples.dropFirst()) : samples
                return later.max()! - later.min()!
            }.max() ?? 0
        isExact = byPlacement.values.allSatisfy { $0.min() == $0.max() }
    }
}

extension Comparison {
    /// Judges two count series placement by placement.
    ///
    /// Each placement both sides counted gives a difference of medians; the tolerance is the widest spread of one
    /// placement's samples on either side (0 for counts that repeat: then any difference is a change, with its size,
    /// "+48 instructions a call (+0.0012%)"), or the user's `floor` when wider. Unchanged when nothing differs; within
    /// noise when every difference is inside the tolerance; regressed or improved when every placement moved the same
    /// way beyond it; otherwise the placements moved apart (a count that follows code addresses): inconclusive, unless
    /// there are enough placements to be judged as a distribution (returns false then).
    /// - Returns: Whether the row was judged.
    static func judgeCountsByPlacement(
        _ row: inout ComparisonRow, _ b: PlacementCounts, _ c: PlacementCounts, floor: Double
    ) -> Bool {
        let common = Set(b.medians.keys).intersection(c.medians.keys).sorted()
        guard !common.isEmpty else { return false }
        let bases = common.map { b.medians[$0]! }
        let deltas = common.map { c.medians[$0]! - b.medians[$0]! }
        let unit = row.metric.unit
        let variation = max(b.variation, c.variation)
        let tolerance = max(variation, floor)
        let at = common.count == 1 ? "" : " at each of \(common.count) placements"
        let counted =
            b.medians.count == c.medians.count
            ? "" : "; \(b.medians.count) and \(c.medians.count) placements counted, \(common.count) compared"
        let kind =
            b.isExact && c.isExact
            ? "exact"
            : variation == 0
                ? "exact after each placement's first sample"
                : "varies by up to \(signed(variation, unit).dropFirst()) within a placement"
        let ratios = zip(bases, deltas).map { $0 > 0 ? ($0 + $1) / $0 : 1 }
        let low = deltas.min()!, high = deltas.max()!
        row.change = Estimate(value: median(ratios), lower: ratios.min()!, upper: ratios.max()!)
        row.difference = Estimate(value: median(deltas), lower: low, upper: high)
        row.noiseBand = bases[0] > 0 ? tolerance / bases[0] : 0
        let size =
            low == high
            ? "\(signed(low, unit)) a call (\(percent(ratios[0])))\(at)"
            : "\(signed(low, unit)) to \(signed(high, unit)) a call at \(common.count) placements"
        if low == 0 && high == 0 && b.isExact && c.isExact {
            row.verdict = .unchanged
            row.note =
                "exact: \(Format.grouped(bases[0]))\(unit == .count ? "" : " \(unit)") in every sample\(at)\(counted)"
            return true
        }
        if max(abs(low), abs(high)) <= tolerance {
            row.verdict = .withinNoise
            row.reason = floor > variation && max(abs(low), abs(high)) > variation ? .belowFloor : nil
            row.note =
                "\(kind): \(size), "
                + (floor > variation ? "below your floor of \(Format.trim(floor))" : "inside that variation") + counted
            return true
        }
        guard low > tolerance || high < -tolerance else {
            if common.count >= minimumPlacements { return false }
            row.verdict = .inconclusive
            row.reason = .placementsDisagree
            row.note = "\(kind), but placements moved apart: \(size) (the count follows code addresses)\(counted)"
            return true
        }
        row.verdict = (low > 0) == (row.metric.polarity == .smallerIsBetter) ? .regressed : .improved
        row.note =
            "\(kind): \(size)" + (variation > 0 || floor > 0 ? ", beyond \(Format.trim(tolerance))" : "") + counted
        return true
    }

    /// The most instructions a freed allocation may cost for a rise beside a leak fix to be read as the fix's cost.
    ///
    /// 1,000 (a Swift object's release, deinit, `swift_deallocClassInstance` and jemalloc's free take a few hundred).
    public static let freeCostCeiling = 1_000.0

    /// A count that rose beside a leak fixed in the same arm and phase is the fix's cost, not a regression.
    ///
    /// Freeing what a call used to keep costs instructions and retain/release calls: a row of instructions, retains or
    /// mallocs that regressed by no more than ``freeCostCeiling`` instructions (or one call) a freed allocation, where
    /// `leakedAllocations` improved in the same test, arm and phase, is not judged, with its size and why.
    static func judgeLeakFixes(_ rows: inout [ComparisonRow]) {
        var fixed: [String: Double] = [:]
        for row in rows where row.metric == .leakedAllocations && row.verdict == .improved {
            let freed = (row.baseline?.median ?? 0) - (row.current?.median ?? 0)
            if freed > 0 { fixed[leakKey(row)] = freed }
        }
        guard !fixed.isEmpty else { return }
        for index in rows.indices where rows[index].verdict == .regressed {
            guard let freed = fixed[leakKey(rows[index])] else { continue }
            let rise = (rows[index].current?.median ?? 0) - (rows[index].baseline?.median ?? 0)
            let ceiling = rows[index].metric.isSimulated ? freeCostCeiling * freed : freed
            guard rows[index].metric.isCounted || rows[index].metric == .mallocs, rise > 0, rise <= ceiling else {
                continue
            }
            rows[index].verdict = .notJudged
            rows[index].reason = .leakFixCost
            rows[index].note +=
                "; beside a leak fixed in the same arm and phase (\(Format.trim(freed)) fewer leaked allocations a "
                + "call): freeing what was kept costs this, so it is not judged a regression"
        }
    }

    private static func leakKey(_ row: ComparisonRow) -> String {
        [row.test, row.measurement, row.arm, row.phase.identifier].joined(separator: "\u{1}")
    }

    /// "+48 instructions", "−1 count".
    static func signed(_ value: Double, _ unit: MetricUnit) -> String {
        let magnitude =
            unit == .nanoseconds || unit == .bytes
            ? Format.value(abs(value), unit)
            : Format.grouped(abs(value)) + (unit == .count ? "" : " \(unit)")
        return (value > 0 ? "+" : value < 0 ? "−" : "±") + magnitude
    }

    /// "+0.0012%" for a ratio of 1.000012: two significant digits, so a change that is not zero never reads as 0%.
    static func percent(_ ratio: Double) -> String {
        let change = (ratio - 1) * 100
        guard change != 0, change.isFinite else { return "±0%" }
        let digits = max(1, min(12, 1 - Int(Foundation.log10(abs(change)).rounded(.down))))
        var text = String(format: "%.\(digits)f", abs(change))
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return (change > 0 ? "+" : "−") + text + "%"
    }

    private static func median(_ values: [Double]) -> Double {
        Quantile.percentile(sorted: values.sorted(), 50)
    }
}
