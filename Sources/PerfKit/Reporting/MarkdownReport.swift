import Foundation
import PerfKitCore

/// Review-ready GitHub-flavoured Markdown for a comparison, in two files.
///
/// The main report (``render()``) is sized for a pull-request comment (at most
/// ``pullRequestLimit`` characters): the answer first (every regressed or improved series on its
/// own line with its change and 95% CI, then how many series are within noise, inconclusive and
/// not judged, with the main reasons, then failed budgets), then the judged rows per kind and
/// phase, the environments and what the figures do not show. The full report (``renderFull()``)
/// adds every row (exact counts that did not change, rows not judged), the notes, the run order
/// and all budgets. Kinds are never merged into one label.
public struct MarkdownReport: Sendable {
    /// GitHub refuses pull-request comments over 65,536 characters; the main report stays under this.
    public static let pullRequestLimit = 60_000

    /// The report's title (first heading).
    public var title: String
    /// The command that produced the report, written at its top.
    public var command: String
    /// The comparison the report is about.
    public var comparison: Comparison
    /// An optional within-run comparison of arms (for example one policy against another).
    public var armComparison: ArmSection?
    /// Charts linked from the report: one per comparison and kind, each with its title and file name.
    public var charts: [(title: String, file: String)]
    /// Extra sections (Markdown) placed after the answer.
    public var extraSections: [String]
    /// Run order lines per measurement (full report).
    public var runOrder: [String]
    /// The closing section on what the measurements do not show.
    public var limitations: [String]
    /// Names of the two sides.
    public var sides: Sides
    /// Budget outcomes of the current side, by test id.
    public var budgets: [(test: String, outcome: BudgetOutcome)]
    /// File name of the full report, linked from the main one.
    public var fullReportName: String?
    /// One phrase naming both compared sides (baseline name, commits, dates) for the answer's first line.
    public var sidesNamed: String? = nil
    /// Warnings shown right under the answer (for example: the current run is not of the checkout's HEAD).
    public var notices: [String] = []

    /// A comparison of arms inside one run: its title and the names of its two arms.
    public struct ArmSection: Sendable {
        /// The section's heading.
        public var title: String
        /// The arm-against-arm comparison.
        public var comparison: Comparison
        /// The reference arm's name.
        public var first: String
        /// The compared arm's name.
        public var second: String
        /// Creates a section comparing `second` against `first`.
        public init(title: String, comparison: Comparison, first: String, second: String) {
            self.title = title
            self.comparison = comparison
            self.first = first
            self.second = second
        }
    }

    /// How the two compared sides are named.
    public struct Sides: Sendable {
        /// The comparison section's heading.
        public var heading: String
        /// The direction, second against first, used in every headline (for example "B against A").
        public var against: String
        /// Column label of the first side (for example `base` or `A`).
        public var first: String
        /// Column label of the second side (for example `cur` or `B`).
        public var second: String
        /// One sentence under the heading on what kind of comparison this is.
        public var lead: String
        /// Names the sides.
        public init(heading: String, against: String, first: String, second: String, lead: String = "") {
            self.heading = heading
            self.against = against
            self.first = first
            self.second = second
            self.lead = lead
        }
        /// Current results against a stored baseline.
        public static let baseline = Sides(
            heading: "Current against the baseline", against: "current against the baseline", first: "base",
            second: "cur",
            lead:
                "Two separate runs, compared process by process: timing rows include the drift between processes of "
                + "both runs; deterministic counts are compared exactly. `perfkit abba` pairs two revisions in one "
                + "session for tighter timing verdicts."
        )
        /// Two revisions in ABBA order.
        public static let abba = Sides(
            heading: "B against A (paired rounds)", against: "B against A", first: "A", second: "B",
            lead:
                "Each round pairs one process of A with one of B, in alternating order, so drift between rounds "
                + "cancels in the pairs."
        )
    }

