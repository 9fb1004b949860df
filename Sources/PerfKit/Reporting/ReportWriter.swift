import Foundation
import PerfKitCore

/// Writes the files of a report.
///
/// The PR-sized Markdown with its full companion and one SVG chart per phase beside it, the CSV summary with a raw CSV
/// beside it, and JSON. Every file is written atomically; nothing is printed.
public struct ReportWriter: Sendable {
    /// Where each file goes; nil leaves a format out.
    public var markdown: String?
    /// Where the CSV goes, if anywhere.
    public var csv: String?
    /// Where the JSON document goes, if anywhere.
    public var json: String?
    /// The growth of parameterized tests over sizes: a section and a log–log chart per function
    /// in the Markdown report (nil, or empty, for none).
    public var growth: GrowthReport? = nil
    /// Differential flame graphs of the changed count series, written beside the Markdown report and linked from it.
    public var flameGraphs: [FlameGraph] = []

    /// Creates a writer.
    public init(markdown: String?, csv: String?, json: String?) {
        self.markdown = markdown
        self.csv = csv
        self.json = json
    }

    /// The full report's path beside the main one: `pr.md` → `pr-full.md` (nil beside a device or
    /// standard output, where no companion is written).
    public static func fullPath(of markdown: String) -> String? {
        OutputPath.companion(of: markdown, suffix: "-full.md")
    }

    /// The raw CSV's path beside the summary: `pr.csv` → `pr-raw.csv` (nil beside a device).
    public static func rawPath(of csv: String) -> String? { OutputPath.companion(of: csv, suffix: "-raw.csv") }

    /// Every file this writer writes but its charts: each report and its companions, for
    /// ``OutputPath/check(_:inputs:)`` before any work.
    public var plannedPaths: [String] {
        [markdown, markdown.flatMap(Self.fullPath), csv, csv.flatMap(Self.rawPath), json].compactMap { $0 }
    }

    /// Writes the report.
    /// - Parameters:
    ///   - report: The Markdown report (its charts and companion name are filled in here).
    ///   - rawTests: The raw samples of each side, for the raw CSV.
    /// - Returns: The paths written.
    /// - Throws: ``FileError`` naming the file that could not be written.
    @discardableResult
    public func write(_ report: MarkdownReport, rawTests: [(side: String, tests: [TestResult])]) throws(FileError)
        -> [String]
    {
        var written: [String] = []
        if let markdown, let full = Self.fullPath(of: markdown) {
            written += try writeWithCompanions(report, markdown: markdown, full: full)
        } else if let markdown {
            // Standard output or a device: the report alone, no companion beside it.
            var report = report
            if let growth, !growth.isEmpty { report.extraSections.append(growth.markdown(charts: [:])) }
            try StoredFile.writeAtomically(Data(report.render().utf8), to: markdown)
            written.append(markdown)
        }
        if let csv { written += try writeCSV(report, csv: csv, rawTests: rawTests) }
        if let json {
            try StoredFile.write(
                ComparisonDocument(comparison: report.comparison, arms: report.armComparison?.comparison), to: json)
            written.append(json)
        }
        return written
    }

