import PerfKit

/// The demo's table of the figures the calendar renderer's native policy is about.
///
/// Its section is titled "Headline"; the answer's headline itself is ``ReportHeadline``'s.
package enum PolicyComparison {
    /// The headline numbers: live views, consumer-owned artwork bytes, process memory and the scroll's wall clock.
    /// - Parameter c: The arm-against-arm comparison of a demo run (rows `native vs reference`).
    /// - Returns: A Markdown section with one row per figure found.
    package static func figures(_ c: Comparison) -> String {
        var lines = [
            "## Headline: native policy against reference", "",
            "| figure | reference | native | change (95% CI where statistical) |", "|---|--:|--:|---|",
        ]
        let wanted: [(String, String, Phase)] = [
            ("liveViews", "scroll-30d", .warm), ("consumerArtworkBytes", "scroll-30d", .warm),
            ("consumerArtworkBytes", "artwork-30d", .warm), ("residentMemory", "process-30d", .warm),
            ("peakResidentMemory", "process-30d", .warm), ("wallClock", "scroll-30d", .warm),
        ]
        for (metric, measurement, phase) in wanted {
            guard
                let row = c.rows.first(where: {
                    $0.metric.name == metric && $0.measurement == measurement && $0.phase == phase
                        && $0.arm == "native vs reference"
                }),
                let b = row.baseline, let n = row.current
            else { continue }
            let u = row.metric.unit
            let change =
                row.change.map {
                    "\(MarkdownReport.percent($0.value)) (\(MarkdownReport.percent($0.lower)) … "
                        + "\(MarkdownReport.percent($0.upper))), \(row.verdict)"
                }
                ?? (row.verdict == .notJudged
                    ? "\(MarkdownReport.percent(n.median / max(b.median, 1))), not judged "
                        + "(\(row.reason?.description ?? "not judged"))"
                    : "\(MarkdownReport.percent(n.median / max(b.median, 1))), "
                        + "\(row.isExact ? "exact: every sample identical" : row.verdict.description)")
            lines.append(
                "| \(metric) (\(measurement), \(phase), median) | \(Format.value(b.median, u)) | "
                    + "\(Format.value(n.median, u)) | \(change) |"
            )
        }
        lines.append("")
        lines.append(
            "Live views and artwork bytes are counts of this workload (exact where every sample is identical); process "
                + "memory is the resident set of a fresh process per policy, one process per sample, alternated in "
                + "ABBA order, with the Hodges–Lehmann ratio and its exact 95% CI."
        )
        return lines.joined(separator: "\n")
    }
}
