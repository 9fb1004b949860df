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
        let (run, status) = try measure(filter: parsed.options["filter"] ?? defaultFilter, iterations: iterations, packageDirectory: ".")
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

    /// Builds and runs the measured tests of the package in `packageDirectory`.
    /// - Returns: The merged run file and the test process's exit status.
    static func measure(filter: String, iterations: Int?, packageDirectory: String, extraEnvironment: [String: String] = [:]) throws -> (RunFile, Int32) {
        Output.progress("perfkit run: building tests in release (swift build -c release --build-tests)…")
        let build = try Subprocess.run(["swift", "build", "-c", "release", "--build-tests"], in: packageDirectory, forwardOutputToStderr: true)
        guard build == 0 else { throw UsageError("release build failed in \(packageDirectory) (exit \(build))") }
        let resultsDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("perfkit-results-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: resultsDirectory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: resultsDirectory) }
        var environment = ["PERFKIT_MODE": "measure", "PERFKIT_RESULTS_DIR": resultsDirectory]
        if let iterations { environment["PERFKIT_ITERATIONS"] = String(iterations) }
        environment.merge(extraEnvironment) { _, new in new }
        Output.progress("perfkit run: measuring tests matching '\(filter)' serially (swift test -c release --no-parallel)…")
        let status = try Subprocess.run(
            ["swift", "test", "-c", "release", "--skip-build", "--no-parallel", "--filter", filter],
            in: packageDirectory, environment: environment, forwardOutputToStderr: true)
        let tests = try ResultFragments.readAll(from: resultsDirectory)
        guard !tests.isEmpty else { throw UsageError("no measured test matched '\(filter)' (swift test exit \(status))") }
        let swiftVersion = Shell.output(["swift", "--version"], in: packageDirectory)?.split(separator: "\n").first.map(String.init)
        let environmentRecord = EnvironmentReader.current(buildConfiguration: "release", directory: packageDirectory, swiftVersion: swiftVersion)
        return (RunFile(date: Date(), mode: "measure", environment: environmentRecord, tests: tests), status)
    }
}

/// Runs child processes for the command line.
enum Subprocess {
    /// Runs a command, optionally sending its output to standard error, and returns its exit status.
    static func run(_ arguments: [String], in directory: String, environment: [String: String] = [:], forwardOutputToStderr: Bool = false, capture: ((Data) -> Void)? = nil) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let pipe = Pipe()
        if let capture {
            process.standardOutput = pipe
            process.standardError = forwardOutputToStderr ? FileHandle.standardError : FileHandle.nullDevice
            try process.run()
            capture(pipe.fileHandleForReading.readDataToEndOfFile())
        } else {
            process.standardOutput = forwardOutputToStderr ? FileHandle.standardError : FileHandle.nullDevice
            process.standardError = forwardOutputToStderr ? FileHandle.standardError : FileHandle.nullDevice
            try process.run()
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
