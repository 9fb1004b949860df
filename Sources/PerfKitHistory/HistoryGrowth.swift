import Foundation
import PerfKit

/// A commit where a parameterized test's count grew differently from the commit recorded before it.
///
/// A commit of a branch's history where a parameterized test's count grew differently from the
/// commit recorded before it on the same machine ("instructions grew as n, now n²").
public struct HistoryGrowthChange: Sendable, Equatable {
    /// The machine whose history it is.
    public var machine: String
    /// The commit where the growth changed.
    public var commit: CommitInfo
    /// The commit it is compared with: the one recorded before it on the branch.
    public var previous: CommitInfo
    /// The change, as `compare` names it.
    public var change: GrowthChange

    /// One line: "commit 12 1a2b3c4d5e6f "subject": `Suite/f(n:)` … grew as n, now n²: at 16,000 +3,100%".
    public var line: String {
        "commit \(commit.position) \(commit.hash.prefix(12)) \"\(commit.subject)\": \(change.line)"
    }
}

/// Growth along a branch's history.
///
/// Each commit's sized cases fitted as ``Growth`` fits a run, and each commit's fits compared with the previous
/// recorded commit's (counts only, as in ``GrowthChange/changes(baseline:current:)``: a change by one ratio at every
/// size is an ordinary change point, not a growth change).
public enum HistoryGrowth {
    /// The growth changes of a store's entries, machines kept apart.
    /// - Parameter entries: Entries in any order; those without a ``CaseSize`` are ignored.
    /// - Returns: The changes, by machine and then commit position.
    public static func changes(_ entries: [HistoryEntry]) -> [HistoryGrowthChange] {
        var byMachine: [String: [String: [HistoryEntry]]] = [:]
        for entry in entries where entry.caseSize != nil && entry.measure.isDeterministic {
            byMachine[entry.machine, default: [:]][entry.commit.hash, default: []].append(entry)
        }
        var result: [HistoryGrowthChange] = []
        for machine in byMachine.keys.sorted() {
            let commits = byMachine[machine]!.values.map { ($0[0].commit, growth($0)) }
                .sorted { ($0.0.position, $0.0.hash) < ($1.0.position, $1.0.hash) }
            for (before, after) in zip(commits, commits.dropFirst()) {
                for change in GrowthChange.changes(baseline: before.1, current: after.1) {
                    result.append(
                        HistoryGrowthChange(machine: machine, commit: after.0, previous: before.0, change: change))
                }
            }
        }
        return result
    }

    /// The growth changes at each machine's newest recorded commit that grow faster: what
    /// `history show --fail-on change` fails on besides change points.
    public static func fasterAtNewestCommit(_ changes: [HistoryGrowthChange], entries: [HistoryEntry])
        -> [HistoryGrowthChange]
    {
        let newest = ChangePointDetector.newestCommits(entries)
        return changes.filter { $0.change.isFaster && newest[$0.machine]?.hash == $0.commit.hash }
    }

    /// One commit's growth from its sized entries.
    static func growth(_ entries: [HistoryEntry]) -> Growth {
        var points: [Growth.Key: [GrowthFit.Point]] = [:]
        for entry in entries {
            guard let sized = entry.caseSize else { continue }
            let key = Growth.Key(
                function: sized.function, measurement: entry.series.measurement, arm: entry.series.arm,
                phase: entry.series.phase, metric: metric(entry))
            points[key, default: []].append(GrowthFit.Point(size: sized.size, cost: entry.value))
        }
        return Growth(points: points)
    }

    /// The entry's metric: the built-in one of its name, else one described by the entry.
    static func metric(_ entry: HistoryEntry) -> Metric {
        if let known = Metric.builtIn.first(where: { $0.name == entry.series.metric }) { return known }
        return Metric(
            entry.series.metric, unit: entry.measure == .simulatedCount ? .instructions : .count, kind: entry.kind,
            isDeterministic: entry.measure.isDeterministic)
    }
}
