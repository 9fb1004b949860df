import Foundation

/// Review-ready GitHub-flavoured Markdown for a comparison.
///
/// First line: the verdict in words. Then one section per measurement kind (never merged), a
/// table per phase inside each, one sentence per kind on what its numbers do not show, the
/// environments of both sides, the run order, and raw details folded in `<details>`.
public struct MarkdownReport: Sendable {
    public var title: String
    /// The command that produced the report, written at its top.
    public var command: String
    public var comparison: Comparison
    /// An optional within-run comparison of arms (for example native against reference).
    public var armComparison: (title: String, comparison: Comparison)?
    /// Chart file names per phase, linked from the report.
    public var charts: [Phase: String]
    /// Extra sections (Markdown) placed before the environment.
    public var extraSections: [String]
    /// Run order lines per measurement.
    public var runOrder: [String]
    /// The closing section on what the measurements do not show.
    public var limitations: [String]
    /// Names of the two sides: heading, and short column labels (for example baseline/current, A/B).
    public var sides: Sides

    /// How the two compared sides are named.
    public struct Sides: Sendable {
        public var heading: String
        public var against: String
        public var first: String
        public var second: String
        /// One sentence under the heading on what kind of comparison this is.
        public var lead: String
        public init(heading: String, against: String, first: String, second: String, lead: String = "") {
            self.heading = heading
            self.against = against
            self.first = first
            self.second = second
            self.lead = lead
        }
        /// A stored baseline against current results.
        public static let baseline = Sides(
            heading: "Against the baseline", against: "against the baseline", first: "base", second: "cur",
            lead:
                "Two separate runs: timing rows include this machine's drift between runs, which no statistic on one run per side can remove (`perfkit abba` pairs two revisions in one session for timing verdicts); deterministic counts are compared exactly."
        )
        /// Two revisions in ABBA order.
        public static let abba = Sides(
            heading: "B against A (paired rounds)", against: "B against A", first: "A", second: "B",
            lead: "Each round pairs one process of A with one of B, in alternating order, so drift between rounds cancels in the pairs.")
    }

