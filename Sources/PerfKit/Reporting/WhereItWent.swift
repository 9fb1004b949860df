import Foundation
import PerfKitCore

/// "Where it went" for every simulated count series that changed.
///
/// The functions whose own (exclusive) instructions per call changed most, adding up to the series' change; the
/// functions whose inclusive instructions changed most; and the functions whose direct calls into the allocator
/// changed (call sites that started or stopped allocating), from the profiles both sides stored.
public struct WhereItWent: Sendable {
    /// One changed series.
    public struct Entry: Sendable {
        /// The series.
        public var id: SeriesID
        /// Its verdict (regressed or improved).
        public var verdict: Verdict
        /// Its change as a ratio, current over baseline.
        public var ratio: Double
        /// Functions by change of exclusive instructions per call, adding up to the change; nil for older profiles.
        public var attribution: CountProfile.Attribution?
        /// The series' change in instructions per call: current median less baseline median.
        public var seriesChange: Double
        /// Functions by change of inclusive instructions per call, largest first.
        public var functions: [CountProfile.Change]
        /// Functions by change of allocator calls per call.
        public var allocations: [CountProfile.Change]

        /// An entry (what ``WhereItWent/init(_:baseline:current:limit:)`` collects; tests build their own).
        package init(
            id: SeriesID, verdict: Verdict, ratio: Double, attribution: CountProfile.Attribution?, seriesChange: Double,
            functions: [CountProfile.Change], allocations: [CountProfile.Change]
        ) {
            self.id = id
            self.verdict = verdict
            self.ratio = ratio
            self.attribution = attribution
            self.seriesChange = seriesChange
            self.functions = functions
            self.allocations = allocations
        }
    }

    /// The changed series that have profiles on both sides.
    public var entries: [Entry]

    /// Collects the entries of `comparison`'s regressed and improved count rows.
    /// - Parameters:
    ///   - comparison: The comparison.
    ///   - baseline: The baseline side's tests (with profiles).
    ///   - current: The current side's tests.
    ///   - limit: Functions per list.
    public init(_ comparison: Comparison, baseline: [TestResult], current: [TestResult], limit: Int = 5) {
        let before = SeriesTable(baseline), after = SeriesTable(current)
        entries = comparison.rows.compactMap { row in
            guard row.metric.isSimulated, row.verdict == .regressed || row.verdict == .improved,
                let b = before.series[row.id]?.profile, let c = after.series[row.id]?.profile
            else { return nil }
            return Entry(
                id: row.id, verdict: row.verdict, ratio: row.change?.value ?? 1,
                attribution: CountProfile.attribution(b, c, limit: limit),
                seriesChange: (row.current?.median ?? 0) - (row.baseline?.median ?? 0),
                functions: Self.innermost(
                    CountProfile.changes(Self.matched(b, c), Self.matched(c, b), limit: 4 * limit), limit: limit),
                allocations: CountProfile.changes(b.allocationCalls, c.allocationCalls, limit: limit))
        }
    }

    /// `profile`'s inclusive entries, with the enclosing frames `other` lists at their figure.
    ///
    /// The frames `profile` left out as enclosing the whole body (``CountProfile/enclosing``): the body's own frame is
    /// matched across sides, never `0 → N`.
    static func matched(_ profile: CountProfile, _ other: CountProfile) -> [CountProfile.Entry] {
        let listed = Set(profile.inclusive.map(\.function))
        let wanted = Set(other.inclusive.map(\.function)).subtracting(listed)
        return profile.inclusive + (profile.enclosing ?? []).filter { wanted.contains($0.function) }
    }

    /// Nested frames carry the same inclusive change (the runtime's job, the test's closure and the function it calls
    /// all gain the same 81,450 instructions).
    ///
    /// Of changes within 0.1% of each other and of one sign, only the innermost (the smallest inclusive figure) is
    /// kept, so the list names the code that changed rather than what encloses it.
    /// - Parameters:
    ///   - changes: Inclusive changes, largest first.
    ///   - limit: How many to keep.
    /// - Returns: The kept changes, largest first.
    package static func innermost(_ changes: [CountProfile.Change], limit: Int) -> [CountProfile.Change] {
        var kept: [CountProfile.Change] = []
        for change in changes {
            if let i = kept.firstIndex(where: {
                ($0.delta > 0) == (change.delta > 0) && abs($0.delta - change.delta) <= 0.001 * abs($0.delta)
            }) {
                if change.current < kept[i].current { kept[i] = change }
            } else {
                kept.append(change)
            }
        }
        return Array(kept.prefix(limit))
    }

