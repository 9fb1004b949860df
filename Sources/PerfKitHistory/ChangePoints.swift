import Foundation
import PerfKit

/// One series' history on one machine, with the commits where it changed.
public struct SeriesHistory: Sendable, Equatable {
    /// The machine (``MachineFingerprint/identifier``): another machine's values are another history.
    public var machine: String
    /// The series.
    public var series: SeriesID
    /// Its entries, in branch order (by position).
    public var entries: [HistoryEntry]
    /// The change points found, in branch order.
    public var changes: [ChangePoint]

    /// The metric's unit.
    public var unit: MetricUnit { MetricUnit(entries.first?.unit ?? "") }
    /// How the values are read.
    public var measure: HistoryMeasure { entries.first?.measure ?? .timing }
}

/// A commit at which a series' level changed.
public struct ChangePoint: Sendable, Equatable {
    /// The first commit at the new level.
    public var commit: CommitInfo
    /// The last recorded commit before it (its parent when the parent was recorded).
    public var previous: CommitInfo
    /// The level before: the previous commit's value for a count, the median of the piece before for timing.
    public var before: Double
    /// The level after.
    public var after: Double
    /// after / before, with a 95% interval for timing (Hodges–Lehmann shift of the logs of the two
    /// pieces); the ratio itself for a count.
    public var ratio: Estimate
    /// How it was found.
    public var evidence: Evidence

    /// How a change point was found.
    public enum Evidence: Sendable, Equatable {
        /// A count that differs from its predecessor's beyond the tolerance and the floor.
        case beyondCountTolerance(tolerance: Double, floor: Double)
        /// An exact count that differs at all.
        case exactCountDiffers
        /// A split E-divisive means accepted with this permutation p-value at this false-alarm rate.
        case eDivisive(p: Double, alpha: Double)
    }
}

/// Finds change points in a store's entries.
public struct ChangePointDetector: Sendable {
    /// Relative tolerance of simulated counts (default: a comparison's, ``Comparison/defaultCountTolerance``).
    public var countTolerance = Comparison.defaultCountTolerance
    /// Smallest change of a simulated count that counts (default ``Comparison/defaultCountFloor``).
    public var countFloor = Comparison.defaultCountFloor
    /// The timing method.
    public var timing = EDivisive()

    /// A detector with the defaults.
    public init() {}

    /// The histories with a change point at the newest commit recorded on their machine.
    ///
    /// What `history show --fail-on change` fails on (an older change point was judged when it was new).
    /// - Parameter histories: Every history of a store.
    /// - Returns: Those changed at their machine's newest commit.
    public static func changedAtNewestCommit(_ histories: [SeriesHistory]) -> [SeriesHistory] {
        let newest = newestCommits(histories.flatMap(\.entries))
        return histories.filter { history in
            history.changes.contains { $0.commit.hash == newest[history.machine]?.hash }
        }
    }

    /// Each machine's newest recorded commit (by position on the branch, then hash).
    /// - Parameter entries: Entries of any machines, in any order.
    /// - Returns: The newest commit, by machine.
    public static func newestCommits(_ entries: [HistoryEntry]) -> [String: CommitInfo] {
        var newest: [String: CommitInfo] = [:]
        for entry in entries {
            let commit = entry.commit
            if let known = newest[entry.machine], (known.position, known.hash) >= (commit.position, commit.hash) {
                continue
            }
            newest[entry.machine] = commit
        }
        return newest
    }

    /// Every series' history, machines kept apart.
    /// - Parameter entries: A store's entries, in any order.
    /// - Returns: One history per (machine, series), sorted by machine then series.
    public func histories(_ entries: [HistoryEntry]) -> [SeriesHistory] {
        var grouped: [String: [SeriesID: [HistoryEntry]]] = [:]
        for entry in entries { grouped[entry.machine, default: [:]][entry.series, default: []].append(entry) }
        var result: [SeriesHistory] = []
        for machine in grouped.keys.sorted() {
            for (series, list) in grouped[machine]!.sorted(by: { $0.key < $1.key }) {
                let ordered = list.sorted {
                    ($0.commit.position, $0.commit.hash) < ($1.commit.position, $1.commit.hash)
                }
                result.append(
                    SeriesHistory(machine: machine, series: series, entries: ordered, changes: changes(ordered)))
            }
        }
        return result
    }

    /// The change points of one series' entries in branch order.
    func changes(_ entries: [HistoryEntry]) -> [ChangePoint] {
        guard let measure = entries.first?.measure, entries.count >= 2 else { return [] }
        if measure.isDeterministic {
            return zip(entries, entries.dropFirst()).compactMap { before, after in
                let b = before.value, a = after.value
                let ratio = b > 0 ? a / b : (a == 0 ? 1 : .infinity)
                let evidence: ChangePoint.Evidence
                if measure == .exactCount {
                    guard a != b else { return nil }
                    evidence = .exactCountDiffers
                } else {
                    // Widened like a comparison's when either commit's count moved with the heap.
                    let spread = max(before.countSpread, after.countSpread)
                    let tolerance = Comparison.countTolerance(base: countTolerance, spread: spread)
                    guard Comparison.countsDiffer(b, a, tolerance: tolerance, floor: countFloor) else {
                        return nil
                    }
                    evidence = .beyondCountTolerance(tolerance: tolerance, floor: countFloor)
                }
                return ChangePoint(
                    commit: after.commit, previous: before.commit, before: b, after: a,
                    ratio: Estimate(value: ratio, lower: ratio, upper: ratio),
                    evidence: evidence)
            }
        }
        // Timing: on the logs, so a step is a ratio wherever the series sits.
        guard entries.allSatisfy({ $0.value > 0 }) else { return [] }
        let logs = entries.map { Foundation.log($0.value) }
        let splits = timing.splits(logs)
        let bounds = [0] + splits.map(\.index) + [entries.count]
        return splits.enumerated().map { n, split in
            let left = Array(logs[bounds[n]..<split.index]), right = Array(logs[split.index..<bounds[n + 2]])
            let shift = HodgesLehmann.shiftInterval(left, right)
            let before = Foundation.exp(Quantile.percentile(sorted: left.sorted(), 50))
            let after = Foundation.exp(Quantile.percentile(sorted: right.sorted(), 50))
            return ChangePoint(
                commit: entries[split.index].commit, previous: entries[split.index - 1].commit, before: before,
                after: after,
                ratio: Estimate(
                    value: Foundation.exp(shift.value), lower: Foundation.exp(shift.lower),
                    upper: Foundation.exp(shift.upper)),
                evidence: .eDivisive(p: split.p, alpha: timing.alpha))
        }
    }
}
