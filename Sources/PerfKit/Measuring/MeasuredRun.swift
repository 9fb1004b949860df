import Foundation
import PerfKitCore

/// A `perfkit run`: the measured tests of one build, in several fresh processes, merged into one run file.
///
/// A `perfkit run`: the measured tests of one build, in several fresh processes that split the
/// rounds between them, merged into one run file with every value labelled by its process.
package enum MeasuredRun {
    /// The default test-ID filter: measured tests live in suites whose names end in `Benchmarks`.
    package static let defaultFilter = "Benchmarks/"

    /// Fresh processes per run by default.
    ///
    /// Each runs its share of the rounds (30 rounds: 4 a process), so a stored comparison sees 8 per-process medians a
    /// side: Mann–Whitney can then reach p = 0.0002, enough to survive Benjamini–Hochberg across a suite's decisions,
    /// and drift between processes is inside the noise estimate. Measured cost on the calendar suite is in README
    /// ("Baselines and comparison").
    package static let defaultProcesses = 8

    /// The environment of process `index` of `processes`: how the measured tests split their rounds
    /// and which process takes the exact-count pass (the first).
    /// - Parameters:
    ///   - index: The process, from 0.
    ///   - processes: How many.
    /// - Returns: Variables for the process (none for a single process).
    package static func environment(process index: Int, of processes: Int) -> [String: String] {
        processes > 1
            ? [
                MeasuredProcessEnvironment.processes: String(processes),
                MeasuredProcessEnvironment.processIndex: String(index),
            ] : [:]
    }

    /// Measures `bundle`'s tests matching `filter`, serially, in `processes` fresh processes.
    /// - Parameters:
    ///   - bundle: The release test bundle.
    ///   - directory: The package directory.
    ///   - filter: Test filter.
    ///   - samples: Total samples forced on every measured test, if any; each process takes its share
    ///     (``RunConfiguration/share(of:processes:)``, in the process).
    ///   - processes: Fresh processes.
    ///   - launcher: Launches them.
    ///   - progress: Receives one line per process.
    /// - Returns: The merged results and the worst exit status (1 when a test failed in some process).
    /// - Throws: ``OrchestrationError`` when a process fails or matches no test.
    package static func measure(
        bundle: String, directory: String = ".", filter: String, samples: Int?, processes: Int,
        launcher: some MeasuredProcessLauncher,
        progress: (String) -> Void = { _ in }
    ) throws -> (tests: [TestResult], status: Int32) {
        var results: [[TestResult]] = []
        var status: Int32 = 0
        for process in 0..<processes {
            progress(
                "perfkit run: measuring tests matching '\(filter)' in release, process \(process + 1) of \(processes)…")
            // The first process finds how many tests match; the others say how many of them are done.
            ProgressBoard.shared.startStage(total: results.first?.count, of: .tests)
            let outcome: MeasuredProcessOutcome
            do {
                var request = MeasuredProcessRequest(
                    bundle: bundle, directory: directory, filter: filter, samples: samples,
                    environment: environment(process: process, of: processes), forwardOutput: process == 0)
                (request.process, request.processes) = (process + 1, processes)
                outcome = try launcher.measure(request)
            } catch var early as MeasuredProcessEndedEarly {
                // What finished in this and the earlier processes stands.
                results.append(early.finished)
                early.finished = results.count > 1 ? [TestResult].merging(processes: results) : results[0]
                throw early
            }
            results.append(outcome.tests)
            status = max(status, outcome.status)
        }
        return (processes > 1 ? [TestResult].merging(processes: results) : results[0], status)
    }

    /// What a run measures: timing (native processes), simulated counts (a counting run), or both.
    package struct Runs: Sendable, Equatable {
        /// Native processes: time, CPU, exact allocation counts, memory, subject counters.
        package var timing: Bool
        /// A counting run: simulated instructions per call (``CountingRun/summary``).
        package var counts: Bool
        /// Timing only (the default).
        package static let timing = Runs(timing: true, counts: false)
        /// Timing, then counts.
        package static let timingAndCounts = Runs(timing: true, counts: true)
        /// Counts only.
        package static let counts = Runs(timing: false, counts: true)
    }

    /// The timing run's processes; a process that ended inside a test leaves what finished and the error for the caller
    /// to write and report.
    static func timing(
        bundle: String, filter: String, samples: Int?, processes: Int, progress: (String) -> Void
    ) throws -> (tests: [TestResult], status: Int32, endedEarly: MeasuredProcessEndedEarly?) {
        do {
            let (tests, status) = try measure(
                bundle: bundle, filter: filter, samples: samples, processes: processes,
                launcher: TestBundleLauncher(), progress: progress)
            return (tests, status, nil)
        } catch let early as MeasuredProcessEndedEarly {
            return (early.finished, 0, early)
        }
    }

    /// Builds the package in the current directory in release and measures its tests matching `filter`.
    ///
    /// In `processes` fresh processes (``measure(bundle:directory:filter:samples:processes:launcher:progress:)``),
    /// then, when asked, under callgrind for simulated counts (``CountingRun``).
    /// - Parameters:
    ///   - requested: The test filter.
    ///   - samples: Samples forced on the timing run and the counting run, if any (``ForcedSamples``).
    ///   - processes: Fresh processes.
    ///   - runs: The timing run, the counting run or both.
    ///   - shard: Measure only this part of the matching tests (``Shard``); nil for all of them.
    ///   - traitFlags: SwiftPM's trait flags for the release build (empty: the package's defaults).
    ///   - buildSystem: The build system (nil: SwiftPM's default).
    ///   - progress: Receives one line per step and process.
    /// - Returns: The run file (every value labelled with its process), the worst exit status, the
    ///   folder of raw callgrind dumps when counts were taken, and the failure after which the run holds what finished
    ///   (a measured process that crashed, exited or was stopped inside a test, ``MeasuredProcessEndedEarly``; or
    ///   counts asked for after timing that failed), for the caller to write before it reports the failure.
    /// - Throws: ``OrchestrationError`` when the build or a process fails, or nothing matched.
    package static func measurePackage(
        filter requested: String, samples: ForcedSamples = .none, processes: Int, runs: Runs = .timing,
        shard: Shard? = nil, traitFlags: [String] = [], buildSystem: BuildSystem? = nil,
        progress: (String) -> Void = { _ in }
    ) throws -> (run: RunFile, status: Int32, dumps: String?, countingFailure: (any Error & Sendable)?) {
        // A filter that is not a regular expression is bad input, told before anything is built.
        guard (try? NSRegularExpression(pattern: requested)) != nil else {
            throw OrchestrationError.badFilter(requested)
        }
        // valgrind and the shim are checked before anything is built: a missing or silent valgrind costs nothing.
        let setup = runs.counts ? try CountingRun.prepare(directory: ".", progress: progress) : nil
        var revision = try Revision.prepare(".", progress: progress)
        revision.traitFlags = traitFlags
        revision.buildSystem = buildSystem
        let bundle = try revision.build(progress: progress)
        var (filter, planned): (String, [String]?) = (requested, nil)
        if let shard {
            let ids = shard.select(try CountingRun.testIDs(bundle: bundle, directory: ".", matching: requested))
            guard !ids.isEmpty else {
                throw OrchestrationError.cannotDo("no measured test matched '\(requested)' in shard \(shard)")
            }
            progress("perfkit run: shard \(shard): \(ids.count) of the tests matching '\(requested)'")
            filter = Shard.filter(matching: ids)
            planned = ids
        }
        var (tests, status, endedEarly) =
            runs.timing
            ? try timing(
                bundle: bundle, filter: filter, samples: samples.timing, processes: processes, progress: progress)
            : ([], 0, nil)
        var environment = EnvironmentReader.current(buildConfiguration: "release", directory: ".")
        environment.testableBuild = revision.testableBuild
        environment.traits = Revision.recordedTraits(traitFlags)
        var dumps: String?
        var countingFailure: (any Error & Sendable)? = endedEarly
        if let setup, endedEarly == nil {
            do {
                var request = CountingRun.Request(
                    bundle: bundle, directory: ".", filter: filter, countSamples: samples.counting, setup: setup)
                // The costliest first: as this run's timing says, else as the last run counted (none: any order).
                request.costs = runs.timing ? tests : ((try? RunFile.read(from: RunFile.latestPath))?.tests ?? [])
                let counted = try CountingRun.measure(request, progress: progress)
                tests = runs.timing ? tests.addingCounts(counted.tests) : counted.tests
                status = max(status, counted.status)
                dumps = counted.dumps
                CountingRun.stamp(&environment, setup: setup, tests: counted.tests)
            } catch let error as OrchestrationError where runs.timing {
                countingFailure = error
            }
        }
        var run = RunFile(
            date: Date(), mode: runs.timing ? "measure" : "count", environment: environment, tests: tests)
        if !runs.timing { run.countsOnly = true }
        if let shard {
            run.shard = shard.description
            run.filter = filter
            run.plannedTests = planned
        }
        return (run, status, dumps, countingFailure)
    }
}
