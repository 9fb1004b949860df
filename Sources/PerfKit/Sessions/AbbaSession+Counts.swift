import Foundation
import PerfKitCore

extension AbbaSession {
    /// One side of a counted comparison: its tests and recorded environment, and where its counting run is kept.
    package struct CountedSide: Sendable {
        /// The side's tests, every count series with its samples, profile and dump numbers.
        package var tests: [TestResult]
        /// The side's environment, with its counting setup.
        package var environment: Environment
        /// The run file kept for it (``countedRunFile(_:)``).
        package var runFile: String
        /// The folder its callgrind files were kept in beside the run file, nil when none were.
        package var dumps: String?
    }

    /// Where `abba --counts` keeps side `name`'s counting run (`A` or `B`), its callgrind files beside it.
    package static func countedRunFile(_ name: String) -> String { ".perfkit/runs/abba-\(name).json" }

    /// Counts both built sides.
    ///
    /// Each side's first processes, B's costliest tests first as A counted them; then the follow-ups of the tests
    /// whose first processes differ (``CountingRun/pairedSummary``). Each side's run file is kept with its callgrind
    /// files beside it (``countedRunFile(_:)``): a series that moved between two sides is traced with the run files
    /// (`counts-diffdumps.py`), not only its quartiles.
    /// - Parameters:
    ///   - built: Sides A and B, built.
    ///   - filter: The tests to count.
    ///   - countSamples: Samples per arm and phase in each counting process, if forced.
    ///   - progress: Receives one line per step.
    /// - Returns: Side A's and side B's counts.
    /// - Throws: ``OrchestrationError`` when valgrind fails or nothing was counted; ``FileError`` when a run file
    ///   cannot be kept.
    package static func count(
        _ built: (a: Side, b: Side), filter: String, countSamples: Int?, progress: (String) -> Void = { _ in }
    ) throws -> (a: CountedSide, b: CountedSide) {
        // The shim does not depend on the measured code: built once, from the working tree.
        let setup = try CountingRun.prepare(directory: ".", progress: progress)
        let machine = EnvironmentReader.machine()
        func request(_ side: Side, costs: [TestResult]) -> CountingRun.Request {
            var request = CountingRun.Request(
                bundle: side.bundle, directory: side.revision.directory, filter: filter, countSamples: countSamples,
                setup: setup)
            // No native run stands beside a side's counts: its counting processes take the allocation counts too.
            request.environment = side.environment.merging(
                [MeasuredProcessEnvironment.countAllocations: "1"], uniquingKeysWith: { _, new in new })
            request.costs = costs
            return request
        }
        // A's costliest first as the working tree's last run found them (no such run: in any order).
        let lastRun = try? RunFile.read(from: RunFile.latestPath)
        let startedA = try CountingRun.start(request(built.a, costs: lastRun?.tests ?? []), progress: progress)
        defer { startedA.discard() }
        let startedB = try CountingRun.start(request(built.b, costs: startedA.tests), progress: progress)
        defer { startedB.discard() }
        let following = CountingRun.testsToFollowUp(startedA, startedB)
        let total = Set(startedA.tests.map(\.functionID)).union(startedB.tests.map(\.functionID)).count
        progress(
            "perfkit abba: \(total - following.count) of \(total) tests counted the same instructions on both sides in "
                + "every sample (unchanged exactly, no further process)"
                + (following.isEmpty
                    ? "" : "; the other \(following.count) get their checks and placements on both sides"))
        var sides: [CountedSide] = []
        for (name, side, started) in [("A", built.a, startedA), ("B", built.b, startedB)] {
            let counted = try CountingRun.finish(started, followingUp: following, progress: progress)
            var recorded = side.revision.environment(machine: machine)
            CountingRun.stamp(&recorded, setup: setup, tests: counted.tests)
            var run = RunFile(date: Date(), mode: "count", environment: recorded, tests: counted.tests)
            run.countsOnly = true
            let kept = countedRunFile(name)
            try FileManager.default.createDirectory(atPath: ".perfkit/runs", withIntermediateDirectories: true)
            try run.write(to: kept)
            let dumps = try CountingRun.keepDumps(counted.dumps, beside: kept)
            sides.append(CountedSide(tests: counted.tests, environment: recorded, runFile: kept, dumps: dumps))
        }
        progress(
            "perfkit abba: each side's counting run is kept in \(countedRunFile("A")) and \(countedRunFile("B")), with "
                + "its callgrind files beside it; the next abba --counts replaces them (copy them to keep them)")
        return (sides[0], sides[1])
    }
}
