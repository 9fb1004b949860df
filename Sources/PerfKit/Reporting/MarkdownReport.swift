import Foundation

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
    /// Chart file names per phase, linked from the report.
    public var charts: [Phase: String]
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
            heading: "Current against the baseline", against: "current against the baseline", first: "base", second: "cur",
            lead:
                "Two separate runs, compared process by process: timing rows include the drift between processes of both runs; deterministic counts are compared exactly. `perfkit abba` pairs two revisions in one session for tighter timing verdicts."
        )
        /// Two revisions in ABBA order.
        public static let abba = Sides(
            heading: "B against A (paired rounds)", against: "B against A", first: "A", second: "B",
            lead: "Each round pairs one process of A with one of B, in alternating order, so drift between rounds cancels in the pairs.")
    }

    /// A report; everything but the title, command and comparison is optional.
    public init(
        title: String, command: String, comparison: Comparison, armComparison: ArmSection? = nil,
        charts: [Phase: String] = [:], extraSections: [String] = [], runOrder: [String] = [], limitations: [String] = [], sides: Sides = .baseline,
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

    /// What each kind's numbers do not show.
    public static func caveat(for kind: MetricKind) -> String {
        switch kind {
        case .memory: "Memory of this process on this machine; it does not show GPU memory or what a device's allocator would keep."
        case .correctness: "These counts show whether work happened, not how long it took."
        case .frameInput: "Host-side time judged against UI deadlines; it is not GPU frame delivery or input-to-visible latency on a device."
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
            out = top() + ["", "_The per-row tables are too long for a pull-request comment; they are in the full report._"] + footer(full: false)
            text = out.joined(separator: "\n")
        }
        return text
    }

    /// The full report: every row with its note, all budgets, the run order and raw details.
    public func renderFull() -> String {
        var out = ["# \(title): full tables", "", "Produced by `\(command)`. The answer and the reasoning are in the main report; this file holds every row."]
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
            "", "## Every row's note", "", "| test | measurement | arm | phase | metric | n \(sides.first) | n \(sides.second) | verdict | note |",
            "|---|---|---|---|---|--:|--:|---|---|",
        ]
        for row in comparison.rows {
            out.append(
                "| \(row.test) | \(row.measurement) | \(row.arm) | \(row.phase) | \(row.metric.name) | \(row.baseline?.count ?? 0) | \(row.current?.count ?? 0) | \(row.verdict) | \(row.note) |"
            )
        }
        out += footer(full: true)
        return out.joined(separator: "\n")
    }

    /// Title, the answer, warnings, extra sections and the arm comparison's answer.
    private func top() -> [String] {
        var out = ["# \(title)", ""]
        out += ReportHeadline(comparison, direction: sides.against).lines
        if comparison.machinesDiffer, let a = comparison.baselineEnvironment, let b = comparison.currentEnvironment {
            out += [
                "",
                "> **Timing not judged: the two sides come from different machines** (\(comparison.machineDifferences.joined(separator: ", ")) differ: \(a.machine.summary) against \(b.machine.summary)). Exact counts are still judged; for timing, compare revisions on one machine with `perfkit abba`.",
            ]
        }
        if let env = comparison.currentEnvironment, !env.isRelease {
            out += ["", "> **Debug build**: timings are not representative."]
        }
        let failed = budgets.filter { $0.outcome.status == .failed }
        if !failed.isEmpty {
            out += ["", "**Budgets that failed (\(failed.count)):**", ""]
            out += failed.map {
                "- `\(Self.shortName($0.test))` \($0.outcome.measurement) [\($0.outcome.arm), \($0.outcome.phase)] \($0.outcome.metric) \($0.outcome.budget): \($0.outcome.detail)"
            }
        }
        out += ["", "Produced by `\(command)`."]
        for section in extraSections { out += ["", section] }
        if let arms = armComparison {
            out += [
                "", "## \(arms.title)", "",
                "Both arms ran in the same process on the same workload, in alternating ABBA order; change is \(arms.second) over \(arms.first).", "",
            ]
            out += ReportHeadline(arms.comparison, direction: "\(arms.second) against \(arms.first)").lines
        }
        return out
    }

    private func footer(full: Bool) -> [String] {
        var out: [String] = []
        if !charts.isEmpty {
            out += [
                "",
                "Charts (change with 95% CI of each judged series): "
                    + charts.sorted { $0.key < $1.key }.map { "[\($0.key)](\($0.value))" }.joined(separator: ", "),
            ]
        }
        out += ["", "## Environment", ""]
        for (label, env) in [(sides.first, comparison.baselineEnvironment), (sides.second, comparison.currentEnvironment)] {
            guard let env else { continue }
            out.append(
                "- **\(label)**: \(env.commit.prefix(12)) on \(env.branch)\(env.dirty ? " (dirty)" : ""), \(env.buildConfiguration) build, \(env.swiftVersion), allocator \(env.allocator), \(env.machine.summary)"
            )
        }
        if !limitations.isEmpty { out += ["", "## What these measurements do not show", ""] + limitations.map { "- \($0)" } }
        if !full, let fullReportName {
            out += ["", "Every row (unchanged exact counts, rows not judged, notes), all budgets and the run order: [\(fullReportName)](\(fullReportName))."]
        }
        out.append("")
        return out
    }

    private func sections(_ comparison: Comparison, first: String, second: String, judgedOnly: Bool) -> [String] {
        let judged: Set<Verdict> = [.regressed, .improved, .withinNoise, .inconclusive]
        var out: [String] = []
        for kind in MetricKind.allKinds {
            let rows = comparison.rows.filter { $0.metric.kind == kind && (!judgedOnly || judged.contains($0.verdict)) }
            guard !rows.isEmpty else { continue }
            out += ["### \(kind.title)", "", "_\(Self.caveat(for: kind))_"]
            for phase in Phase.allPhases {
                let phaseRows = rows.filter { $0.phase == phase }
                guard !phaseRows.isEmpty else { continue }
                out += ["", "**Phase: \(phase)** (\(Self.phaseMeaning(phase)))", ""]
                out.append(
                    "| test / measurement [arm] | metric | \(first) p50 | \(second) p50 | change (\(Set(phaseRows.compactMap(\.confidence)).count == 1 ? phaseRows.compactMap(\.confidence)[0].ciLabel : "95% CI")) | p | verdict |"
                )
                out.append("|---|---|--:|--:|---|--:|---|")
                for row in phaseRows {
                    let u = row.metric.unit
                    let p = row.pValue.map { Format.pValue($0) } ?? "–"
                    out.append(
                        "| \(Self.shortName(row.test)) / \(row.measurement) [\(row.arm)] | \(row.metric.name) | \(row.baseline.map { Format.value($0.median, u) } ?? "–") | "
                            + "\(row.current.map { Format.value($0.median, u) } ?? "–") | \(Self.changeText(row)) | \(p) | \(verdict(row)) |")
                }
            }
            out.append("")
        }
        return out
    }

    /// The change cell: a ratio with its CI, a difference for a zero baseline, or an exact pair of values.
    public static func changeText(_ row: ComparisonRow) -> String {
        let u = row.metric.unit
        if let c = row.change { return "\(percent(c.value)) (\(percent(c.lower)) … \(percent(c.upper)))" }
        if let d = row.difference { return "\(Format.value(d.value, u)) (\(Format.value(d.lower, u)) … \(Format.value(d.upper, u)))" }
        if let b = row.baseline, let c = row.current, b.min == b.max, c.min == c.max {
            return "exact: \(Format.value(b.median, u)) → \(Format.value(c.median, u))"
        }
        return "–"
    }

    /// The verdict cell; an inconclusive or unjudged row says why in plain words.
    private func verdict(_ row: ComparisonRow) -> String {
        switch row.verdict {
        case .inconclusive, .notJudged: "\(row.verdict) (\(ReportHeadline.reason(row)))"
        default: row.verdict.marker
        }
    }

    /// `Suite/test()` without its module prefix.
    public static func shortName(_ id: String) -> String { SeriesID.shortTest(id) }

    /// A ratio as a signed percentage change, for example `+3.2%`.
    public static func percent(_ ratio: Double) -> String {
        guard ratio.isFinite else { return "undefined" }
        let value = (ratio - 1) * 100
        return (value >= 0 ? "+" : "") + String(format: "%.1f%%", value)
    }

    /// A table of every budget, saying which clock each stands for.
    static func budgetTable(_ budgets: [(test: String, outcome: BudgetOutcome)]) -> [String] {
        guard !budgets.isEmpty else { return [] }
        var lines = [
            "## Budgets", "",
            "Frame work is 8.3 ms at 120 Hz; direct interaction is p95 under 10 ms and max 20 ms; other local actions aim for 32 to 50 ms with a 100 ms ceiling. These are host-side times judged against those clocks, not frames or input latency on a device. Budgets on exact counts are judged in the build that ran them (counts can differ between debug and release).",
            "",
            "| test / measurement [arm, phase] | metric | budget (clock) | status | observed |", "|---|---|---|---|---|",
        ]
        for (id, budget) in budgets {
            lines.append(
                "| \(shortName(id)) / \(budget.measurement) [\(budget.arm), \(budget.phase)] | \(budget.metric) | \(budget.budget) | \(budget.status) | \(budget.detail) |"
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
                let rounds = m.order.prefix(4).map { $0.map { m.arms[$0] }.joined(separator: ", ") }.joined(separator: " | ")
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