    public init(
        title: String, command: String, comparison: Comparison, armComparison: (title: String, comparison: Comparison)? = nil,
        charts: [Phase: String] = [:], extraSections: [String] = [], runOrder: [String] = [], limitations: [String] = [], sides: Sides = .baseline
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

    /// Renders the report.
    public func render() -> String {
        var out: [String] = []
        out.append("**\(comparison.headline)** \(sides.against).")
        out.append("")
        out.append("# \(title)")
        out.append("")
        out.append("Produced by `\(command)`.")
        if comparison.machinesDiffer {
            out.append("")
            out.append(
                "> **Warning: the baseline and the current results come from different machines** (\(comparison.baselineEnvironment!.machine.summary) vs \(comparison.currentEnvironment!.machine.summary)); differences may be the machine, not the code."
            )
        }
        if let env = comparison.currentEnvironment, !env.isRelease {
            out.append("")
            out.append("> **Debug build**: timings are not representative.")
        }
        for section in extraSections { out += ["", section] }
        if let arms = armComparison {
            out += [
                "", "## \(arms.title)", "",
                "Both arms ran in the same process on the same workload, in alternating ABBA order. Change is the second arm over the first.", "",
            ]
            out += sections(arms.comparison, baselineLabel: "ref", currentLabel: "native", level: "###")
        }
        out += ["", "## \(sides.heading)", ""]
        if !sides.lead.isEmpty { out += ["_\(sides.lead)_", ""] }
        out += sections(comparison, baselineLabel: sides.first, currentLabel: sides.second, level: "###")
        if !charts.isEmpty {
            out += [
                "", "Charts (change with 95% CI per series): " + charts.sorted { $0.key < $1.key }.map { "[\($0.key)](\($0.value))" }.joined(separator: ", "),
            ]
        }
        out += ["", "## Environment", ""]
        for (label, env) in [(sides.first, comparison.baselineEnvironment), (sides.second, comparison.currentEnvironment)] {
            guard let env else { continue }
            out.append(
                "- **\(label)**: \(env.commit.prefix(12)) on \(env.branch)\(env.dirty ? " (dirty)" : ""), \(env.buildConfiguration) build, \(env.swiftVersion), allocator \(env.allocator), \(env.machine.summary) (fingerprint \(env.machine.identifier))"
            )
        }
        if !runOrder.isEmpty { out += ["", "## Run order", ""] + runOrder.map { "- \($0)" } }
        if !limitations.isEmpty { out += ["", "## What these measurements do not show", ""] + limitations.map { "- \($0)" } }
        out += [
            "", "<details><summary>Raw details</summary>", "", "| test | measurement | arm | phase | metric | n base | n cur | note |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for row in comparison.rows {
            out.append(
                "| \(row.test) | \(row.measurement) | \(row.arm) | \(row.phase) | \(row.metric.name) | \(row.baseline?.count ?? 0) | \(row.current?.count ?? 0) | \(row.note) |"
            )
        }
        out += ["", "</details>", ""]
        return out.joined(separator: "\n")
    }

    private func sections(_ comparison: Comparison, baselineLabel: String, currentLabel: String, level: String) -> [String] {
        var out: [String] = []
        for kind in MetricKind.allKinds {
            let rows = comparison.rows.filter { $0.metric.kind == kind }
            guard !rows.isEmpty else { continue }
            out += ["\(level) \(kind.title)", "", "_\(Self.caveat(for: kind))_"]
            for phase in Phase.allPhases {
                let phaseRows = rows.filter { $0.phase == phase }
                guard !phaseRows.isEmpty else { continue }
                out += ["", "**Phase: \(phase)** (\(Self.phaseMeaning(phase)))", ""]
                out.append(
                    "| test / measurement [arm] | metric | \(baselineLabel) p50 | \(baselineLabel) p90 | \(baselineLabel) p99 | \(currentLabel) p50 | \(currentLabel) p90 | \(currentLabel) p99 | change (95% CI) | p | verdict |"
                )
                out.append("|---|---|--:|--:|--:|--:|--:|--:|---|--:|---|")
                for row in phaseRows {
                    let u = row.metric.unit
                    func cells(_ s: Summary?) -> [String] {
                        s.map { [Format.value($0.median, u), Format.value($0.p90, u), Format.value($0.p99, u)] } ?? ["–", "–", "–"]
                    }
                    let change =
                        row.change.map { "\(Self.percent($0.value)) (\(Self.percent($0.lower)) … \(Self.percent($0.upper)))" }
                        ?? (row.baseline != nil && row.current != nil ? "exact: \(Format.trim(row.baseline!.max)) → \(Format.trim(row.current!.max))" : "–")
                    let p = row.pValue.map { Format.pValue($0) } ?? "–"
                    let name = row.test.split(separator: "/").last.map(String.init) ?? row.test
                    out.append(
                        "| \(name) / \(row.measurement) [\(row.arm)] | \(row.metric.name) | "
                            + (cells(row.baseline) + cells(row.current)).joined(separator: " | ") + " | \(change) | \(p) | \(verdict(row)) |")
                }
            }
            out.append("")
        }
        return out
    }

    /// The verdict cell; an inconclusive row says what change the data could resolve.
    private func verdict(_ row: ComparisonRow) -> String {
        row.verdict == .inconclusive && !row.note.isEmpty ? "inconclusive (\(row.note))" : row.verdict.marker
    }

    /// A ratio as a signed percentage change, for example `+3.2%`.
    public static func percent(_ ratio: Double) -> String {
        let value = (ratio - 1) * 100
        return (value >= 0 ? "+" : "") + String(format: "%.1f%%", value)
    }

    /// A table of every budget of the current results, saying which clock each stands for.
    /// - Parameter tests: The current results.
    /// - Returns: Markdown, or an empty string when no test has a budget.
    public static func budgetSection(_ tests: [TestResult]) -> String {
        let rows = tests.flatMap { test in test.budgets.map { (test.id, $0) } }
        guard !rows.isEmpty else { return "" }
        var lines = [
            "## Budgets", "",
            "Frame work is 8.3 ms at 120 Hz; direct interaction is p95 under 10 ms and max 20 ms; other local actions aim for 32 to 50 ms with a 100 ms ceiling. These are host-side times judged against those clocks, not frames or input latency on a device.",
            "",
            "| test / measurement [arm, phase] | metric | budget (clock) | status | observed |", "|---|---|---|---|---|",
        ]
        for (id, budget) in rows {
            let name = id.split(separator: "/").last.map(String.init) ?? id
            lines.append(
                "| \(name) / \(budget.measurement) [\(budget.arm), \(budget.phase)] | \(budget.metric) | \(budget.budget) | \(budget.status) | \(budget.detail) |"
            )
        }
        return lines.joined(separator: "\n")
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
