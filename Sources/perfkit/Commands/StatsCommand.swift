import Foundation
import PerfKit

/// `perfkit stats FILE [FILE2]`: ministat-style summaries of number files and, with two, their comparison.
enum StatsCommand {
    struct FileSummary: Encodable {
        var path: String
        var count: Int
        var min, max, mean, stddev, median, p90, p95, p99, mad: Double
        var percentiles: [String: Double]?
    }

    struct Report: Encodable {
        var files: [FileSummary]
        var comparison: SampleComparison?
        var paired: PairedSampleComparison?
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "stats")
        try parsed.requirePositionals(1...2, usage: "perfkit stats FILE [FILE2 [--paired]] [--format text|json|markdown|csv] [--percentiles 50,90,99.9]")
        let format = try parsed.choice("format", ["text", "json", "markdown", "csv"], default: "text")
        var extra: [(String, Double)] = []
        if let list = parsed.options["percentiles"] {
            for item in list.split(separator: ",") {
                let key = item.trimmingCharacters(in: .whitespaces)
                guard let p = Double(key), (0...100).contains(p) else { throw UsageError("--percentiles: '\(key)' is not a percentile in 0...100") }
                extra.append((key, p))
            }
        }
        var samples: [[Double]] = []
        var summaries: [FileSummary] = []
        for path in parsed.positionals {
            let values = try NumberFile.read(path)
            let s = try Summary(values, percentiles: extra.map(\.1))
            samples.append(values)
            summaries.append(
                FileSummary(
                    path: path, count: s.count, min: s.min, max: s.max, mean: s.mean, stddev: s.standardDeviation,
                    median: s.median, p90: s.p90, p95: s.p95, p99: s.p99, mad: s.medianAbsoluteDeviation,
                    percentiles: extra.isEmpty ? nil : Dictionary(extra.map { ($0.0, s.extraPercentiles[$0.1]!) }, uniquingKeysWith: { a, _ in a })))
        }
        let isPaired = parsed.flags.contains("paired")
        if isPaired && samples.count != 2 { throw UsageError("--paired needs two files") }
        let comparison = samples.count == 2 && !isPaired ? try SampleComparison(samples[0], samples[1]) : nil
        var paired: PairedSampleComparison?
        if isPaired {
            do { paired = try PairedSampleComparison(samples[0], samples[1]) } catch {
                throw FileError(parsed.positionals[1], "cannot be paired with \(parsed.positionals[0]): \(error)")
            }
        }
        let report = Report(files: summaries, comparison: comparison, paired: paired)
        switch format {
        case "json":
            let data = try StoredFile.encoder().encode(report)
            Output.line(String(decoding: data, as: UTF8.self))
        case "csv": try Output.write(csv(report), to: nil)
        case "markdown": try Output.write(markdown(report), to: nil)
        default: try Output.write(text(report), to: nil)
        }
        return 0
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.6g", value)
    }

    static func columns(_ extra: [String]) -> [String] {
        ["count", "min", "max", "mean", "stddev", "median", "p90", "p95", "p99", "mad"] + extra.map { "p\($0)" }
    }

    static func row(_ f: FileSummary, _ extra: [String]) -> [String] {
        [String(f.count)] + [f.min, f.max, f.mean, f.stddev, f.median, f.p90, f.p95, f.p99, f.mad].map(number)
            + extra.map { number(f.percentiles![$0]!) }
    }

    static func extraKeys(_ report: Report) -> [String] { report.files.first?.percentiles.map { Array($0.keys).sorted { Double($0)! < Double($1)! } } ?? [] }

    static func comparisonLine(_ c: SampleComparison) -> String {
        let name = c.statistic == "ratioOfMedians" ? "ratio of medians" : "difference of medians"
        let e = c.estimate
        return "\(name) \(String(format: "%.4g", e.value)) (95% CI \(String(format: "%.4g", e.lower))…\(String(format: "%.4g", e.upper))), "
            + "Mann–Whitney p \(c.mannWhitneyP < 0.001 ? "" : "= ")\(Format.pValue(c.mannWhitneyP)): \(c.verdict)" + (c.note.map { " (\($0))" } ?? "")
    }

    static func pairedLine(_ p: PairedSampleComparison) -> String {
        let r = p.ratio
        return
            "paired ratio (Hodges–Lehmann of \(p.pairs) log ratios) \(String(format: "%.4g", r.value)) (95% CI \(String(format: "%.4g", r.lower))…\(String(format: "%.4g", r.upper))), "
            + "Wilcoxon p \(p.wilcoxonP < 0.001 ? "" : "= ")\(Format.pValue(p.wilcoxonP)) (\(p.method.rawValue)): \(p.verdict)"
    }

    static func text(_ report: Report) -> String {
        let extra = extraKeys(report)
        let header = ["file"] + columns(extra)
        let rows = report.files.map { [$0.path] + row($0, extra) }
        let widths = header.indices.map { i in ([header[i]] + rows.map { $0[i] }).map(\.count).max()! }
        func format(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                i == 0 ? c.padding(toLength: widths[i], withPad: " ", startingAt: 0) : String(repeating: " ", count: widths[i] - c.count) + c
            }
            .joined(separator: "  ")
        }
        var lines = [format(header)] + rows.map(format)
        if let c = report.comparison { lines.append(comparisonLine(c)) }
        if let p = report.paired { lines.append(pairedLine(p)) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func markdown(_ report: Report) -> String {
        let extra = extraKeys(report)
        let header = ["file"] + columns(extra)
        var lines = ["| " + header.joined(separator: " | ") + " |", "|" + header.map { _ in "---|" }.joined()]
        lines += report.files.map { "| " + ([$0.path] + row($0, extra)).joined(separator: " | ") + " |" }
        if let c = report.comparison { lines += ["", comparisonLine(c)] }
        if let p = report.paired { lines += ["", pairedLine(p)] }
        return lines.joined(separator: "\n") + "\n"
    }

    static func csv(_ report: Report) -> String {
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
