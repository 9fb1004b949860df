import Foundation
import PerfKitCore

/// How an ABBA comparison ran, as its report states it: plain values, so the report is rendered
/// here without knowing how the session ran its processes.
public struct AbbaDesign: Sendable {
    /// A side's revision: its name and commit.
    public struct Side: Sendable {
        /// The revision as given (`main`, `.`).
        public var name: String
        /// Its commit.
        public var commit: String

        /// A side.
        public init(name: String, commit: String) {
            self.name = name
            self.commit = commit
        }
    }

    /// Side A (the reference) and side B.
    public var a: Side, b: Side
    /// The order of the rounds that ran: side indices (0 = A) in running order.
    public var order: [[Int]]
    /// Rounds whose processes took the exact-count pass.
    public var exactCountProcessRounds: Int
    /// The sequential plan.
    public var plan: SequentialPlan
    /// The looks taken.
    public var looks: [SequentialLook]
    /// Why the session stopped.
    public var stopReason: String
    /// Processes in which a measured test failed.
    public var failedProcesses: [String]
    /// Wall time of the whole comparison.
    public var elapsedSeconds: Int

    /// A design.
    public init(
        a: Side, b: Side, order: [[Int]], exactCountProcessRounds: Int, plan: SequentialPlan, looks: [SequentialLook],
        stopReason: String, failedProcesses: [String], elapsedSeconds: Int
    ) {
        (self.a, self.b, self.order, self.exactCountProcessRounds) = (a, b, order, exactCountProcessRounds)
        (self.plan, self.looks, self.stopReason) = (plan, looks, stopReason)
        (self.failedProcesses, self.elapsedSeconds) = (failedProcesses, elapsedSeconds)
    }
}

/// The Markdown of an ABBA comparison: the answer, the design, the wall-clock diagnostics and the
/// run order.
public enum AbbaReport {
    /// The report.
    /// - Parameters:
    ///   - design: How the comparison ran.
    ///   - comparison: Its comparison.
    ///   - paired: The paired series, for the diagnostics.
    ///   - command: The command line, written at the top.
    /// - Returns: The report, for ``ReportWriter``.
    /// - Throws: ``StatisticsError`` for non-finite values.
    public static func report(_ design: AbbaDesign, comparison: Comparison, paired: [PairedSeries], command: String)
        throws -> MarkdownReport
    {
        MarkdownReport(
            title: "ABBA comparison: \(design.b.name) (B) against \(design.a.name) (A)", command: command,
            comparison: comparison,
            extraSections: [designSection(design), try diagnosticsSection(paired)],
            runOrder: runOrderLines(design),
            limitations: [
                "Each figure is the median of one process's samples, paired with the other arm's process in the same "
                    + "round; it is host-side cost on this machine, not frame delivery on a device."
            ],
            sides: .abba)
    }

    /// One line per round: which side ran first (`round 1: A (main), B (.)`).
    public static func runOrderLines(_ design: AbbaDesign) -> [String] {
        design.order.enumerated().map { round, sides in
            "round \(round + 1): "
                + sides.map { $0 == 0 ? "A (\(design.a.name))" : "B (\(design.b.name))" }.joined(separator: ", ")
        }
    }

    /// The design section: revisions, rounds, statistics, failed processes, time taken.
    public static func designSection(_ d: AbbaDesign) -> String {
        let lookText = d.looks.map {
            "\($0.rounds) rounds (\($0.decided) decided, \($0.open) open, \(Int($0.seconds)) s)"
        }.joined(separator: "; ")
        var text = """
            ## Design

            A = `\(d.a.name)` at \(d.a.commit.prefix(12)), B = `\(d.b.name)` at \(d.b.commit.prefix(12)), each built \
            once in release with pinned code alignment (functions and blocks on 64-byte boundaries). \
            In every round each arm's measured tests ran in a fresh process, in ABBA order with a seeded block phase; \
            \(d.order.count) rounds ran. \
            Each round pairs the two processes: the per-round figure is the median of that process's samples. Change \
            is the Hodges–Lehmann estimate of the per-round ratios B/A (on their logarithms) \
            with its exact signed-rank CI; p is the Wilcoxon signed-rank test of the log ratios against the noise \
            band's edge, adjusted with Benjamini–Hochberg across the decisions of a look. \
            Exact counts (allocations) come from the processes of the first \
            \(min(d.exactCountProcessRounds, d.order.count)) rounds, the same in every process; later \
            processes skip \
            that pass.

            Sequential plan: looks at \(d.plan.looks.map(String.init).joined(separator: ", ")) rounds, each spending α \
            = \(Format.trim(d.plan.alpha)) / \(d.plan.looks.count) = \(String(format: "%.3g", d.plan.alphaPerLook)) \
            (CIs at \(Format.trim((1 - d.plan.alphaPerLook) * 100))%; Bonferroni alpha spending, so the chance of any \
            false claim over all looks stays at most α). \
            A series decided at a look (CI inside the band, or outside it and significant) keeps that verdict. Looks \
            taken: \(lookText). Stopped at \(d.stopReason). Took \(d.elapsedSeconds) s in all.
            """
        if !d.failedProcesses.isEmpty {
            text +=
                "\n\nProcesses in which a measured test failed (their results are kept; the failures are in the full "
                + "report's budgets and the test output):\n"
            text += d.failedProcesses.map { "- \($0)" }.joined(separator: "\n")
        }
        return text
    }

    /// A table of diagnostics for the wall-clock series: order effect, drift, warnings.
    /// - Parameter paired: The paired series.
    /// - Returns: Markdown.
    /// - Throws: ``StatisticsError`` for non-finite values.
    public static func diagnosticsSection(_ paired: [PairedSeries]) throws -> String {
        var lines = [
            "## Diagnostics (wall clock)", "",
            "| test / measurement [arm, phase] | order effect (2nd vs 1st) | p | paired drift / round | machine drift "
                + "/ round | warnings |",
            "|---|--:|--:|--:|--:|---|",
        ]
        for series in paired where series.metric == .wallClock {
            let d = try PairedDiagnostics(series)
            let name = MarkdownReport.shortName(series.test)
            lines.append(
                "| \(name) / \(series.measurement) [\(series.arm), \(series.phase)] | "
                    + "\(MarkdownReport.percent(1 + d.orderEffect)) | \(Format.pValue(d.orderEffectP)) | "
                    + "\(MarkdownReport.percent(1 + d.driftPerRound)) | "
                    + "\(MarkdownReport.percent(1 + d.machineDriftPerRound)) | "
                    + "\(d.warnings.isEmpty ? "none" : d.warnings.joined(separator: "; ")) |"
            )
        }
        return lines.joined(separator: "\n")
    }
}
