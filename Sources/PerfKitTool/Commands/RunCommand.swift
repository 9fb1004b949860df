import Foundation
import PerfKit
import PerfKitCommandLine

/// `perfkit run`: builds the tests in release and runs the measured ones serially in measure mode,
/// then merges their results into one run file.
enum RunCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "run")
        try parsed.requirePositionals(0...0)
        let samples = ForcedSamples(timing: try parsed.integer(.samples), counting: try parsed.integer(.countSamples))
        let processes = try parsed.integer(.processes, default: MeasuredRun.defaultProcesses, range: 1...100)
        let output = parsed[.output] ?? RunFile.timestampedPath()
        let filter = parsed[.filter] ?? MeasuredRun.defaultFilter
        // A bad output path must cost nothing: checked before measuring, and the run is saved to
        // .perfkit/runs/ before it is written anywhere else.
        try OutputPath.validate(output)
        let countsOnly = parsed.has(.countsOnly)
        let runs: MeasuredRun.Runs = countsOnly ? .counts : parsed.has(.counts) ? .timingAndCounts : .timing
        try SampleOptions.check(samples, timing: runs.timing, counting: runs.counts, verb: "run")
        let shard = try parsed[.shard].map { text in
            guard let shard = Shard(parsing: text) else {
                throw UsageError("--shard must be I/N with 1 ≤ I ≤ N, not '\(text)'")
            }
            return shard
        }
        let (traitFlags, buildSystem) = try buildOptions(parsed)
        var (run, status, dumps, countingFailure) = try MeasuredRun.measurePackage(
            filter: filter, samples: samples, processes: processes, runs: runs, shard: shard, traitFlags: traitFlags,
            buildSystem: buildSystem, progress: Output.progress)
        if parsed[.filter] != nil, shard == nil { run.filter = filter }
        try run.write(to: RunFile.latestPath)
        do throws(FileError) { try run.write(to: output) } catch {
            // The measurement is not lost: say where it is.
            throw FileError(output, "\(error.problem); the measurement is kept in \(RunFile.latestPath)")
        }
        if let folder = try CountingRun.keepDumps(dumps, beside: output) {
            Output.line("callgrind files: \(folder)/callgrind.out.N (the series' dump numbers are in the run file)")
        }
        Output.line(RunSummary.text(run))
        if let arms = try ArmComparison.compare(run.tests) {
            Output.line("arms (each against the first declared arm of its measurement):")
            for line in ReportHeadline(arms, direction: "arm against first arm", limit: 20).plainLines {
                Output.line("  " + line)
            }
        }
        if parsed[.filter] == nil {
            Output.line(
                "measured \(run.tests.count) tests in suites matching '\(MeasuredRun.defaultFilter)'; a .performance() "
                    + "test in a suite whose name does not end in Benchmarks is not run: pass --filter REGEX to "
                    + "include it"
            )
        }
        Output.line("run file: \(output)")
        if let countingFailure { throw CountingFailedAfterTiming(written: output, cause: countingFailure) }
        let exit = ExitStatus.ofRun(worst: status)
        if exit != ExitStatus.fine {
            Output.progress(
                ExitStatus.closingLine(tool: "perfkit run", written: output, tests: run.tests, status: exit))
        }
        return exit
    }

    /// SwiftPM's trait flags (`--traits`, `--disable-default-traits`) and build system (`--build-system`), checked.
    static func buildOptions(_ parsed: Arguments) throws -> (traitFlags: [String], buildSystem: BuildSystem?) {
        var traitFlags: [String] = parsed.has(.disableDefaultTraits) ? ["--disable-default-traits"] : []
        if let traits = parsed[.traits] {
            guard traits.split(separator: ",").allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } })
            else { throw UsageError("--traits takes trait names separated by commas, not '\(traits)'") }
            traitFlags += ["--traits", traits]
        }
        return (traitFlags, try buildSystem(parsed))
    }

    /// `--build-system`, checked (run and abba).
    static func buildSystem(_ parsed: Arguments) throws -> BuildSystem? {
        try parsed[.buildSystem].map { name in
            guard let system = BuildSystem(rawValue: name) else {
                throw UsageError("--build-system takes native or swiftbuild, not '\(name)'")
            }
            return system
        }
    }
}
