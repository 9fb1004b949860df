import Foundation
import PerfKitCore

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

    /// Where the shim is built: a build folder of its own, so building it leaves the release build
    /// of the tests as it was (a product build in the tests' folder changed their build plan, and
    /// the next timing run rebuilt everything).
    package static let shimScratch = ".perfkit/shim-build"

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
            }),
            let version = ChildProcess.output([valgrind, "--version"]), version.hasPrefix("valgrind")
        else {
            throw OrchestrationError.countingUnavailable(
                "valgrind is not installed (apt-get install valgrind); counting runs need it")
        }
        progress("perfkit: building PerfKitValgrindShim (a sigsuspend valgrind can run Swift Testing with)…")
        let (status, _) = try ChildProcess.run(
            ["swift", "build", "-c", "release", "--product", "PerfKitValgrindShim", "--scratch-path", shimScratch],
            in: directory,
            output: .standardError, showErrors: true)
        let shim = directory + "/" + shimScratch + "/release/libPerfKitValgrindShim.so"
        guard status == 0, FileManager.default.fileExists(atPath: shim) else {
            throw OrchestrationError.countingUnavailable(
                "cannot build the product PerfKitValgrindShim in \(directory) (status \(status)); the package must "
                    + "depend on PerfKit"
            )
        }
        let probe = try ChildProcess.run([valgrind, "-v", "--tool=none", "--log-fd=1", "/bin/true"], output: .capture)
        let cpu =
            String(decoding: probe.output, as: UTF8.self).split(separator: "\n")
            .first { $0.contains("Arch and hwcaps:") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) }
            ?? "unknown"
        return Setup(version: version, cpu: cpu, shim: shim, valgrind: valgrind)
    }

    /// What a counting run's setup is, recorded in its run file's environment
    /// (``Environment/countingSetup``): counts taken with another setup are not compared with these.
    package static let setupIdentifier =
        "callgrind Ir, one process per test, \(SimulatedCounter.samplesPerArmAndPhase) samples per arm and phase, "
        + "the test on a measured thread over pinned jemalloc arenas (one per test case; other "
        + "threads' caches off, its stack at a fixed address, a runtime metadata page of its own from the test's "
        + "start), the runtime's cache probes uncounted (finds, and the metadata cache's getOrInsert), "
        + "Swift Testing's backtrace of each thrown error off, jemalloc decay off, symbols bound at start-up, ASLR "
        + "off, "
        + "deterministic hashing, \(checkPlacement)"

    /// The setup of a counting run whose measured thread's heap could not be pinned (built without
    /// the Jemalloc trait, say): heap-shifted second processes for every test, no pinned arena.
    package static let unpinnedSetupIdentifier =
        "callgrind Ir, one process per test and one with the heap shifted, "
        + "\(SimulatedCounter.samplesPerArmAndPhase) samples per arm and phase, the heap not pinned, the runtime's "
        + "cache probes uncounted (finds, and the metadata cache's getOrInsert), Swift Testing's backtrace of each "
        + "thrown error off, jemalloc decay off, symbols bound at start-up, ASLR off, deterministic hashing, "
        + checkPlacement

    /// Where a second (check) process puts the harness's heap and the bundle: both setups name it, and
    /// without a dynamic loader to start the bundle through (``CountingProcess/loader``) it says so.
    static let checkPlacement =
        CountingProcess.loader == nil
        ? "checks with the heap shifted (no dynamic loader to load the bundle elsewhere)"
        : "checks with the bundle loaded at another address"

    /// The setup `tests` were counted with: ``unpinnedSetupIdentifier`` when a series says its heap
    /// was not pinned (``SampleSeries/heapUnpinned``), else ``setupIdentifier``.
    package static func setupIdentifier(of tests: [TestResult]) -> String {
        let unpinned = tests.contains { test in
            test.measurements.contains { $0.series.contains { $0.heapUnpinned != nil } }
        }
        return unpinned ? unpinnedSetupIdentifier : setupIdentifier
    }

    /// The Swift runtime's hash-table probes a count leaves out (callgrind's `--toggle-collect`:
    /// collection is off from a call's entry to its return): the finds of its generic metadata,
    /// conformance and tuple caches. Their cost follows where the harness's entries sit in those
    /// process-wide tables (keyed by metadata addresses the harness's threads allocated), not the
    /// measured code: two counting runs of one calendar binary (2026-12-02) differed in 16 of 30
    /// series, by up to 371 instructions a call in the layouts and 216,000 in the view switch's casts,
    /// almost all in these finds; with them left out, 10 series differ, 9 of them by at most 0.013%
    /// (Evidence.md, third session). What a lookup does besides probing (instantiating metadata,
    /// scanning conformance records on a miss) stays counted. The generic metadata cache's
    /// `getOrInsert`, which calls one of these finds, is subtracted instead (``DumpCount``).
    package static let uncountedRuntimeProbes = ["*ConcurrentReadableHashMap*find<*"]

    /// Counting processes run at once by default: one per core (valgrind runs a process's threads
    /// one at a time, so each process keeps one core busy; counts do not depend on the load).
    package static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Runs each of the bundle's tests matching `filter` under callgrind, in ``processesPerTest``
    /// processes of its own (one per heap shift of `pads`), `jobs` processes at a time, and reads
    /// their counts.
    /// - Parameters:
    ///   - bundle: The release test bundle.
    ///   - directory: The package directory.
    ///   - filter: Test filter.
    ///   - samples: Samples per arm and phase, if forced (default ``SimulatedCounter/samplesPerArmAndPhase``).
    ///   - setup: From ``prepare(directory:progress:)``.
    ///   - extra: Variables added to the fixed environment (test-only, for example an injected change).
    ///   - jobs: Counting processes at once (``defaultJobs``).
    ///   - pads: The heap shifts, one process each (``heapPads``; tests pass more).
    ///   - loadingElsewhere: Whether every process loads the bundle through the dynamic loader
    ///     (``CountingProcess/loadsElsewhere``; tests count a body both ways).
    ///   - costs: Earlier results of these tests (a timing run's, the other side's counts), to start
    ///     the costliest first (``longestFirst(_:costs:)``); the counts do not depend on the order.
    ///   - progress: Receives one line when it starts, and one naming series whose bodies start threads.
    /// - Returns: The tests, each series of simulated instructions with its dump numbers and
    ///   profile, and the folder holding the raw dumps (`callgrind.out.N`), for the caller to keep
    ///   beside the run file.
    /// - Throws: ``OrchestrationError`` when valgrind fails or nothing was measured.
    package static func measure(
        bundle: String, directory: String, filter: String, samples: Int?, setup: Setup,
        environment extra: [String: String] = [:], jobs: Int = defaultJobs, heapPads pads: [Int] = heapPads,
        loadingElsewhere: Bool = false, costs: [TestResult] = [], progress: (String) -> Void = { _ in }
    ) throws -> (tests: [TestResult], dumps: String, status: Int32) {
        // One fixed-length folder for everything the process is handed: /tmp/perfkit-counts-<UUID>.
        let root = "/tmp/perfkit-counts-\(UUID().uuidString)"
        let dumps = root + "/dumps"
        try FileManager.default.createDirectory(atPath: dumps, withIntermediateDirectories: true)
        var keep = false
        ChildRegistry.created(folder: root)
        defer {
            ChildRegistry.removed(folder: root)
            for item in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] where item != "dumps" {
                try? FileManager.default.removeItem(atPath: root + "/" + item)
            }
            if !keep { try? FileManager.default.removeItem(atPath: root) }
        }
        let absoluteBundle = bundle.hasPrefix("/") ? bundle : FileManager.default.currentDirectoryPath + "/" + bundle
        try countableCopy(of: absoluteBundle, at: root + "/bundle", progress: progress)
        try FileManager.default.copyItem(atPath: setup.shim, toPath: root + "/shim.so")
        let environment = countingEnvironment(root: root, samples: samples, extra: extra)
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
                        placement: loadingElsewhere ? 1 : 0)
                }
            }, costs: costs)
        let width = max(1, min(jobs, processes.count))
        progress(
            "perfkit run: counting instructions of \(ids.count) tests matching '\(filter)' under callgrind, "
                + "\(pads.count == 1 ? "one process" : "\(pads.count) processes") each, \(width) at a time (about 50× "
                + "slower than native)…"
        )
        let (checks, outcomes) = try runWithChecks(
            processes, width: width, pads: pads, root: root, setup: setup, environment: environment,
            directory: directory, progress: progress)
        let (tests, worst) = gather(processes + checks, outcomes, dumps: dumps)
        guard !tests.isEmpty else {
            throw OrchestrationError.noMeasuredTests(filter: filter, directory: directory, status: worst)
        }
        keep = true
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

    /// Runs `processes` and, for a test whose bodies use the runtime's shared lookups or whose heap
    /// could not be pinned, one more with the harness's heap shifted and the bundle loaded at another address
    /// (``shiftCheck(of:_:root:)``), run
    /// as soon as the test's first process ends: what its series move then widens their tolerance,
    /// and the report says so. Every other test's single process stands.
    /// - Returns: The checks added and the outcomes of `processes` followed by theirs.
    static func runWithChecks(
        _ processes: [CountingProcess], width: Int, pads: [Int], root: String, setup: Setup,
        environment: [String: String], directory: String, progress: (String) -> Void
    ) throws -> (checks: [CountingProcess], outcomes: [CountingProcess.Outcome]) {
        let checking = pads == heapPads
        let (outcomes, checks) = try CountingProcess.runAll(
            processes, width: width, root: root, setup: setup, environment: environment, directory: directory,
            followUp: { checking ? followUps(of: $0, $1, first: $2, root: root) : [] })
        // A placement trial only decides whether a test is counted at more placements: its one sample is not joined.
        let joined = checks.filter { !$0.process.isTrial }
        let tests = Set(processes.map(\.test)).count
        let shiftChecks = outcomes.filter(\.needsShiftCheck).count
        if shiftChecks > 0 { progress(checkLine(outcomes, checks: shiftChecks, of: tests)) }
        if let line = placementLine(checks, of: tests) { progress(line) }
        return (joined.map(\.process), outcomes + joined.map(\.outcome))
    }

    /// `processes` with the costliest tests first, as earlier results (`costs`) say: a test's cost is
    /// what its samples counted (instructions) or, without counts, took (the wall clock), summed
    /// over its series (a parameterized test's cases together); a test they do not name goes first, the rest keep their
    /// order. On two cores a long test started last ends alone (the calendar suite's scroll, 26 s,
    /// started after 53 s, ended the run at 79 s).
    package static func longestFirst(_ processes: [CountingProcess], costs: [TestResult]) -> [CountingProcess] {
        guard !costs.isEmpty else { return processes }
        // Counted instructions when the results have them, else the wall clock: one unit for every test.
        let series = costs.flatMap(\.measurements).flatMap(\.series)
        let metric =
            series.contains { $0.metric.name == Metric.instructions.name } ? Metric.instructions : Metric.wallClock
        func cost(_ id: String) -> Double {
            let matching = costs.filter { ($0.testCase?.function ?? $0.id) == id }
            guard !matching.isEmpty else { return .infinity }
            return matching.flatMap(\.measurements).flatMap(\.series).filter { $0.metric.name == metric.name }
                .reduce(0) { $0 + $1.values.reduce(0, +) }
        }
        let known = Dictionary(uniqueKeysWithValues: Set(processes.map(\.id)).map { ($0, cost($0)) })
        return processes.enumerated().sorted { x, y in
            let (cx, cy) = (known[x.element.id] ?? 0, known[y.element.id] ?? 0)
            return cx != cy ? cx > cy : x.offset < y.offset
        }.map(\.element)
    }

    /// The progress line announcing the heap-shifted checks: why (the runtime's shared lookups, or
    /// a heap that could not be pinned, with the reason the process gave).
    static func checkLine(_ outcomes: [CountingProcess.Outcome], checks: Int, of tests: Int) -> String {
        let unpinned = outcomes.compactMap(\.heapUnpinned)
        let lookups = outcomes.filter { $0.needsShiftCheck && $0.heapUnpinned == nil }
        var reasons: [String] = []
        if let reason = unpinned.first {
            reasons.append(
                "\(unpinned.count) of \(tests) tests could not pin the measured thread's heap (\(reason)), so their "
                    + "addresses move between runs")
        }
        if !lookups.isEmpty {
            reasons.append("\(lookups.count) of \(tests) tests use the Swift runtime's shared lookups")
        }
        let placement = CountingProcess.loader == nil ? "" : " and the bundle loaded at another address"
        return "perfkit run: \(reasons.joined(separator: "; ")); counted \(checks == 1 ? "it" : "them") once more "
            + "with the harness's heap shifted" + placement
    }

    /// The counting processes' whole environment: fixed, so counts do not depend on the caller's.
    static func countingEnvironment(root: String, samples: Int?, extra: [String: String]) -> [String: String] {
        var environment = [
            "PATH": "/usr/bin:/bin", "HOME": "/tmp", "LC_ALL": "C", "SWIFT_DETERMINISTIC_HASHING": "1",
            // Every symbol bound at start-up: a lazily bound call would count the dynamic linker's
            // resolution in whichever sample first made it.
            "LD_BIND_NOW": "1",
            "LD_PRELOAD": root + "/shim.so",
            // jemalloc returns dirty pages on a timer (decay): under valgrind, 50× slower, whether a
            // purge falls inside a sample depends on the machine's load, and counts moved by up to
            // 0.6% between runs of one binary. Without decay the allocator's work is the same each run.
            // The thread cache off for every thread but the measured one (``PinnedHeap``), so a block
            // of the pinned heap freed elsewhere goes back to it at once, never at a flush's moment.
            "MALLOC_CONF": "dirty_decay_ms:-1,muzzy_decay_ms:-1,tcache:false",
            MeasuredProcessEnvironment.mode: MeasuredProcessEnvironment.measureMode,
        ]
        if let samples { environment[MeasuredProcessEnvironment.samples] = String(samples) }
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// The processes' tests in the processes' order, whatever order they finished in (dump numbers
    /// and results do not depend on the number of jobs), each test's processes joined, their dumps
    /// moved into `dumps` and renumbered; and the worst exit status.
    static func gather(_ processes: [CountingProcess], _ outcomes: [CountingProcess.Outcome], dumps: String)
        -> (tests: [TestResult], worst: Int32)
    {
        var tests: [TestResult] = []
        var worst: Int32 = 0
        var offset = 0
        // Each test's processes together, in test order, the first process first.
        let order = processes.indices.sorted { (processes[$0].test, $0) < (processes[$1].test, $1) }
        var byTest: [[TestResult]] = []
        for (position, k) in order.enumerated() {
            let (process, outcome) = (processes[k], outcomes[k])
            worst = max(worst, outcome.status)
            var counted = outcome.tests
            let highest = offsetDumps(&counted, by: offset)
            for n in 1...max(1, highest) {
                try? FileManager.default.moveItem(
                    atPath: "\(process.folder)/callgrind.out.\(n)", toPath: "\(dumps)/callgrind.out.\(n + offset)")
            }
            offset += highest
            byTest.append(counted)
            if position + 1 == order.count || processes[order[position + 1]].test != process.test {
                tests += Self.joined(byTest)
                byTest = []
            }
        }
        return (tests, worst)
    }

    /// The harness's heap shift of a second process (``shiftCheck(of:_:root:)``).
    package static let checkPad = 11

    /// The share of a sample spent in the runtime's shared lookups from which a test gets a second,
    /// heap-shifted process: 1%. In two counting runs of one calendar binary (2026-12-02) the series
    /// above it moved (the journal append 7.9% there, the view switch 27%, the playback redraw 19%,
    /// the varied layout 2.4%) and those below it repeated exactly or within 0.0004% (the artwork
    /// cache, 0.15–0.21%; the history layouts, 0.29–0.81%, identical).
    package static let runtimeLookupThreshold = 0.01

    /// The second process, the harness's heap shifted by ``checkPad`` and the bundle loaded at another
    /// address (``CountingProcess/loadsElsewhere``), of a test whose first process
    /// spent more than ``runtimeLookupThreshold`` of a sample in the runtime's shared lookups, or
    /// could not pin the measured thread's heap (``SampleSeries/heapUnpinned``); nil for any other.
    static func shiftCheck(of process: CountingProcess, _ outcome: CountingProcess.Outcome, root: String)
        -> CountingProcess?
    {
        guard outcome.needsShiftCheck else { return nil }
        return CountingProcess(
            test: process.test, id: process.id, pad: checkPad,
            folder: root + CountingProcess.folderName(process.test, checkPad), placement: 1)
    }

    /// The series whose bodies started threads, named for a progress line.
    static func threadedSeries(_ tests: [TestResult]) -> [String] {
        tests.flatMap { test in
            test.measurements.flatMap { m in
                m.series.filter { ($0.threadsStarted?.max() ?? 0) > 0 }.map {
                    "\(test.id) \(m.name) [\($0.phase.identifier)]"
                }
            }
        }
    }

    /// The bundle's test IDs that `filter` matches (Swift Testing's `--list-tests`, matched here
    /// because listing ignores `--filter`).
    static func testIDs(bundle: String, directory: String, matching filter: String) throws -> [String] {
        let (status, output) = try ChildProcess.run(
            [bundle, "--testing-library", "swift-testing", "--list-tests"], in: directory)
        guard status == 0 else {
            throw OrchestrationError.childFailed("cannot list the tests of \(bundle) (status \(status))")
        }
        let pattern: NSRegularExpression
        do { pattern = try NSRegularExpression(pattern: filter) } catch {
            throw OrchestrationError.badFilter(filter)
        }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init).filter { id in
            pattern.firstMatch(in: id, range: NSRange(id.startIndex..., in: id)) != nil
        }
    }

    /// Puts at `path` the bundle valgrind counts: a copy without debug sections (`objcopy
    /// --strip-debug`; the symbol table stays, so dumps still name every function). valgrind 3.19's
    /// DWARF reader gives up on some Swift bundles ("Possibly corrupted debuginfo file … Giving
    /// up"), and counting needs function names, not line tables; the code is byte for byte the
    /// bundle's, so counts are the same. Resource bundles beside it are linked beside the copy.
    /// Without `objcopy` the bundle itself is linked, and the progress line says so.
    static func countableCopy(of bundle: String, at path: String, progress: (String) -> Void) throws {
        let stripped = try? ChildProcess.runKeepingErrors(["objcopy", "--strip-debug", bundle, path])
        if stripped?.status != 0 {
            try? FileManager.default.removeItem(atPath: path)
            progress(
                "perfkit run: objcopy (apt-get install binutils) could not strip the bundle's debug sections; counting "
                    + "the bundle as built"
            )
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: bundle)
        }
        let folder = URL(fileURLWithPath: bundle).deletingLastPathComponent().path
        let beside = URL(fileURLWithPath: path).deletingLastPathComponent().path
        for item in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where item.hasSuffix(".resources") {
            try? FileManager.default.createSymbolicLink(
                atPath: beside + "/" + item, withDestinationPath: folder + "/" + item)
        }
    }

    /// The heap shifts of the counting processes of a test: one process, the heap as it is. The
    /// measured thread's heap repeats whatever the rest of the process allocated (``PinnedHeap``),
    /// so shifting the harness's heap (``SimulatedCounter/padHeap(_:)``) no longer moves a count;
    /// it was how three processes a test found address-sensitive series before.
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
                    + "moved there beyond the count tolerance is counted at \(placementsPerMovingTest) placements of "
                    + "the bundle and compared from their medians")
    }

    /// The processes of one test as one result: values labelled by process, the dump numbers of
    /// every process, the first process's profile and budgets (`merging` would list each budget once per pass).
    static func joined(_ passes: [[TestResult]]) -> [TestResult] {
        var merged = [TestResult].merging(processes: passes)
        for t in merged.indices {
            if let original = passes.first?.first(where: { $0.id == merged[t].id }) {
                merged[t].budgets = original.budgets
            }
        }
        return merged
    }

    /// Adds `offset` to every dump number of `tests` (so one process's dumps join the run's folder
    /// under numbers of their own) and returns the highest number before the shift.
    static func offsetDumps(_ tests: inout [TestResult], by offset: Int) -> Int {
        var highest = 0
        for t in tests.indices {
            for m in tests[t].measurements.indices {
                for k in tests[t].measurements[m].series.indices {
                    guard let numbers = tests[t].measurements[m].series[k].callgrindDumps else { continue }
                    highest = max(highest, numbers.max() ?? 0)
                    tests[t].measurements[m].series[k].callgrindDumps = numbers.map { $0 + offset }
                }
            }
        }
        return highest
    }

    /// Where a run file's callgrind dumps are kept: `<run file without .json>.callgrind/`.
    /// - Parameter runFile: The run file's path.
    /// - Returns: The folder's path.
    package static func dumpFolder(besides runFile: String) -> String {
        (runFile.hasSuffix(".json") ? String(runFile.dropLast(5)) : runFile) + ".callgrind"
    }

    /// Adds each count series' profile, read from its dumps, with Swift names demangled.
    /// - Returns: The tests with profiles, and the largest share of a dump spent in the runtime's
    ///   shared lookups (``CallgrindDump/runtimeLookupShare``), from the same parsed dumps.
    static func profiled(_ tests: [TestResult], dumps folder: String) -> (
        tests: [TestResult], runtimeLookupShare: Double
    ) {
        var parsed: [Int: CallgrindDump] = [:]
        for test in tests {
            for measurement in test.measurements {
                for series in measurement.series {
                    for dump in series.callgrindDumps ?? [] where parsed[dump] == nil {
                        if let data = FileManager.default.contents(atPath: "\(folder)/callgrind.out.\(dump)") {
                            parsed[dump] = CallgrindDump(parsing: String(decoding: data, as: UTF8.self))
                        }
                    }
                }
            }
        }
        var names = Set<String>()
        for dump in parsed.values { names.formUnion(dump.functionNames) }
        let demangled = demangle(Array(names))
        let share = parsed.values.map(\.runtimeLookupShare).max() ?? 0
        let profiledTests = tests.map { test in
            var test = test
            for m in test.measurements.indices {
                for s in test.measurements[m].series.indices {
                    let series = test.measurements[m].series[s]
                    guard let numbers = series.callgrindDumps else { continue }
                    test.measurements[m].series[s].profile = CallgrindDump.profile(
                        numbers.compactMap { parsed[$0] }, demangle: demangled)
                }
            }
            return test
        }
        return (profiledTests, share)
    }

    /// Swift names through `swift demangle --simplified --compact`, in batches; other names stay.
    static func demangle(_ names: [String]) -> [String: String] {
        let swift = names.filter { $0.hasPrefix("$s") || $0.hasPrefix("_$s") }
        var result: [String: String] = [:]
        var start = 0
        while start < swift.count {
            let batch = Array(swift[start..<min(start + 400, swift.count)])
            start += batch.count
            guard let text = ChildProcess.output(["swift", "demangle", "--simplified", "--compact"] + batch) else {
                continue
            }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count == batch.count else { continue }
            for (name, line) in zip(batch, lines) { result[name] = String(line) }
        }
        return result
    }
}

