import Foundation
import PerfKit

/// `perfkit compare BASELINE [--current RUNFILE | --with BASELINE2] [--markdown FILE] [--csv FILE] [--json FILE] [--fail-on regression]`.
/// Exit status: 0 nothing regressed, 1 regression with `--fail-on regression`, 2 bad input or usage.
enum CompareCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, options: ["current", "with", "markdown", "csv", "json", "fail-on", "root", "noise"])
        try parsed.requirePositionals(
            1...1, usage: "perfkit compare BASELINE [--current RUNFILE | --with BASELINE2] [--markdown FILE] [--csv FILE] [--json FILE] [--fail-on regression]")
        if parsed.options["fail-on"] != nil { _ = try parsed.choice("fail-on", ["regression"], default: "regression") }
        guard parsed.options["current"] == nil || parsed.options["with"] == nil else { throw UsageError("give --current or --with, not both") }
        let store = BaselineStore(root: parsed.options["root"] ?? "Baselines")
        let baseline = try store.load(parsed.positionals[0])
        let currentTests: [TestResult]
        let currentEnvironment: Environment
        let currentSource: String
        if let other = parsed.options["with"] {
            let b = try store.load(other)
            (currentTests, currentEnvironment, currentSource) = (b.tests, b.environment, "\(store.root)/\(other)")
        } else {
            currentSource = parsed.options["current"] ?? ".perfkit/runs/latest.json"
            let run = try RunFile.read(from: currentSource)
            (currentTests, currentEnvironment) = (run.tests, run.environment)
        }
        let bands = try NoiseBandsFile.load(parsed.options["noise"], machine: currentEnvironment.machine).withCrossRunDefault
        let comparison: Comparison
        do {
            comparison = try Comparison(
                baseline: baseline.tests, current: currentTests, bands: bands,
                baselineEnvironment: baseline.environment, currentEnvironment: currentEnvironment)
        } catch let error as ComparisonError {
            throw FileError(currentSource, "\(error) (against \(store.root)/\(baseline.name))")
        }
        let command = Arguments.commandLine(["perfkit", "compare"] + arguments)
        try ReportWriter.write(
            comparison, command: command, title: "PerfKit comparison against \(baseline.name)", markdown: parsed.options["markdown"],
            csv: parsed.options["csv"], json: parsed.options["json"], rawTests: [("baseline", baseline.tests), ("current", currentTests)])
        if parsed.options["markdown"] == nil { Output.line(comparison.headline) }
        return comparison.hasRegression && parsed.options["fail-on"] != nil ? 1 : 0
    }
}

/// Writes the report files of a comparison: Markdown with SVG charts beside it, CSV summary and raw, JSON.
enum ReportWriter {
    static func write(
        _ comparison: Comparison, command: String, title: String, markdown: String?, csv: String?, json: String?,
        rawTests: [(String, [TestResult])], armComparison: (title: String, comparison: Comparison)? = nil,
        extraSections: [String] = [], runOrder: [String] = [], limitations: [String] = [], sides: MarkdownReport.Sides = .baseline
    ) throws {
        if let markdown {
            let base = URL(fileURLWithPath: markdown).deletingPathExtension()
            var charts: [Phase: String] = [:]
            let chartRows = (armComparison?.comparison.rows ?? []) + comparison.rows
            for phase in Phase.allPhases where chartRows.contains(where: { $0.phase == phase && $0.change != nil }) {
                let name = base.lastPathComponent + "-\(phase).svg"
                try StoredFile.writeAtomically(
                    Data(SVGChart.changes(chartRows.filter { $0.phase == phase }, title: "\(title), \(phase) phase").utf8),
                    to: base.deletingLastPathComponent().appendingPathComponent(name).path)
                charts[phase] = name
            }
            let report = MarkdownReport(
                title: title, command: command, comparison: comparison, armComparison: armComparison, charts: charts,
                extraSections: extraSections, runOrder: runOrder, limitations: limitations, sides: sides)
            try StoredFile.writeAtomically(Data(report.render().utf8), to: markdown)
        }
        if let csv {
            let rows = ((armComparison.map { [$0.comparison] } ?? []) + [comparison])
            try StoredFile.writeAtomically(Data(rows.map(CSVReport.summary).joined().utf8), to: csv)
            let rawPath = URL(fileURLWithPath: csv).deletingPathExtension().path + "-raw.csv"
            let raw =
                [CSV.line(["side", "test", "measurement", "arm", "phase", "metric", "unit", "round", "position", "iteration", "value"])]
                + rawTests.flatMap { CSVReport.rawRows($0.1, side: $0.0) }
            try StoredFile.writeAtomically(Data((raw.joined(separator: "\n") + "\n").utf8), to: rawPath)
        }
        if let json { try StoredFile.write(comparison, to: json) }
    }
}

/// Noise bands: defaults, or a calibrated file for this machine.
enum NoiseBandsFile {
    /// Bands for paired ABBA comparisons without calibration: ±1%. Pairs within one session see no
    /// drift between runs; a small calibration on a 2-core VM (`perfkit calibrate --rounds 4
    /// --repeats 2 --filter historyLayout`) measured A/A bands of 0.5 to 1.2% for the 1- to 30-day
    /// layouts and 2.1 to 2.5% for the 90-day one. A band close to the change one wants to catch
    /// makes the CI gate a coin toss: with ±2%, an injected 3% slowdown was detected in 16 to 20 of
    /// 20 repeats, with ±1% in 20 of 20 (A/A: 0 of 20 either way). Series noisier than ±1% stay
    /// mostly inconclusive, not flagged, because the CI must clear the band.
    static let pairedDefault = NoiseBands(defaultRelative: 0.01)

    /// The calibrated bands of this machine (`.perfkit/noise/<fingerprint>.json`, written by `perfkit calibrate`), or `fallback`.
    static func load(_ path: String?, machine: MachineFingerprint, default fallback: NoiseBands = NoiseBands()) throws -> NoiseBands {
        let file = path ?? defaultPath(machine)
        guard FileManager.default.fileExists(atPath: file) else {
            if path != nil { throw FileError(file, "no such noise-band file") }
            return fallback
        }
        return try StoredFile.read(NoiseCalibration.self, from: file, supportedVersion: NoiseCalibration.schemaVersion).bands
    }

    static func defaultPath(_ machine: MachineFingerprint) -> String { ".perfkit/noise/\(machine.identifier).json" }
}