    /// A report; everything but the title, command and comparison is optional.
    public init(
        title: String, command: String, comparison: Comparison, armComparison: ArmSection? = nil,
        charts: [(title: String, file: String)] = [], extraSections: [String] = [], runOrder: [String] = [],
        limitations: [String] = [],
        sides: Sides = .baseline,
        budgets: [(test: String, outcome: BudgetOutcome)] = [], fullReportName: String? = nil
    ) {
        self.sides = sides
        self.title = title
        self.command = command
        self.comparison = comparison
        self.armComparison = armComparison
        self.charts = charts
        self.extraSections = extraSections
        self.runOrder = runOrder
        self.limitations = limitations
        self.budgets = budgets
        self.fullReportName = fullReportName
    }

    /// The limitation every timing figure carries: which allocator timed the code.
    /// - Parameter environment: The current side's environment.
    /// - Returns: One sentence.
    public static func allocatorLimitation(_ environment: Environment?) -> String {
        let allocator = environment?.allocator ?? "unknown"
        return
            "Timings were taken with \(allocator == "jemalloc" ? "jemalloc" : "the system allocator") as the process "
            + "allocator. Most Swift programs on Linux ship with glibc's malloc; on this kind of machine the same "
            + "bundle built without jemalloc moved per-series medians by −25% to +23%, so a timing here is not the "
            + "one users of the system allocator see."
    }

    /// What each kind's numbers do not show.
    public static func caveat(for kind: MetricKind) -> String {
        switch kind {
        case .memory:
            "Memory of this process on this machine; it does not show GPU memory or what a device's "
                + "allocator would keep."
        case .referenceCounting:
            "Calls into the Swift runtime's retain and release entry points per call, counted under callgrind on the "
                + "body's thread; they show where copies and captures changed, not what they cost in time."
        case .leaks:
            "What a call left behind on the body's thread: allocations not freed and descriptors not closed by its "
                + "end (and an async body's settle wait); a cache that keeps what it made reads here too."
        case .correctness: "These counts show whether work happened, not how long it took."
        case .frameInput:
            "Host-side time judged against UI deadlines; it is not GPU frame delivery or input-to-visible latency "
                + "on a device."
        default: "Host-side component cost on this machine; it is not frame delivery or input latency on a device."
        }
    }

    /// The main report, sized for a pull-request comment.
    public func render() -> String {
        var out = top()
        out += ["", "## \(sides.heading): every judged row", ""]
        if !sides.lead.isEmpty { out += ["_\(sides.lead)_", ""] }
        let tables = sections(comparison, first: sides.first, second: sides.second, judgedOnly: true)
        out += tables.isEmpty ? ["No row was judged."] : tables
        out += footer(full: false)
        var text = out.joined(separator: "\n")
        if text.count > Self.pullRequestLimit {
            // Too many judged rows for one comment: keep the answer, point to the full report.
            out =
                top() + [
                    "", "_The per-row tables are too long for a pull-request comment; they are in the full report._",
                ] + footer(full: false)
            text = out.joined(separator: "\n")
        }
        return text
    }

    /// The full report: every row with its note, all budgets, the run order and raw details.
    public func renderFull() -> String {
        var out = [
            "# \(title): full tables", "",
            "Produced by `\(command)`. The answer and the reasoning are in the main report; this file holds every row.",
        ]
        if let arms = armComparison {
            out += ["", "## \(arms.title)", ""]
            out += sections(arms.comparison, first: arms.first, second: arms.second, judgedOnly: false)
        }
        out += ["", "## \(sides.heading)", ""]
        if !sides.lead.isEmpty { out += ["_\(sides.lead)_", ""] }
        out += sections(comparison, first: sides.first, second: sides.second, judgedOnly: false)
        let budgetLines = Self.budgetTable(budgets)
        if !budgetLines.isEmpty { out += [""] + budgetLines }
        if !runOrder.isEmpty { out += ["", "## Run order", ""] + runOrder.map { "- \($0)" } }
        out += [
            "", "## Every row's note", "",
            "| test | measurement | arm | phase | metric | n \(sides.first) | n \(sides.second) | verdict | note |",
            "|---|---|---|---|---|--:|--:|---|---|",
        ]
        for row in comparison.rows {
            out.append(
                "| \(row.test) | \(row.measurement) | \(row.arm) | \(row.phase) | \(row.metric.name) | "
                    + "\(row.baseline?.count ?? 0) | \(row.current?.count ?? 0) | \(row.verdict) | \(row.note) |"
            )
        }
        out += footer(full: true)
        return out.joined(separator: "\n")
    }

