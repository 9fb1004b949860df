import Foundation
import PerfKitCore

/// What `perfkit stats` reports for number files.
///
/// A ministat-style summary per file and, for two files, their comparison (independent samples, or paired line by
/// line), in text, Markdown, CSV or JSON.
public struct NumberFileReport: Encodable {
    /// One file's summary.
    public struct FileSummary: Encodable {
        /// The file as given.
        public var path: String
        /// Numbers read.
        public var count: Int
        /// Summary statistics (`stddev` with divisor n − 1; `mad` unscaled).
        public var min, max, mean, stddev, median, p90, p95, p99, mad: Double
        /// Extra percentiles asked for, keyed as written on the command line.
        public var percentiles: [String: Double]?
    }

    /// One summary per file.
    public var files: [FileSummary]
    /// Two independent samples compared, if two files and not paired.
    public var comparison: SampleComparison?
    /// Two files paired line by line, if asked.
    public var paired: PairedSampleComparison?

    /// Summarises and compares number files.
    /// - Parameters:
    ///   - files: Each file's path and numbers (one or two).
    ///   - percentiles: Extra percentiles, each as written and as a number in 0...100.
    ///   - paired: Whether two files are paired line by line.
    /// - Throws: ``StatisticsError`` for empty or non-finite samples; ``FileError`` naming the
    ///   second file when the two cannot be paired.
    public init(files: [(path: String, values: [Double])], percentiles: [(String, Double)] = [], paired: Bool = false)
        throws
    {
        self.files = try files.map { file in
            let s = try Summary(file.values, percentiles: percentiles.map(\.1))
            return FileSummary(
                path: file.path, count: s.count, min: s.min, max: s.max, mean: s.mean, stddev: s.standardDeviation,
                median: s.median, p90: s.p90, p95: s.p95, p99: s.p99, mad: s.medianAbsoluteDeviation,
                percentiles: percentiles.isEmpty
                    ? nil
                    : Dictionary(
                        percentiles.map { ($0.0, s.percentile($0.1) ?? s.median) }, uniquingKeysWith: { a, _ in a }))
        }
        comparison = files.count == 2 && !paired ? try SampleComparison(files[0].values, files[1].values) : nil
        if paired && files.count == 2 {
            do { self.paired = try PairedSampleComparison(files[0].values, files[1].values) } catch {
                throw FileError(files[1].path, "cannot be paired with \(files[0].path): \(error)")
            }
        }
    }

    /// The report in `format`: `text` (aligned columns), `markdown`, `csv` or `json`.
    /// - Parameter format: One of the four.
    /// - Returns: The rendering, ending in a newline.
    /// - Throws: An encoding error (JSON only; non-finite figures are written as null).
    public func render(_ format: String) throws -> String {
        switch format {
        case "json":
            String(decoding: try StoredFile.encode(self, for: files.map(\.path).joined(separator: ", ")), as: UTF8.self)
        case "csv": Self.csv(self)
        case "markdown": Self.markdown(self)
        default: Self.text(self)
        }
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.6g", value)
    }

    static func columns(_ extra: [String]) -> [String] {
        ["count", "min", "max", "mean", "stddev", "median", "p90", "p95", "p99", "mad"] + extra.map { "p\($0)" }
    }

    static func row(_ f: FileSummary, _ extra: [String]) -> [String] {
        [String(f.count)] + [f.min, f.max, f.mean, f.stddev, f.median, f.p90, f.p95, f.p99, f.mad].map(number)
            + extra.map { number(f.percentiles?[$0] ?? .nan) }
    }

    static func extraKeys(_ report: NumberFileReport) -> [String] {
        report.files.first?.percentiles.map { Array($0.keys).sorted { (Double($0) ?? 0) < (Double($1) ?? 0) } } ?? []
    }

    static func comparisonLine(_ c: SampleComparison) -> String {
        let name = c.statistic == "ratioOfMedians" ? "ratio of medians" : "difference of medians"
        let e = c.estimate
        return
            "\(name) \(String(format: "%.4g", e.value)) (95% CI "
            + "\(String(format: "%.4g", e.lower))…\(String(format: "%.4g", e.upper))), "
            + "Mann–Whitney p \(c.mannWhitneyP < 0.001 ? "" : "= ")\(Format.pValue(c.mannWhitneyP)): \(c.verdict)"
            + (c.note.map { " (\($0))" } ?? "")
    }

    static func pairedLine(_ p: PairedSampleComparison) -> String {
        let r = p.ratio
        return
            "paired ratio (Hodges–Lehmann of \(p.pairs) log ratios) \(String(format: "%.4g", r.value)) (95% CI "
            + "\(String(format: "%.4g", r.lower))…\(String(format: "%.4g", r.upper))), "
            + "Wilcoxon p \(p.wilcoxonP < 0.001 ? "" : "= ")\(Format.pValue(p.wilcoxonP)) (\(p.method.rawValue)): "
            + "\(p.verdict)"
    }

    static func text(_ report: NumberFileReport) -> String {
        let extra = extraKeys(report)
        let header = ["file"] + columns(extra)
        let rows = report.files.map { [$0.path] + row($0, extra) }
        let widths = header.indices.map { i in ([header[i]] + rows.map { $0[i] }).map(\.count).max()! }
        func format(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                i == 0
                    ? c.padding(toLength: widths[i], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[i] - c.count) + c
            }
            .joined(separator: "  ")
        }
        var lines = [format(header)] + rows.map(format)
        if let c = report.comparison { lines.append(comparisonLine(c)) }
        if let p = report.paired { lines.append(pairedLine(p)) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func markdown(_ report: NumberFileReport) -> String {
        let extra = extraKeys(report)
        let header = ["file"] + columns(extra)
        var lines = ["| " + header.joined(separator: " | ") + " |", "|" + header.map { _ in "---|" }.joined()]
        lines += report.files.map { "| " + ([$0.path] + row($0, extra)).joined(separator: " | ") + " |" }
        if let c = report.comparison { lines += ["", comparisonLine(c)] }
        if let p = report.paired { lines += ["", pairedLine(p)] }
        return lines.joined(separator: "\n") + "\n"
    }

    static func csv(_ report: NumberFileReport) -> String {
        let extra = extraKeys(report)
        var lines = [(["file"] + columns(extra)).joined(separator: ",")]
        lines += report.files.map { ([CSV.escape($0.path)] + row($0, extra)).joined(separator: ",") }
        if let c = report.comparison {
            lines += [
                "", "statistic,value,ci95Low,ci95High,mannWhitneyP,verdict,note",
                "\(c.statistic),\(c.estimate.value),\(c.estimate.lower),\(c.estimate.upper),\(c.mannWhitneyP),\(c.verdict),\(CSV.escape(c.note ?? ""))",
            ]
        }
        if let p = report.paired {
            lines += [
                "", "statistic,value,ci95Low,ci95High,wilcoxonP,method,verdict",
                "pairedRatio,\(p.ratio.value),\(p.ratio.lower),\(p.ratio.upper),\(p.wilcoxonP),\(p.method.rawValue),\(p.verdict)",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
