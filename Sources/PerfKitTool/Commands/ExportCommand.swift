import Foundation
import PerfKit
import PerfKitCommandLine

/// `perfkit export RUNFILE --format github-smaller|github-bigger|bencher [--output FILE]`.
enum ExportCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "export")
        try parsed.requirePositionals(1...1)
        let format = try parsed.choice(.format, ["github-smaller", "github-bigger", "bencher"], default: "bencher")
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
}