    /// Title, the answer, warnings, extra sections and the arm comparison's answer.
    private func top() -> [String] {
        var out = ["# \(title)", ""]
        out += ReportHeadline(comparison, direction: sides.against, sides: sidesNamed, limit: 20).lines
        for notice in notices { out += ["", "> **\(notice)**"] }
        if comparison.machinesDiffer, let a = comparison.baselineEnvironment, let b = comparison.currentEnvironment {
            out += [
                "",
                "> **Timing not judged: the two sides come from different machines** "
                    + "(\(comparison.machineDifferences.joined(separator: ", ")) differ: \(a.machine.summary) against "
                    + "\(b.machine.summary)). Exact counts are still judged; for timing, compare revisions on one "
                    + "machine with `perfkit abba`.",
            ]
        }
        if let env = comparison.currentEnvironment, !env.isRelease {
            out += ["", "> **Debug build**: timings are not representative."]
        }
        let failed = budgets.filter { $0.outcome.status == .failed }
        if !failed.isEmpty {
            out += ["", "**Budgets that failed (\(failed.count)):**", ""]
            out += failed.map {
                "- `\(Self.shortName($0.test))` \($0.outcome.measurement) [\($0.outcome.arm), \($0.outcome.phase)] "
                    + "\($0.outcome.metric) \($0.outcome.budget): \($0.outcome.detail)"
            }
        }
        out += ["", "Produced by `\(command)`."]
        for section in extraSections { out += ["", section] }
        if let arms = armComparison {
            out += [
                "", "## \(arms.title)", "",
                "Both arms ran in the same process on the same workload, in alternating ABBA order; change is "
                    + "\(arms.second) over \(arms.first).",
                "",
            ]
            out += ReportHeadline(arms.comparison, direction: "\(arms.second) against \(arms.first)", limit: 12).lines
        }
        return out
    }

    private func footer(full: Bool) -> [String] {
        var out: [String] = []
        if !charts.isEmpty {
            out += [
                "",
                "Charts, one per comparison and kind (change of each judged series, phases apart): "
                    + charts.map { "[\($0.title)](\($0.file))" }.joined(separator: ", "),
            ]
        }
        out += ["", "## Environment", ""]
        for (label, env) in [
            (sides.first, comparison.baselineEnvironment), (sides.second, comparison.currentEnvironment),
        ] {
            guard let env else { continue }
            out.append(
                "- **\(label)**: \(env.commit.prefix(12)) on \(env.branch)\(env.dirty ? " (dirty)" : ""), "
                    + "\(env.buildConfiguration) build, \(env.swiftVersion), allocator \(env.allocator), "
                    + "\(env.machine.summary)"
            )
        }
        if !limitations.isEmpty {
            out += ["", "## What these measurements do not show", ""] + limitations.map { "- \($0)" }
        }
        if !full, let fullReportName {
            out += [
                "",
                "Every row (unchanged exact counts, rows not judged, notes), all budgets and the run order: "
                    + "[\(fullReportName)](\(fullReportName)).",
            ]
        }
        out.append("")
        return out
    }