extension [TestResult] {
    /// These (native) results with a counting run's simulated instruction series added to the
    /// matching measurements, and its count budgets replacing the "not judged, run with counts" ones.
    /// - Parameter counted: The counting run's results.
    /// - Returns: The merged results; a test only the counting run has is added as it is.
    package func addingCounts(_ counted: [TestResult]) -> [TestResult] {
        var merged = self
        for test in counted {
            guard let index = merged.firstIndex(where: { $0.id == test.id }) else {
                merged.append(test)
                continue
            }
            for measurement in test.measurements {
                if let m = merged[index].measurements.firstIndex(where: { $0.name == measurement.name }) {
                    merged[index].measurements[m].series.removeAll { $0.metric.isSimulated }
                    merged[index].measurements[m].series += measurement.series.filter(\.metric.isSimulated)
                    merged[index].measurements[m].unavailable.removeAll { $0.metric == Metric.instructions.name }
                    // Why the counting run could not count it (an async body), when it says so.
                    merged[index].measurements[m].unavailable += measurement.unavailable.filter {
                        $0.metric == Metric.instructions.name
                    }
                } else {
                    merged[index].measurements.append(measurement)
                }
            }
            let countBudgets = Set(test.budgets.map(\.metric))
            merged[index].budgets = merged[index].budgets.filter { !countBudgets.contains($0.metric) } + test.budgets
        }
        return merged
    }
}
