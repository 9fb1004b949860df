import Foundation
import PerfKit
import PerfKitCommandLine

/// `perfkit export RUNFILE --format github-smaller|github-bigger|bencher|thresholds [--output FILE|DIR]`.
enum ExportCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "export")
        try parsed.requirePositionals(1...1)
        let format = try parsed.choice(
            .format, ["github-smaller", "github-bigger", "bencher", "thresholds"], default: "bencher")
        if format == "thresholds" { return try thresholds(parsed) }
        if let output = parsed[.output] {
            try OutputPath.refuseOverwriting(output, inputs: [parsed.positionals[0]])
            try OutputPath.validate(output)
        }
        let run = try RunFile.read(from: parsed.positionals[0])
        let data: Data
        switch format {
        case "github-smaller": data = try Exports.githubActionBenchmark(run.tests, polarity: .smallerIsBetter)
        case "github-bigger": data = try Exports.githubActionBenchmark(run.tests, polarity: .largerIsBetter)
        default: data = try Exports.bencher(run.tests)
        }
        try Output.write(String(decoding: data, as: UTF8.self) + "\n", to: parsed[.output])
        // Neither format has a place for an absent figure: what was not measured, and why, goes to
        // standard error, so it is never absent in silence (the JSON on standard output stays valid).
        for line in NotMeasured.lines(of: run.tests) { Output.progress("perfkit export: not measured: " + line) }
        return 0
    }

    /// `--format thresholds --output DIR`: package-benchmark's `DIR/<toolchain>/<Target>.<Benchmark>.p90.json`.
    static func thresholds(_ parsed: Arguments) throws -> Int32 {
        guard let root = parsed[.output] else {
            throw UsageError("--format thresholds writes a folder: give it with --output DIR")
        }
        let run = try RunFile.read(from: parsed.positionals[0])
        let export = ThresholdExport(run)
        try export.write(to: root)
        for note in export.skipped { Output.progress("perfkit export: not written: \(note)") }
        Output.line(
            "wrote \(export.files.count) threshold files under \(root)/"
                + ThresholdExport.toolchainFolder(swiftVersion: run.environment.swiftVersion))
        return 0
    }
}