    /// One section per kind (simulated counts apart), each present even when nothing in it was judged.
    ///
    /// Inside, one table whose rows are the measured series and whose columns are the phases, each cell the change
    /// (with its interval, or "exact") and the verdict.
    private func sections(_ comparison: Comparison, first: String, second: String, judgedOnly: Bool) -> [String] {
        let judged: Set<Verdict> = [.regressed, .improved, .withinNoise, .inconclusive]
        var out: [String] = []
        for group in ReportHeadline.Group.all {
            let all = comparison.rows.filter { ReportHeadline.Group($0) == group }
            out += ["### \(group.title)", "", "_\(Self.caveat(for: group))_", ""]
            let rows = judgedOnly ? all.filter { judged.contains($0.verdict) } : all
            guard !rows.isEmpty else {
                out += [
                    all.isEmpty
                        ? "No series of this kind was measured."
                        : "Nothing judged here: \(ReportHeadline.counts(all)).", "",
                ]
                continue
            }
            struct Key: Hashable, Comparable {
                var test: String, measurement: String, arm: String, metric: String
                static func < (a: Key, b: Key) -> Bool {
                    (a.test, a.measurement, a.arm, a.metric) < (b.test, b.measurement, b.arm, b.metric)
                }
            }
            var cells: [Key: [Phase: ComparisonRow]] = [:]
            for row in rows {
                cells[
                    Key(test: row.test, measurement: row.measurement, arm: row.arm, metric: row.metric.name),
                    default: [:]][row.phase] = row
            }
            let phases = Phase.allPhases.filter { phase in rows.contains { $0.phase == phase } }
            out.append(
                "| test / measurement [arm] | metric | "
                    + phases.map { "\($0) (\(first) → \(second))" }.joined(separator: " | ") + " |")
            out.append("|---|---|" + phases.map { _ in "---|" }.joined())
            for key in cells.keys.sorted() {
                let byPhase = cells[key]!
                let values = phases.map { phase in byPhase[phase].map { cell($0) } ?? "–" }
                out.append(
                    "| \(Self.shortName(key.test)) / \(key.measurement) [\(key.arm)] | \(key.metric) | "
                        + values.joined(separator: " | ") + " |")
            }
            if judgedOnly && rows.count < all.count {
                out += [
                    "",
                    "Not shown here (in the full report): "
                        + "\(ReportHeadline.counts(all.filter { !judged.contains($0.verdict) })).",
                ]
            }
            out.append("")
        }
        return out
    }

    /// A phase cell: the change and the verdict first (what a reviewer scans), the medians under them.
    ///
    /// A count's medians are plain numbers: the metric column names its unit.
    private func cell(_ row: ComparisonRow) -> String {
        let u = row.metric.unit
        func median(_ summary: Summary?) -> String {
            guard let summary else { return "–" }
            return row.metric.isSimulated ? Format.trim(summary.median) : Format.value(summary.median, u)
        }
        let medians = "\(median(row.baseline)) → \(median(row.current))"
        if row.isExact { return "exact, \(verdict(row))<br>\(medians)" }
        if row.metric.isSimulated {
            return "\(row.change.map { MarkdownReport.percent($0.value) } ?? "–"), \(verdict(row))<br>\(medians)"
        }
        let change =
            row.change.map { "\(Self.percent($0.value)) (\(Self.percent($0.lower)) … \(Self.percent($0.upper)))" }
            ?? Self.changeText(row)
        return "\(change), \(verdict(row))<br>\(medians)"
    }

    /// What a group's numbers do not show.
    static func caveat(for group: ReportHeadline.Group) -> String {
        group.simulated
            ? "Instructions executed per call under valgrind's simulation (the same for one binary, toolchain and "
                + "valgrind, except in code that follows heap addresses): they miss cache misses, memory stalls, "
                + "system calls, sleeps and lock waits, and are not time."
            : caveat(for: group.kind)
    }

    /// The change cell: a ratio with its CI, a difference for a zero baseline, or an exact pair of values.
    public static func changeText(_ row: ComparisonRow) -> String {
        let u = row.metric.unit
        if row.metric.isCounted, let d = row.difference, let c = row.change {
            let size =
                d.lower == d.upper
                ? Comparison.signed(d.value, u) : "\(Comparison.signed(d.lower, u)) to \(Comparison.signed(d.upper, u))"
            return "\(size) a call (\(percent(c.value)))"
        }
        if let c = row.change { return "\(percent(c.value)) (\(percent(c.lower)) … \(percent(c.upper)))" }
        if let d = row.difference {
            return "\(Format.value(d.value, u)) (\(Format.value(d.lower, u)) … \(Format.value(d.upper, u)))"
        }
        if let b = row.baseline, let c = row.current, b.min == b.max, c.min == c.max {
            return "exact: \(Format.value(b.median, u)) → \(Format.value(c.median, u))"
        }
        return "–"
    }

