import Foundation

/// The answer a reviewer reads first, for reports and standard output alike: every regressed or
/// improved series on its own line with its change and 95% CI, then how many series are within
/// noise, inconclusive and not judged, each with its main reasons, and for inconclusive rows the
/// smallest change they could have called. Exact counts that did not change are counted, not listed.
public struct ReportHeadline: Sendable {
    /// The Markdown lines (also readable as plain text).
    public var lines: [String]

    /// The lines for a terminal: blank lines dropped, bold marks removed.
    public var plainLines: [String] { lines.filter { !$0.isEmpty }.map { $0.replacingOccurrences(of: "**", with: "") } }

    /// Builds the answer for a comparison.
    /// - Parameters:
    ///   - comparison: The comparison.
    ///   - direction: Which side is compared with which, for example "B against A".
    ///   - limit: The most flagged series listed one per line; the rest are counted.
    public init(_ comparison: Comparison, direction: String, limit: Int = 40) {
        let rows = comparison.rows
        let flagged = rows.filter { $0.verdict == .regressed || $0.verdict == .improved }.sorted { a, b in
            (a.verdict == .regressed ? 0 : 1, a.test, a.measurement) < (b.verdict == .regressed ? 0 : 1, b.test, b.measurement)
        }
        let judged = rows.filter { [.regressed, .improved, .withinNoise, .inconclusive].contains($0.verdict) }.count
        func plural(_ n: Int, _ word: String, _ words: String) -> String { "\(n) \(n == 1 ? word : words)" }
        var out = [
            "**\(plural(comparison.count(.regressed), "regression", "regressions")), \(plural(comparison.count(.improved), "improvement", "improvements"))** (\(direction)), among \(plural(judged, "judged series", "judged series")).",
            "",
        ]
        for row in flagged.prefix(limit) {
            let u = row.metric.unit
            let values = [row.baseline, row.current].map { $0.map { Format.value($0.median, u) } ?? "–" }.joined(separator: " → ")
            out.append(
                "- **\(row.verdict)** `\(MarkdownReport.shortName(row.test))` \(row.measurement) [\(row.arm), \(row.phase)] \(row.metric.name): \(Self.change(row)), median \(values)"
            )
        }
        if flagged.count > limit { out.append("- … and \(flagged.count - limit) more in the tables below") }
        if !flagged.isEmpty { out.append("") }
        var rest: [String] = ["Within noise: \(comparison.count(.withinNoise))."]
        for (verdict, label) in [(Verdict.inconclusive, "Inconclusive"), (.notJudged, "Not judged")] {
            let matching = rows.filter { $0.verdict == verdict }
            guard !matching.isEmpty else { continue }
            var reasons: [String: Int] = [:]
            for row in matching { reasons[Self.reason(row), default: 0] += 1 }
            let listed = reasons.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
            rest.append("\(label): \(matching.count) (\(listed)).")
            let detectable = matching.compactMap(\.detectableChange).sorted()
            if verdict == .inconclusive, let low = detectable.first, let high = detectable.last {
                func percent(_ x: Double) -> String { "±\(Int((x * 100).rounded()))%" }
                let spread = percent(low) == percent(high) ? "" : " at the median, \(percent(low)) to \(percent(high))"
                rest.append("The smallest change they could have called (80% power): about \(percent(detectable[detectable.count / 2]))\(spread).")
            }
        }
        if comparison.count(.unchanged) > 0 { rest.append("Exact counts unchanged: \(comparison.count(.unchanged)).") }
        if comparison.count(.added) > 0 { rest.append("Added: \(comparison.count(.added)).") }
        if comparison.count(.removed) > 0 { rest.append("Removed: \(comparison.count(.removed)).") }
        out.append(rest.joined(separator: " "))
        lines = out
    }

    /// A change with its CI (95%, or the level of the look that judged it), as a percentage or a difference.
    static func change(_ row: ComparisonRow) -> String {
        if let c = row.change {
            return
                "\(MarkdownReport.percent(c.value)) (\((row.confidence ?? 0.95).ciLabel) \(MarkdownReport.percent(c.lower)) … \(MarkdownReport.percent(c.upper)))"
        }
        return MarkdownReport.changeText(row)
    }

    /// A row's reason in a few plain words (the part of its note before any detail), for grouping.
    public static func reason(_ row: ComparisonRow) -> String {
        var note = row.note
        for prefix in ["varies between samples, so compared as a distribution; ", "varies between rounds, so compared as a distribution; "]
        where note.hasPrefix(prefix) {
            note.removeFirst(prefix.count)
        }
        if note.hasPrefix("per-process medians of") || note.hasPrefix("samples of one process"), let cut = note.firstIndex(of: ";") {
            note = String(note[note.index(after: cut)...]).trimmingCharacters(in: .whitespaces)
        }
        let end = note.firstIndex { $0 == ":" || $0 == "(" } ?? note.endIndex
        let short = note[..<end].trimmingCharacters(in: .whitespaces)
        return short.isEmpty ? row.verdict.description : short
    }
}
