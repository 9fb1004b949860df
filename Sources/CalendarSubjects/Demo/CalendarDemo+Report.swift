import Foundation
import PerfKit

extension CalendarDemo {
    /// The demo's report, in sections that keep the kinds of measurement apart.
    ///
    /// The demo's report: the comparison against the stored baseline, the policy comparison inside
    /// the run (reference against native, same binary), the retained-history section, the run
    /// order, the budgets and what the figures do not prove.
    /// - Parameters:
    ///   - run: This run, process memory included.
    ///   - baseline: The stored baseline it is compared against.
    ///   - comparison: The run against the baseline.
    ///   - policies: Native against reference inside the run.
    ///   - historySection: The retained-history section (Markdown).
    ///   - command: The command line the report names.
    ///   - whereItWent: Where changed simulated counts went, if any changed.
    /// - Returns: The report, for ``ReportWriter``.
    package static func report(
        run: RunFile, baseline: BaselineStore.Baseline, comparison: Comparison, policies: Comparison,
        historySection: String, command: String,
        whereItWent: WhereItWent? = nil
    ) -> MarkdownReport {
        var limitations = [
            "No GPU frame delivery: every time here is host-side CPU work of a platform-independent core, not a frame "
                + "on a device.",
            "No input-to-visible latency on a device: the edit and interaction budgets judge host-side work against "
                + "the clocks, not touch-to-photon time.",
            "One machine: \(run.environment.machine.summary); another CPU, allocator or OS changes "
                + "every absolute number.",
            "Fewer live views and fewer prepared bytes are exact counts; they do not by themselves prove a faster "
                + "scroll. Time claims rest on the ABBA timing rows.",
            "Simulated instruction counts (valgrind) hold still between runs and machines of one toolchain, but miss "
                + "cache misses, memory stalls, system calls, sleeps and lock waits: a count that did not change is "
                + "not a time that did not change.",
            MarkdownReport.allocatorLimitation(run.environment),
        ]
        let sameCommit =
            baseline.environment.commit == run.environment.commit
            || baseline.environment.commit.hasPrefix(run.environment.commit.prefix(12))
        limitations.append(
            sameCommit
                ? "The baseline `\(baseline.name)` was recorded from the same commit "
                    + "(\(run.environment.commit.prefix(12))): every regression or improvement against it is this "
                    + "machine's run-to-run variation, not a code change. `perfkit abba` pairs runs of two revisions "
                    + "in one session to remove that drift."
                : "The baseline `\(baseline.name)` comes from commit \(baseline.environment.commit.prefix(12)) and an "
                    + "earlier session; differences against it include the machine's run-to-run drift. `perfkit abba` "
                    + "pairs runs of two revisions in one session to remove it."
        )
        let day = ISO8601DateFormatter.string(
            from: baseline.savedAt, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        var report = MarkdownReport(
            title: "Calendar renderer: native policy against reference", command: command, comparison: comparison,
            armComparison: MarkdownReport.ArmSection(
                title: "Policy comparison: native against reference (same run, same binary)", comparison: policies,
                first: "reference", second: "native"),
            extraSections: [PolicyComparison.figures(policies), historySection]
                + (whereItWent?.markdown.map { [$0] } ?? []),
            runOrder: MarkdownReport.runOrderLines(run.tests),
            limitations: limitations + NotMeasured.limitations(of: run.tests),
            budgets: MarkdownReport.budgets(of: run.tests))
        report.sidesNamed =
            "this run (\(run.environment.commit.prefix(12)), \(run.environment.machine.summary)) against baseline "
            + "\(baseline.name) "
            + "(\(baseline.environment.commit.prefix(12)), saved \(day), \(baseline.environment.machine.summary))"
        return report
    }
}