    /// The verdict cell; an inconclusive or unjudged row says why in plain words.
    private func verdict(_ row: ComparisonRow) -> String {
        switch row.verdict {
        case .inconclusive, .notJudged: "\(row.verdict) (\(row.reason?.description ?? "–"))"
        default: row.verdict.marker
        }
    }

    /// `Suite/test()` without its module prefix.
    public static func shortName(_ id: String) -> String { SeriesID.shortTest(id) }

    /// A ratio as a signed percentage change, for example `+3.2%`.
    ///
    /// Under 1%, two significant digits (`+0.063%`: a count's 0.05% tolerance is passed by changes that one decimal
    /// shows as `+0.1%`).
    public static func percent(_ ratio: Double) -> String {
        guard ratio.isFinite else { return "undefined" }
        let value = (ratio - 1) * 100
        if value != 0, abs(value) < 0.95 {
            let decimals = min(6, max(1, 1 - Int(log10(abs(value)).rounded(.down))))
            return (value >= 0 ? "+" : "") + String(format: "%.\(decimals)f%%", value)
        }
        // From +1,000% up, tenths say nothing and digits need grouping: +339,207%.
        guard abs(value) >= 1000 else { return (value >= 0 ? "+" : "") + String(format: "%.1f%%", value) }
        return (value >= 0 ? "+" : "-") + Format.grouped(abs(value).rounded()) + "%"
    }

    /// A table of every budget, saying which clock each stands for.
    static func budgetTable(_ budgets: [(test: String, outcome: BudgetOutcome)]) -> [String] {
        guard !budgets.isEmpty else { return [] }
        var lines = [
            "## Budgets", "",
            "Frame work is 8.3 ms at 120 Hz; direct interaction is p95 under 10 ms and max 20 ms; other local actions "
                + "aim for 32 to 50 ms with a 100 ms ceiling. These are host-side times judged against those clocks, "
                + "not frames or input latency on a device. Budgets on exact counts are judged in the build that ran "
                + "them (counts can differ between debug and release).",
            "",
            "| test / measurement [arm, phase] | metric | budget (clock) | status | observed |",
            "|---|---|---|---|---|",
        ]
        for (id, budget) in budgets {
            lines.append(
                "| \(shortName(id)) / \(budget.measurement) [\(budget.arm), \(budget.phase)] | \(budget.metric) | "
                    + "\(budget.budget) | \(budget.status) | \(budget.detail) |"
            )
        }
        return lines
    }

    /// One line per measurement with more than one arm: its rounds and the order of the first four.
    /// - Parameter tests: The run's tests.
    /// - Returns: `Suite/test() measurement: 30 rounds, first four: a, b | b, a | …`.
    public static func runOrderLines(_ tests: [TestResult]) -> [String] {
        tests.flatMap { test in
            test.measurements.filter { $0.arms.count > 1 }.map { m in
                let rounds = m.order.prefix(4).map { $0.map { m.arms[$0] }.joined(separator: ", ") }.joined(
                    separator: " | ")
                return "\(test.id) \(m.name): \(m.order.count) rounds, first four: \(rounds)"
            }
        }
    }

    /// Every budget outcome of `tests`, for ``budgets``.
    public static func budgets(of tests: [TestResult]) -> [(test: String, outcome: BudgetOutcome)] {
        tests.flatMap { test in test.budgets.map { (test.id, $0) } }
    }

    /// What a phase's figures answer.
    public static func phaseMeaning(_ phase: Phase) -> String {
        switch phase {
        case .cold: "first run on fresh state"
        case .eviction: "after the working set was evicted"
        default: "steady state after warm-up"
        }
    }
}