    /// The report and its full companion beside `markdown`, with a chart per comparison and kind
    /// and a growth chart per parameterized function.
    func writeWithCompanions(_ report: MarkdownReport, markdown: String, full: String) throws(FileError) -> [String] {
        var written: [String] = []
        var report = report
        let base = URL(fileURLWithPath: markdown).deletingPathExtension()
        let folder = base.deletingLastPathComponent()
        // One chart per comparison and kind (simulated counts apart), phases ordered inside it:
        // a chart never puts memory, counts and time, or two comparisons, on one axis.
        var comparisons: [(slug: String, title: String, rows: [ComparisonRow])] = []
        if let arms = report.armComparison {
            comparisons.append(("arms", "\(arms.second) against \(arms.first)", arms.comparison.rows))
        }
        comparisons.append(("sides", report.sides.against, report.comparison.rows))
        for comparison in comparisons {
            for group in ReportHeadline.Group.all {
                let rows = comparison.rows.filter { ReportHeadline.Group($0) == group }
                    .sorted {
                        ($0.phase, $0.test, $0.measurement, $0.arm) < ($1.phase, $1.test, $1.measurement, $1.arm)
                    }
                guard !SVGChart.layout(rows).rows.isEmpty else { continue }
                let name = Self.chartName(base.lastPathComponent, comparison.slug, group)
                let path = folder.appendingPathComponent(name).path
                let title = "\(comparison.title): \(group.title)"
                try StoredFile.writeAtomically(Data(SVGChart.changes(rows, title: title).utf8), to: path)
                report.charts.append((title, name))
                written.append(path)
            }
        }
        if let growth, !growth.isEmpty {
            var names: [String: String] = [:]
            for (n, chart) in growth.charts().enumerated() {
                let name = Self.growthChartName(base.lastPathComponent, n + 1)
                try StoredFile.writeAtomically(Data(chart.svg.utf8), to: folder.appendingPathComponent(name).path)
                names[chart.function] = name
                written.append(folder.appendingPathComponent(name).path)
            }
            report.extraSections.append(growth.markdown(charts: names))
        }
        if !flameGraphs.isEmpty {
            var links: [String] = []
            for (n, graph) in flameGraphs.enumerated() {
                let name = Self.flameGraphName(base.lastPathComponent, n + 1)
                try StoredFile.writeAtomically(Data(graph.svg.utf8), to: folder.appendingPathComponent(name).path)
                written.append(folder.appendingPathComponent(name).path)
                links.append("- [\(graph.title)](\(name))")
            }
            report.extraSections.append(
                ([
                    "## Flame graphs of what changed", "",
                    "Both sides' call stacks merged, each frame as wide as its larger side: red grew, blue shrank; a "
                        + "frame's title gives both sides' figures.", "",
                ] + links).joined(separator: "\n"))
        }
        report.fullReportName = URL(fileURLWithPath: full).lastPathComponent
        try StoredFile.writeAtomically(Data(report.renderFull().utf8), to: full)
        try StoredFile.writeAtomically(Data(report.render().utf8), to: markdown)
        written += [full, markdown]
        try Self.removeStaleCharts(of: base, keeping: written)
        return written
    }

    /// Removes the charts of the report at `base` (its path without `.md`) that an earlier write left and this one did
    /// not make.
    ///
    /// A kind with no judged row this time, fewer parameterized functions. A chart beside a report is then always the
    /// report's own (the calendar demo's counts chart showed an earlier run's +2.2% beside a report whose counts were
    /// all not judged).
    /// - Throws: ``FileError`` naming a chart that cannot be removed.
    static func removeStaleCharts(of base: URL, keeping written: [String]) throws(FileError) {
        let folder = base.deletingLastPathComponent()
        let kept = Set(written.map { URL(fileURLWithPath: $0).lastPathComponent })
        let report = base.lastPathComponent
        let charts = Set(["arms", "sides"].flatMap { c in ReportHeadline.Group.all.map { chartName(report, c, $0) } })
        func isChart(_ file: String) -> Bool {
            if charts.contains(file) { return true }
            // A growth chart or a flame graph: the number after the last "-" names it, and the name is the one it
            // would get.
            guard file.hasSuffix(".svg"), let dash = file.lastIndex(of: "-"),
                let n = Int(file[file.index(after: dash)...].dropLast(4))
            else { return false }
            return file == growthChartName(report, n) || file == flameGraphName(report, n)
        }
        for name in FileManager.default.names(in: folder.path)
        where isChart(name) && !kept.contains(name) {
            let path = folder.appendingPathComponent(name).path
            do { try FileManager.default.removeItem(atPath: path) } catch {
                throw FileError(
                    path, "cannot remove this report's chart from an earlier run: \(error.localizedDescription)")
            }
        }
    }

    /// A flame graph's name: `<report>-flame-<n>.svg`.
    static func flameGraphName(_ report: String, _ n: Int) -> String { "\(report)-flame-\(n).svg" }

