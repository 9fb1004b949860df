import Foundation
import PerfKitCore

/// The answer a reviewer reads first, for reports and standard output alike, one line per kind of measurement.
///
/// How many series regressed, improved, stayed within noise, were unchanged, were inconclusive or were not judged, with
/// the reasons (typed, ``VerdictReason``), never adding rows of different kinds together. Then every regressed or
/// improved series on its own line, grouped by kind, and for inconclusive rows the smallest change they could have
/// called.
public struct ReportHeadline: Sendable {
    /// The Markdown lines (also readable as plain text).
    public var lines: [String]

    /// The lines for a terminal: blank lines dropped, bold marks removed.
    public var plainLines: [String] { lines.filter { !$0.isEmpty }.map { $0.replacingOccurrences(of: "**", with: "") } }

    /// One group of an answer.
    ///
    /// A kind of measurement, with simulated counts apart from the rest of component cost (they are judged by another
    /// rule and hold still where time does not).
    public struct Group: Hashable, Sendable, Comparable {
        /// The metric kind.
        public var kind: MetricKind
        /// Whether the group holds simulated counts.
        public var simulated: Bool
        /// The group of a row.
        public init(_ row: ComparisonRow) {
            kind = row.metric.kind
            simulated = row.metric.isSimulated
        }
        /// A group.
        public init(kind: MetricKind, simulated: Bool) {
            self.kind = kind
            self.simulated = simulated
        }
        /// Every group, in report order.
        public static let all: [Group] =
            [Group(kind: .componentCost, simulated: false), Group(kind: .componentCost, simulated: true)]
            + MetricKind.allKinds.dropFirst().map { Group(kind: $0, simulated: false) }
        /// The heading: "Component cost", "Simulated counts (component cost)", "Memory", …
        public var title: String { simulated ? "Simulated counts (component cost)" : kind.title }
        /// Report order.
        public static func < (lhs: Group, rhs: Group) -> Bool { all.firstIndex(of: lhs)! < all.firstIndex(of: rhs)! }
    }

    /// Builds the answer for a comparison.
    /// - Parameters:
    ///   - comparison: The comparison.
    ///   - direction: Which side is compared with which, for example "B against A".
    ///   - sides: One phrase naming both sides (baseline name, commits), or nil to name them from the environments.
    ///   - limit: The most flagged series listed one per line; the rest are counted.
    public init(_ comparison: Comparison, direction: String, sides: String? = nil, limit: Int = 40) {
        var out = ["**\(direction)**: \(sides ?? Self.sides(comparison))", ""]
        for group in Group.all {
            let rows = comparison.rows.filter { Group($0) == group }
            out.append("- **\(group.title)**: \(Self.counts(rows))")
        }
        let flagged = comparison.rows.filter { $0.verdict == .regressed || $0.verdict == .improved }.sorted { a, b in
            (Group(a), a.verdict == .regressed ? 0 : 1, a.test, a.measurement) < (
                Group(b), b.verdict == .regressed ? 0 : 1, b.test, b.measurement
            )
        }
        if !flagged.isEmpty { out.append("") }
        var shownGroup: Group?
        for row in flagged.prefix(limit) {
            if Group(row) != shownGroup {
                if shownGroup != nil { out.append("") }
                shownGroup = Group(row)
                out += ["**\(Group(row).title):**", ""]
            }
            let u = row.metric.unit
            let values = [row.baseline, row.current].map { $0.map { Format.value($0.median, u) } ?? "–" }.joined(
                separator: " → ")
            out.append(
                "- **\(row.verdict)** `\(MarkdownReport.shortName(row.test))` \(row.measurement) [\(row.arm), "
                    + "\(row.phase)] \(row.metric.name): \(Self.change(row)), median \(values)"
            )
        }
        if flagged.count > limit {
            out.append("- … and \(flagged.count - limit) more in the tables (the full report has every row)")
        }
        // One line per kind: a count compared across placements is not a timing row (its ±3% beside
        // timing's ±37% read as one timing figure).
        for (simulated, rows) in [(false, "timing rows"), (true, "count rows (compared across placements)")] {
            let detectable = comparison.rows.filter {
                $0.verdict == .inconclusive && $0.metric.isSimulated == simulated
            }
            .compactMap(\.detectableChange).sorted()
            guard let low = detectable.first, let high = detectable.last else { continue }
            func percent(_ x: Double) -> String { "±\(Int((x * 100).rounded()))%" }
            let spread = percent(low) == percent(high) ? "" : " at the median, \(percent(low)) to \(percent(high))"
            out += [
                "",
                "The smallest change the inconclusive \(rows) could have called (80% power): about "
                    + "\(percent(detectable[detectable.count / 2]))\(spread).",
            ]
        }
        lines = out
    }

    /// "2 regressed, 1 improved, 14 within noise, 3 inconclusive (too noisy to tell: 3), 5 not judged (another machine:
    /// 5)".
    /// - Parameter rows: Rows of one group.
    /// - Returns: The counts, with the reasons of inconclusive and unjudged rows; "no series" for none.
    public static func counts(_ rows: [ComparisonRow]) -> String {
        guard !rows.isEmpty else { return "no series" }
        var parts: [String] = []
        for verdict in [
            Verdict.regressed, .improved, .withinNoise, .unchanged, .inconclusive, .notJudged, .added, .removed,
        ] {
            let matching = rows.filter { $0.verdict == verdict }
            guard !matching.isEmpty else { continue }
            var part = "\(matching.count) \(verdict == .unchanged ? "unchanged exactly" : verdict.description)"
            if verdict == .inconclusive || verdict == .notJudged {
                var reasons: [String: Int] = [:]
                for row in matching { reasons[row.reason?.description ?? "no reason recorded", default: 0] += 1 }
                part +=
                    " ("
                    + reasons.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key): \($0.value)" }
                    .joined(separator: "; ") + ")"
            }
            parts.append(part)
        }
        return parts.joined(separator: ", ")
    }

    /// Both sides named from the comparison's environments: commit, branch and build.
    static func sides(_ comparison: Comparison) -> String {
        if comparison.baselineEnvironment == nil && comparison.currentEnvironment == nil {
            return "arms of one run and one binary, in alternating ABBA order"
        }
        func name(_ environment: Environment?) -> String {
            guard let environment else { return "results" }
            return "\(environment.commit.prefix(12)) (\(environment.branch), \(environment.buildConfiguration))"
        }
        return "\(name(comparison.currentEnvironment)) against \(name(comparison.baselineEnvironment))"
    }

    /// A change with its CI (95%, or the level of the look that judged it), as a percentage or a difference.
    static func change(_ row: ComparisonRow) -> String {
        if row.metric.isCounted, let d = row.difference, let c = row.change {
            // A count compared placement by placement: its size a call first, then the ratio.
            let size =
                d.lower == d.upper
                ? Comparison.signed(d.value, row.metric.unit)
                : "\(Comparison.signed(d.lower, row.metric.unit)) to \(Comparison.signed(d.upper, row.metric.unit))"
            return "\(size) a call (\(MarkdownReport.percent(c.value)), simulated count)"
        }
        if row.metric.isSimulated, let c = row.change {
            return "\(MarkdownReport.percent(c.value)) (simulated count, median per call)"
        }
        if let c = row.change {
            return
                "\(MarkdownReport.percent(c.value)) (\((row.confidence ?? 0.95).ciLabel) "
                + "\(MarkdownReport.percent(c.lower)) … \(MarkdownReport.percent(c.upper)))"
        }
        return MarkdownReport.changeText(row)
    }
}
