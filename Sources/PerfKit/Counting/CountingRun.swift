import Foundation
import PerfKitCore

/// The counting run: each measured test again under valgrind's callgrind, in processes of its own.
///
/// The counting run: each measured test again under valgrind's callgrind, in ``processesPerTest``
/// processes of its own, the test on a measured thread whose heap repeats (``PinnedHeap``), where
/// each sample's simulated instruction count covers the measured body alone (``SimulatedCounter``).
/// ``summary`` says so in words, for help texts and reports, from these constants.
///
/// The process is made as repeatable as a process can be: ASLR off (`setarch -R`), Swift's
/// hashing deterministic (`SWIFT_DETERMINISTIC_HASHING=1`), an environment of fixed variables
/// only, and every path it is given (the bundle, the preloaded shim, the results and dump folders)
/// of one fixed length under one temporary folder. The working directory is the package's, so its
/// length is the checkout's (a limit: code that reads it may count differently in another folder).
package enum CountingRun {
    /// valgrind's facts for the environment record, and the shim to preload.
    package struct Setup: Sendable, Equatable {
        /// `valgrind --version`.
        package var version: String
        /// valgrind's "Arch and hwcaps" line for this CPU.
        package var cpu: String
        /// The built `libPerfKitValgrindShim.so`.
        package var shim: String
        /// The valgrind executable, resolved through `PATH` once (the counting process runs with a fixed `PATH`).
        package var valgrind: String
        /// A setup (``prepare(directory:progress:)`` makes the real one).
        package init(version: String, cpu: String, shim: String, valgrind: String = "/usr/bin/valgrind") {
            self.version = version
            self.cpu = cpu
            self.shim = shim
            self.valgrind = valgrind
        }
    }

    /// Where the shim is built.
    ///
    /// A build folder of its own, so building it leaves the release build of the tests as it was (a product build in
    /// the tests' folder changed their build plan, and the next timing run rebuilt everything).
    package static let shimScratch = ".perfkit/shim-build"

    /// How long `valgrind --version` may take before valgrind is called silent: 10 s.
    package static let valgrindAnswerLimit = 10.0

    /// Checks valgrind and builds the sigsuspend shim (``Setup/shim``) in ``shimScratch``.
    /// - Parameters:
    ///   - directory: The package directory.
    ///   - progress: Receives one line per step.
    /// - Returns: The setup.
    /// - Throws: ``OrchestrationError/countingUnavailable(_:)`` with one line saying what is missing.

    package static func prepare(directory: String, progress: (String) -> Void = { _ in }) throws
        -> Setup
    {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard
            let valgrind = searchPath.split(separator: ":").map({ "\($0)/valgrind" }).first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw OrchestrationError.countingUnavailable(
                "valgrind is not installed (apt-get install valgrind); counting runs need it")
        }
        // With a time limit: a valgrind that never answers must not hang the run.
        let answer = try ChildProcess.runKeepingErrors([valgrind, "--version"], timeLimit: valgrindAnswerLimit)
        let version = String(decoding: answer.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !answer.timedOut else {
            throw OrchestrationError.countingUnavailable(
                "\(valgrind) did not answer `--version` in \(Format.trim(valgrindAnswerLimit)) s; counting runs need a "
                    + "working valgrind")
        }
        guard answer.status == 0, version.hasPrefix("valgrind") else {
            throw OrchestrationError.countingUnavailable(
                "\(valgrind) --version failed (\(answer.ending))"
                    + (answer.errors.isEmpty ? "" : ": \(ChildProcess.lastWords(answer.errors, lines: 1))")
                    + "; counting runs need a working valgrind")
        }
        guard FileManager.default.fileExists(atPath: directory + "/Package.swift") else {
            throw OrchestrationError.notAPackage(folder: directory)
        }
        progress("perfkit: building PerfKitValgrindShim (a sigsuspend valgrind can run Swift Testing with)…")
        // From a fresh plan, as the release build is (``Revision/build(pinnedLayout:sharedScratch:progress:)``): after
        // PerfKit itself changed, a kept plan compiled the new shim with the old targets' header paths ("file not
        // found" in an adopter's package).
        BuildLog.removePlan(scratch: directory + "/" + shimScratch)
        let built = try ChildProcess.runKeepingErrors(
            ["swift", "build", "-c", "release", "--product", "PerfKitValgrindShim", "--scratch-path", shimScratch],
            in: directory, environment: Revision.buildEnvironment,
            output: .standardErrorAndCapture, showErrors: true)
        let status = built.status
        let shim = directory + "/" + shimScratch + "/release/libPerfKitValgrindShim.so"
        // The package must depend on PerfKit only when SwiftPM says it has no such product; any other failure (a
        // full disk, a compiler error) is quoted as the build said it.
        let firstError = BuildLog.firstError(built)
        guard status == 0 || BuildLog.isUnknownProduct(built) else {
            throw OrchestrationError.countingUnavailable(
                "cannot build the product PerfKitValgrindShim in \(directory) (\(built.ending))"
                    + (firstError.isEmpty ? "" : ": \(firstError)"))
        }
        guard status == 0, FileManager.default.fileExists(atPath: shim) else {
            throw OrchestrationError.countingUnavailable(
                "cannot build the product PerfKitValgrindShim in \(directory) (\(built.ending)); the package must "
                    + "depend on PerfKit"
            )
        }
        let probe = try ChildProcess.run(
            ["timeout", "-s", "KILL", "60", valgrind, "-v", "--tool=none", "--log-fd=1", "/bin/true"], output: .capture)
        let cpu =
            String(decoding: probe.output, as: UTF8.self).split(separator: "\n")
            .first { $0.contains("Arch and hwcaps:") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) }
            ?? "unknown"
        return Setup(version: version, cpu: cpu, shim: shim, valgrind: valgrind)
    }

    /// How a test's second process is placed here: the bundle elsewhere when a dynamic loader can start it.
    static let checkPlacement: CountingSetup.CheckPlacement =
        CountingProcess.loader == nil ? .heapShifted : .bundleElsewhere

    /// The setup of a counting run whose heap is pinned, as this machine counts; counts of another setup are not
    /// compared with its counts.
    package static var pinnedSetup: CountingSetup { .pinned(checks: checkPlacement) }

    /// The setup of a counting run whose measured thread's heap could not be pinned.
    package static var unpinnedSetup: CountingSetup { .unpinned(checks: checkPlacement) }

    /// The setup `tests` were counted with.
    ///
    /// ``unpinnedSetup`` when a series says its heap was not pinned (``SampleSeries/heapUnpinned``), else
    /// ``pinnedSetup``.
    package static func setup(of tests: [TestResult]) -> CountingSetup {
        let unpinned = tests.contains { test in
            test.measurements.contains { $0.series.contains { $0.heapUnpinned != nil } }
        }
        var setup = unpinned ? unpinnedSetup : pinnedSetup
        // As run: `--count-samples N` sets another number than the default.
        var perProcess: [Int: Int] = [:]
        for series in tests.flatMap(\.measurements).flatMap(\.series) where series.metric.isSimulated {
            let labels = series.processes ?? Array(repeating: 0, count: series.values.count)
            let counts = Dictionary(grouping: labels, by: { $0 }).mapValues(\.count)
            for count in counts.values { perProcess[count, default: 0] += 1 }
        }
        if let common = perProcess.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key {
            setup.samplesPerArmAndPhase = common
        }
        return setup
    }

    /// Records in `environment` what a counting run of `tests` was taken with: valgrind, its CPU and the setup.
    ///
    /// The one place a run file's counting fields are written (``MeasuredRun`` and `abba --counts` call it).
    /// - Parameters:
    ///   - environment: The run's environment.
    ///   - setup: The checked valgrind and shim.
    ///   - tests: The counted tests.
    package static func stamp(_ environment: inout Environment, setup: Setup, tests: [TestResult]) {
        environment.valgrind = setup.version
        environment.valgrindCPU = setup.cpu
        environment.countingSetup = Self.setup(of: tests)
    }

    /// The Swift runtime's hash-table probes a count leaves out (callgrind's `--toggle-collect`: collection is off from
    /// a call's entry to its return).
    ///
    /// The finds of its generic metadata, conformance and tuple caches. Their cost follows where the harness's entries
    /// sit in those process-wide tables (keyed by metadata addresses the harness's threads allocated), not the measured
    /// code: two counting runs of one calendar binary differed in 16 of 30 series, by up to 371 instructions a call in
    /// the layouts and 216,000 in the view switch's casts, almost all in these finds; with them left out, 10 series
    /// differ, 9 of them by at most 0.013% (Evidence.md). What a lookup does besides probing
    /// (instantiating metadata, scanning conformance records on a miss) stays counted. The generic metadata cache's
    /// `getOrInsert`, which calls one of these finds, is subtracted instead (``DumpCount``).
    package static let uncountedRuntimeProbes = ["*ConcurrentReadableHashMap*find<*"]

    /// Counting processes run at once by default.
    ///
    /// One per core (valgrind runs a process's threads one at a time, so each process keeps one core busy; counts do
    /// not depend on the load).
    package static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Runs each of the bundle's tests matching the request's filter under callgrind, in processes of its own.
    ///
    /// Runs each test in ``processesPerTest`` processes of its own (one per heap shift of the request), its `jobs`
    /// processes at a time, and reads their counts.
    /// - Parameters:
    ///   - request: What to count and how.
    ///   - progress: Receives one line when it starts, and one naming series whose bodies start threads.
    /// - Returns: The tests, each series of simulated instructions with its dump numbers and
    ///   profile, and the folder holding the raw dumps (`callgrind.out.N`), for the caller to keep
    ///   beside the run file.
    /// - Throws: ``OrchestrationError`` when valgrind fails or nothing was measured.
    package static func measure(_ request: Request, progress: (String) -> Void = { _ in }) throws -> (
        tests: [TestResult], dumps: String, status: Int32
    ) {
        let started = try start(request, progress: progress)
        // Every test gets its check or placement trial, unless the heap shifts are a test's own.
        let following = request.followsUpEveryTest ? Set(started.processes.map(\.id)) : []
        return try finish(started, followingUp: following, progress: progress)
    }

    /// What a counting run prepares before its first process.
    ///
    /// For `measure` and `start`: the run's folder (registered for removal on interrupt), the countable bundle
    /// and the shim in it, the fixed environment, and one process per test and heap shift, the costliest first.
    static func stage(_ request: Request, progress: (String) -> Void) throws -> (
        root: String, processes: [CountingProcess], width: Int, environment: [String: String]
    ) {
        let (bundle, directory, filter, pads) = (request.bundle, request.directory, request.filter, request.heapPads)
        // One folder of a fixed path length for everything the process is handed (CountingFolder).
        let processEnvironment = ProcessInfo.processInfo.environment
        CountingFolder.sweepDead(environment: processEnvironment)
        let (root, note) = CountingFolder.newPath(environment: processEnvironment)
        if let note { progress("perfkit run: " + note) }
        try CountingFolder.make(root)
        ChildRegistry.created(folder: root)
        do {
            let absoluteBundle =
                bundle.hasPrefix("/") ? bundle : FileManager.default.currentDirectoryPath + "/" + bundle
            try countableCopy(of: absoluteBundle, at: root + "/bundle", progress: progress)
            try FileManager.default.copyItem(atPath: request.setup.shim, toPath: root + "/shim.so")
            let environment = countingEnvironment(
                root: root, countSamples: request.countSamples, extra: request.environment)
            // One valgrind process per test, as Gungraun runs one per benchmark: what earlier tests left
            // in the process moves a later test's pointer-keyed work.
            let ids = try testIDs(bundle: root + "/bundle", directory: directory, matching: filter)
            // The measured thread's heap repeats (``PinnedHeap``), so one process a test is enough; a
            // test (CountingRunTests) passes heap shifts to show that the counts do not move with them.
            let processes = longestFirst(
                ids.enumerated().flatMap { index, id in
                    pads.map {
                        CountingProcess(
                            test: index, id: id, pad: $0, folder: root + CountingProcess.folderName(index, $0),
                            placement: request.loadingElsewhere ? 1 : 0)
                    }
                }, costs: request.costs)
            let width = max(1, min(request.jobs, processes.count))
            progress(
                "perfkit run: counting instructions of \(ids.count) tests matching '\(filter)' under callgrind, "
                    + "\(pads.count == 1 ? "one process" : "\(pads.count) processes") each, \(width) at a time (about "
                    + "50× slower than native)…"
            )
            return (root, processes, width, environment)
        } catch {
            cleanUp(root, keepingDumps: false)
            throw error
        }
    }

    /// Removes the run's folder `root`, all but its gathered dumps when `keepingDumps`.
    ///
    /// The caller copies the kept dumps beside the run file; the folder is forgotten for the interrupt handler.
    static func cleanUp(_ root: String, keepingDumps: Bool) {
        ChildRegistry.removed(folder: root)
        for item in FileManager.default.names(in: root) where item != "dumps" {
            FileManager.default.removeLitter(atPath: root + "/" + item)
        }
        if !keepingDumps { FileManager.default.removeLitter(atPath: root) }
    }

    /// The processes' results joined per test, their dumps gathered into `root/dumps`.
    ///
    /// ``gather(_:_:dumps:)`` gathers them, with a progress line naming any series whose bodies start threads.
    /// - Throws: ``OrchestrationError/noMeasuredTests(filter:directory:status:)`` when no process measured a test.
    static func gathered(
        _ processes: [CountingProcess], _ outcomes: [CountingProcess.Outcome], root: String, filter: String,
        directory: String, progress: (String) -> Void
    ) throws -> (tests: [TestResult], dumps: String, status: Int32) {
        let dumps = root + "/dumps"
        let (tests, worst) = gather(processes, outcomes, dumps: dumps)
        guard !tests.isEmpty else {
            throw OrchestrationError.noMeasuredTests(filter: filter, directory: directory, status: worst)
        }
        let threaded = threadedSeries(tests)
        if !threaded.isEmpty {
            progress(
                "perfkit run: \(threaded.count) count series have bodies that start threads (their instructions are in "
                    + "the count, in an order valgrind picks, which can vary): "
                    + "\(threaded.prefix(3).joined(separator: ", "))\(threaded.count > 3 ? ", …" : "")"
            )
        }
        return (tests, dumps, worst)
    }

    /// The heap shifts of the counting processes of a test: one process, the heap as it is.
    ///
    /// The measured thread's heap repeats whatever the rest of the process allocated (``PinnedHeap``), so shifting the
    /// harness's heap (``SimulatedCounter/padHeap(_:)``) no longer moves a count; it was how three processes a test
    /// found address-sensitive series before.
    package static let heapPads = [0]

    /// Counting processes per test: one per heap shift.
    package static var processesPerTest: Int { heapPads.count }

    /// How a counting run counts, in one phrase made from the constants above (help and reports).
    package static var summary: String {
        let shifted = heapPads.filter { $0 > 0 }.count
        let processes = processesPerTest == 1 ? "one process" : "\(processesPerTest) processes"
        return "each test counted under callgrind in \(processes)"
            + ", \(SimulatedCounter.samplesPerArmAndPhase) samples per arm and phase"
            + (shifted > 0 ? " (the heap shifted in \(shifted) of them)" : "")
            + (uncountedRuntimeProbes.isEmpty ? "" : " (the runtime's cache probes left out)")
            + ", once more with the harness's heap shifted and the bundle loaded at another address when it spends "
            + "over "
            + "\(Format.trim(runtimeLookupThreshold * 100))% of a sample in the Swift runtime's shared lookups"
            + (CountingProcess.loader == nil
                ? ""
                : ", else its first samples counted once more with the bundle loaded at another address (a placement "
                    + "trial); a test whose counts "
                    + "moved there at all is counted at \(placementsPerMovingTest) placements of "
                    + "the bundle, the same in every run, and compared placement by placement")
    }
}