    /// Writes each changed series' folded stacks, both sides, into `folder`: `<series>.before.folded` and
    /// `.after.folded`, for flamegraph.pl and speedscope.
    /// - Returns: The files written.
    public static func writeFolded(
        _ whereItWent: WhereItWent, baseline: [TestResult], current: [TestResult], to folder: String
    ) throws(FileError) -> [String] {
        let before = SeriesTable(baseline), after = SeriesTable(current)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch { throw FileError(folder, "cannot create the folder: \(error.localizedDescription)") }
        var written: [String] = []
        for entry in whereItWent.entries {
            let slug = String(
                entry.id.description.map { $0.isLetter || $0.isNumber ? $0 : "_" }.prefix(120))
            for (side, table) in [("before", before), ("after", after)] {
                guard let stacks = table.series[entry.id]?.profile?.stacks else { continue }
                let path = "\(folder)/\(slug).\(side).folded"
                try StoredFile.writeAtomically(Data(FlameGraph.folded(stacks).utf8), to: path)
                written.append(path)
            }
        }
        return written
    }

    /// A comparison chart's name: `<report>-<comparison>-<kind>.svg`, the kind as the group title's first two
    /// words (`pr-sides-simulated-counts.svg`).
    static func chartName(_ report: String, _ comparison: String, _ group: ReportHeadline.Group) -> String {
        let kind = group.title.lowercased().filter { $0.isLetter || $0 == " " }.split(separator: " ").prefix(2)
            .joined(separator: "-")
        return "\(report)-\(comparison)-\(kind).svg"
    }

    /// A growth chart's name: `<report>-growth-<n>.svg`.
    static func growthChartName(_ report: String, _ n: Int) -> String { "\(report)-growth-\(n).svg" }

    /// The summary CSV and, beside it, the raw samples' CSV; the paths in that order.
    func writeCSV(_ report: MarkdownReport, csv: String, rawTests: [(side: String, tests: [TestResult])])
        throws(FileError) -> [String]
    {
        var written = [csv]
        let comparisons = (report.armComparison.map { [$0.comparison] } ?? []) + [report.comparison]
        let notMeasured = rawTests.flatMap { CSVReport.notMeasuredRows($0.tests, side: $0.side) }
        let summary = comparisons.map(CSVReport.summary).joined() + notMeasured.map { $0 + "\n" }.joined()
        try StoredFile.writeAtomically(Data(summary.utf8), to: csv)
        if let rawPath = Self.rawPath(of: csv) {
            let header = CSV.line([
                "side", "test", "measurement", "arm", "phase", "metric", "unit", "process", "round", "position",
                "sample", "value",
            ])
            let raw = [header] + rawTests.flatMap { CSVReport.rawRows($0.tests, side: $0.side) }
            try StoredFile.writeAtomically(Data((raw.joined(separator: "\n") + "\n").utf8), to: rawPath)
            written.append(rawPath)
        }
        return written
    }
}

/// The `--json` output of a comparison: versioned, so readers can check what they get.
public struct ComparisonDocument: Sendable, Codable, Equatable {
    /// Version 1: `comparison` (rows with verdicts and notes) and optional `arms`.
    public static let schemaVersion = 1
    /// The document's schema version, read first.
    public var schemaVersion = Self.schemaVersion
    /// The comparison the report is about.
    public var comparison: Comparison
    /// Arm-against-arm comparisons of the current side, if any measurement has two arms.
    public var arms: Comparison?
}

extension MarkdownReport {
    /// A command line as a person would type it into a POSIX shell, for a report's "Produced by" line.
    ///
    /// Words with characters the shell treats specially are single-quoted, so it can be pasted back.
    /// - Parameter words: The command and its arguments.
    /// - Returns: One line.
    public static func commandLine(_ words: [String]) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%^")
        return words.map { word in
            guard word.isEmpty || !word.allSatisfy(plain.contains) else { return word }
            return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}
