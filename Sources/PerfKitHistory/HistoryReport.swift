import Foundation
import PerfKit

/// The history read for people.
///
/// Per machine and series, the commits where it changed, as plain text (`perfkit history show`) or Markdown (a
/// pull-request comment), kinds and measures named.
public enum HistoryReport {
    /// One line describing a change point: commit, subject, before → after, step and its evidence.
    public static func line(_ change: ChangePoint, unit: MetricUnit) -> String {
        let step: String
        switch change.evidence {
        case .beyondCountTolerance(let tolerance, let floor):
            step =
                tolerance == 0 && floor == 0
                ? "\(MarkdownReport.percent(change.ratio.value)), a count that differs"
                : "\(MarkdownReport.percent(change.ratio.value)), beyond your tolerance "
                    + "(±\(Format.trim(tolerance * 100))% and \(Format.trim(floor)) instructions)"
        case .exactCountDiffers:
            step = "\(MarkdownReport.percent(change.ratio.value)), an exact count that differs"
        case .eDivisive(let p, let alpha):
            step =
                "\(MarkdownReport.percent(change.ratio.value)) (95% interval "
                + "\(MarkdownReport.percent(change.ratio.lower)) … \(MarkdownReport.percent(change.ratio.upper))), "
                + "E-divisive p = \(Format.pValue(p)) at a false-alarm rate of \(Format.trim(alpha * 100))% a series"
        }
        return "commit \(change.commit.position) \(change.commit.hash.prefix(12)) \"\(change.commit.subject)\": "
            + "\(Format.value(change.before, unit)) → \(Format.value(change.after, unit)), \(step)"
    }

    /// What a series is: its measure and kind, as reports name them.
    public static func nature(_ history: SeriesHistory) -> String {
        let measure =
            switch history.measure {
            case .simulatedCount: "simulated count"
            case .exactCount: "exact count"
            case .timing: "timing, varies between runs"
            }
        return "\(measure), \(history.entries.first?.kind.title.lowercased() ?? "")"
    }

    /// `Suite/test() measurement [arm, phase] metric`, without the module.
    public static func name(_ series: SeriesID) -> String { series.shortDescription }

    /// The plain-text report: every series with a change point, then how many had none, then the
    /// commits where a parameterized test's growth changed.
    /// - Parameters:
    ///   - histories: From ``ChangePointDetector/histories(_:)``.
    ///   - growth: From ``HistoryGrowth/changes(_:)``.
    /// - Returns: Lines; identical for the same entries whichever store held them.
    public static func text(_ histories: [SeriesHistory], growth: [HistoryGrowthChange] = []) -> [String] {
        var lines: [String] = []
        for machine in Array(Set(histories.map(\.machine))).sorted() {
            let mine = histories.filter { $0.machine == machine }
            let commits = Set(mine.flatMap { $0.entries.map(\.commit.hash) }).count
            lines.append("machine \(machine): \(mine.count) series over \(commits) commits")
            for history in mine where !history.changes.isEmpty {
                lines.append("  \(name(history.series)) (\(nature(history)), \(history.entries.count) commits)")
                for change in history.changes { lines.append("    " + line(change, unit: history.unit)) }
            }
            let quiet = mine.filter(\.changes.isEmpty).count
            lines.append("  \(quiet) of \(mine.count) series without a change point")
            for change in growth where change.machine == machine { lines.append("  growth changed: " + change.line) }
        }
        if histories.isEmpty { lines.append("no history recorded (perfkit history record adds a run)") }
        return lines
    }

    /// The Markdown report: a table of change points per machine and a trend chart per changed series.
    /// - Parameters:
    ///   - histories: From ``ChangePointDetector/histories(_:)``.
    ///   - growth: From ``HistoryGrowth/changes(_:)``.
    ///   - charts: The chart file of each changed series (relative to the report), by machine and series.
    /// - Returns: The document.
    public static func markdown(
        _ histories: [SeriesHistory], growth: [HistoryGrowthChange] = [], charts: [String: String]
    ) -> String {
        var lines = [
            "# Change points", "",
            "Counts (simulated instructions, exact allocation counts) change at the commit whose value differs from "
                + "its predecessor's (by any amount, unless a floor was set; widened to twice what the count moved "
                + "when "
                + "the heap moved): they repeat between runs, so a step is that commit's. Timing varies, "
                + "so its change points come from E-divisive means with a permutation test, with the stated "
                + "false-alarm rate a series; a timing step's commit is an estimate. A machine's series are never "
                + "read against another machine's.",
            "",
        ]
        for machine in Array(Set(histories.map(\.machine))).sorted() {
            let mine = histories.filter { $0.machine == machine }
            lines += [
                "## Machine \(machine)", "", "| Series | Kind | Commit | Subject | Before → after | Step | Evidence |",
                "|---|---|---|---|---|---|---|",
            ]
            for history in mine {
                lines += history.changes.map { tableRow($0, of: history) }
            }
            lines += [
                "", "\(mine.filter(\.changes.isEmpty).count) of \(mine.count) series without a change point.", "",
            ]
            let grew = growth.filter { $0.machine == machine }
            if !grew.isEmpty {
                lines += ["**Growth changed** (a parameterized test's count against its size, commit by commit):", ""]
                lines += grew.map { "- " + $0.line } + [""]
            }
            for history in mine where !history.changes.isEmpty {
                if let chart = charts[chartKey(history)] {
                    lines += ["![\(name(history.series))](\(chart))", ""]
                }
            }
        }
        lines.append(
            "What this does not prove: a change point says when a series' level moved on this machine, not why; a "
                + "count step is not a time step, and a timing step's commit is within the method's "
                + "resolution, not certain."
        )
        return lines.joined(separator: "\n") + "\n"
    }

    /// One change point as a row of the machine's table.
    static func tableRow(_ change: ChangePoint, of history: SeriesHistory) -> String {
        let evidence: String
        switch change.evidence {
        case .beyondCountTolerance(let tolerance, _): evidence = "count beyond ±\(Format.trim(tolerance * 100))%"
        case .exactCountDiffers: evidence = "exact count differs"
        case .eDivisive(let p, let alpha): evidence = "E-divisive p = \(Format.pValue(p)) (α = \(Format.trim(alpha)))"
        }
        let step =
            change.ratio.lower == change.ratio.upper
            ? MarkdownReport.percent(change.ratio.value)
            : "\(MarkdownReport.percent(change.ratio.value)) (\(MarkdownReport.percent(change.ratio.lower)) … "
                + "\(MarkdownReport.percent(change.ratio.upper)))"
        let cells = [
            "`\(name(history.series))`", nature(history),
            "\(change.commit.position) `\(change.commit.hash.prefix(12))`",
            change.commit.subject.replacingOccurrences(of: "|", with: "\\|"),
            "\(Format.value(change.before, history.unit)) → \(Format.value(change.after, history.unit))",
            step, evidence,
        ]
        return "| " + cells.joined(separator: " | ") + " |"
    }

    /// The key of a history's trend chart in ``markdown(_:charts:)``'s `charts`.
    public static func chartKey(_ history: SeriesHistory) -> String {
        history.machine + "|" + history.series.storageKey
    }
}
