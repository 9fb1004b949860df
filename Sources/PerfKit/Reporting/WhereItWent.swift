import Foundation
import PerfKitCore

/// "Where it went" for every simulated count series that changed.
///
/// The functions whose inclusive instructions per call changed most, and the functions whose direct calls into the
/// allocator changed (call sites that started or stopped allocating), from the profiles both sides stored.
public struct WhereItWent: Sendable {
    /// One changed series.
    public struct Entry: Sendable {
        /// The series.
        public var id: SeriesID
        /// Its verdict (regressed or improved).
        public var verdict: Verdict
        /// Its change as a ratio, current over baseline.
        public var ratio: Double
        /// Functions by change of inclusive instructions per call, largest first.
        public var functions: [CountProfile.Change]
        /// Functions by change of allocator calls per call.
        public var allocations: [CountProfile.Change]
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
                functions: Self.innermost(
                    CountProfile.changes(b.inclusive, c.inclusive, limit: 4 * limit), limit: limit),
                allocations: CountProfile.changes(b.allocationCalls, c.allocationCalls, limit: limit))
        }
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
            "Per changed count series: the functions whose inclusive instructions per call changed most, and the call "
                + "sites whose calls into the allocator changed. From callgrind's per-function counts of the same "
                + "samples (`callgrind_annotate --inclusive=yes` on the files beside the run file shows the rest).",
        ]
        for entry in entries {
            out += [
                "", "**\(entry.id.description)**: \(MarkdownReport.percent(entry.ratio)), \(entry.verdict.marker)", "",
            ]
            out += ["| function | instructions per call (before → after) | change |", "|---|--:|--:|"]
            for f in entry.functions {
                out.append(
                    "| `\(Self.cell(f.function))` | \(Self.count(f.baseline)) → \(Self.count(f.current)) | "
                        + "\(Self.signed(f.delta)) |"
                )
            }
            if !entry.allocations.isEmpty {
                out += [
                    "", "| call site (calls into the allocator) | calls per call (before → after) | change |",
                    "|---|--:|--:|",
                ]
                for a in entry.allocations {
                    out.append(
                        "| `\(Self.cell(a.function))` | \(Self.count(a.baseline)) → \(Self.count(a.current)) | "
                            + "\(Self.signed(a.delta)) |"
                    )
                }
            } else {
                out += ["", "No call site changed its calls into the allocator."]
            }
        }
        return out.joined(separator: "\n")
    }

    /// Plain lines for the terminal: per series, the top function and the top allocation change.
    public var plainLines: [String] {
        entries.flatMap { entry -> [String] in
            var lines = ["where it went, \(entry.id.description) (\(MarkdownReport.percent(entry.ratio))):"]
            for f in entry.functions.prefix(3) {
                lines.append("  \(Self.signed(f.delta)) instructions per call in \(f.function)")
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