    /// The Markdown section, or nil when no count series changed.
    public var markdown: String? {
        guard !entries.isEmpty else { return nil }
        var out = [
            "## Where it went (simulated counts)", "",
            "Per changed count series: the functions whose own instructions (exclusive) per call changed most, which "
                + "add up to the series' change; the functions whose instructions with everything they call "
                + "(inclusive) changed most; and the call sites whose calls into the allocator changed. From "
                + "callgrind's per-function counts of the same samples (`callgrind_annotate` on the files beside the "
                + "run file shows the rest).",
        ]
        for entry in entries {
            out += [
                "", "**\(entry.id.description)**: \(MarkdownReport.percent(entry.ratio)), \(entry.verdict.marker)", "",
            ]
            out += Self.exclusiveTable(entry)
            out += ["", "| function (inclusive) | instructions per call (before → after) | change |", "|---|--:|--:|"]
            out += entry.functions.map(Self.inclusiveRow)
            if !entry.allocations.isEmpty {
                out += [
                    "", "| call site (calls into the allocator) | calls per call (before → after) | change |",
                    "|---|--:|--:|",
                ]
                out += entry.allocations.map(Self.row)
            } else {
                out += ["", "No call site changed its calls into the allocator."]
            }
        }
        return out.joined(separator: "\n")
    }

    /// The exclusive table with its sum, and what the sum leaves unattributed.
    package static func exclusiveTable(_ entry: Entry) -> [String] {
        guard let attribution = entry.attribution else {
            return ["Profiles stored before exclusive figures were kept: only inclusive changes are shown."]
        }
        var out = [
            "| function (exclusive: its own instructions) | per call (before → after) | change |", "|---|--:|--:|",
        ]
        out += attribution.changes.map(Self.row)
        out.append("| other functions | | \(signed(attribution.otherFunctions)) |")
        if attribution.leftOut != 0 {
            out.append(
                "| left out of the count (harness frames, runtime cache probes) | | \(signed(-attribution.leftOut)) |")
        }
        out.append("| **sum** | | **\(signed(attribution.total))** |")
        let unattributed = entry.seriesChange - attribution.total
        if abs(unattributed) > 0.01 * abs(entry.seriesChange) {
            out += [
                "",
                "Not attributed: \(signed(unattributed)) per call of the series' change of "
                    + "\(signed(entry.seriesChange)) "
                    + "(the profile averages every sample; the verdict compares medians).",
            ]
        }
        return out
    }

    /// A row of the inclusive table: a function listed on one side only is marked so, as in the exclusive table.
    static func inclusiveRow(_ change: CountProfile.Change) -> String {
        var marked = change
        if change.baseline == 0 { marked.function += " (after only)" }
        if change.current == 0 { marked.function += " (before only)" }
        return row(marked)
    }

    /// A table row of one function's change; a function inlined on one side names what it absorbed.
    static func row(_ change: CountProfile.Change) -> String {
        let inlined = change.absorbed.map { "`\(cell($0))`" }.joined(separator: ", ")
        let name =
            "`\(cell(change.function))`"
            + (inlined.isEmpty ? "" : " (with \(inlined): on one side only, counted with its caller)")
        return "| \(name) | \(count(change.baseline)) → \(count(change.current)) | \(signed(change.delta)) |"
    }

    /// Plain lines for the terminal: per series, the top own-instruction changes and the top allocation change.
    public var plainLines: [String] {
        entries.flatMap { entry -> [String] in
            var lines = ["where it went, \(entry.id.description) (\(MarkdownReport.percent(entry.ratio))):"]
            if let attribution = entry.attribution {
                // The same rows as the Markdown's exclusive table, with the remainder, so they add up.
                for f in attribution.changes.prefix(8) {
                    lines.append("  \(Self.signed(f.delta)) own instructions per call in \(f.function)")
                }
                let rest = attribution.changes.dropFirst(8).reduce(0) { $0 + $1.delta } + attribution.otherFunctions
                lines.append("  \(Self.signed(rest)) in other functions")
                if attribution.leftOut != 0 {
                    lines.append("  \(Self.signed(-attribution.leftOut)) left out of the count (harness frames)")
                }
                lines.append("  = \(Self.signed(attribution.total)) per call")
            } else {
                for f in entry.functions.prefix(3) {
                    lines.append("  \(Self.signed(f.delta)) instructions per call (inclusive) in \(f.function)")
                }
            }
            for a in entry.allocations.prefix(3) {
                lines.append("  \(Self.signed(a.delta)) allocator calls per call from \(a.function)")
            }
            return lines
        }
    }

    private static func cell(_ name: String) -> String {
        let short = name.count > 110 ? String(name.prefix(107)) + "…" : name
        return short.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "`", with: "'")
    }

    private static func count(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }

    private static func signed(_ value: Double) -> String { (value > 0 ? "+" : "") + count(value) }
}
