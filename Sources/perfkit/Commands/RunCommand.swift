import Foundation
import PerfKit

/// `perfkit run`: builds the tests in release and runs the measured ones serially in measure mode,
/// then merges their results into one run file.
enum RunCommand {
    /// Default test-ID filter: measured tests live in suites whose names end in `Benchmarks`.
    static let defaultFilter = "Benchmarks/"

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, options: ["filter", "iterations", "output"])
        try parsed.requirePositionals(0...0, usage: "perfkit run [--filter REGEX] [--iterations N] [--output FILE]")
        let iterations = try parsed.options["iterations"].map { _ in try parsed.integer("iterations", default: 30) }
        let output = parsed.options["output"] ?? ".perfkit/runs/\(timestamp()).json"
        let (run, status) = try measure(filter: parsed.options["filter"] ?? defaultFilter, iterations: iterations)
        try run.write(to: output)
        try run.write(to: ".perfkit/runs/latest.json")
        Output.line(RunSummary.text(run))
        Output.line("run file: \(output)")
        return status == 0 ? 0 : 1
    }

    static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date())
    }

    /// Builds the package in the current directory in release and runs its measured tests serially in one process.
    /// - Returns: The merged run file and the test process's exit status.
    static func measure(filter: String, iterations: Int?) throws -> (RunFile, Int32) {
        let packageDirectory = "."
        let revision = try Worktrees.prepare(".")
        let bundle = try Worktrees.build(revision)
        Output.progress("perfkit run: measuring tests matching '\(filter)' serially in release…")
        let (tests, status) = try MeasuredProcess.run(
            bundle: bundle, in: packageDirectory, filter: filter, iterations: iterations, environment: [:], forwardOutput: true)
        let environmentRecord = EnvironmentReader.current(buildConfiguration: "release", directory: packageDirectory)
        return (RunFile(date: Date(), mode: "measure", environment: environmentRecord, tests: tests), status)
    }
}
