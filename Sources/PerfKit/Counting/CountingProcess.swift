import Foundation
import PerfKitCore
import Synchronization

/// One valgrind process of a counting run.
///
/// One test (with the harness's heap shifted by `pad`, 0 outside tests), in a folder of its own (results, dumps,
/// valgrind's log), so that several passes can run at once without sharing a file.
package struct CountingProcess: Sendable {
    /// The test's position in the run's sorted list.
    package var test: Int
    /// The test's Swift Testing ID.
    package var id: String
    /// Blocks of every small size class allocated before anything runs (``SimulatedCounter/padHeap(_:)``).
    var pad: Int
    /// The pass's own folder.
    var folder: String
    /// Where the bundle's code sits.
    ///
    /// 0 where the kernel loads it (its fixed base, ASLR off); 1 and above through the dynamic loader (``loader``),
    /// which maps it where `mmap` places it, each placement above 1 with valgrind's lowest client address moved
    /// (``lowestAddress(of:)``). Its code, constants and key paths then sit at other addresses, as in another build. A
    /// count that hashes them (the calendar's playback: an `AnyKeyPath`-keyed dictionary, 2,776,203 instructions at the
    /// kernel's base, 2,738,733 through the loader) moves; one that does not stays identical.
    package var placement: Int

    /// Whether the process is a placement trial.
    ///
    /// It ends after the first round of its first measurement's first phase (``SimulatedCounter/isPlacementTrial``),
    /// whose dumps are compared with the first process's first dumps to tell whether the test's counts follow code
    /// addresses; it is never joined to the test's results (``CountingRun/followUps(of:_:first:root:)``).
    var isTrial = false

    /// Whether the test's further placements depend on this process's counts (a check or a placement trial).
    ///
    /// A placement counted because of them asks for none.
    package var decidesPlacements = false

    /// Whether the bundle is started through the dynamic loader (any placement but the kernel's).
    var loadsElsewhere: Bool { placement > 0 }

    /// A counting process of test `test` (`id`), the harness's heap shifted by `pad`, in `folder`,
    /// the bundle at `placement` (0: where the kernel loads it).
    package init(test: Int, id: String, pad: Int, folder: String, placement: Int = 0) {
        self.test = test
        self.id = id
        self.pad = pad
        self.folder = folder
        self.placement = placement
    }

    /// valgrind's lowest client address for a placement above 1 (`--aspace-minaddr`).
    ///
    /// Every mapping the loader makes, the bundle's and its libraries' code among them, moves up by (placement − 1) ×
    /// 256 MiB from where placement 1 puts it; nil for placements 0 and 1 (valgrind's default).
    package static func lowestAddress(of placement: Int) -> String? {
        placement < 2 ? nil : "0x" + String(UInt64(placement - 1) << 28, radix: 16)
    }

    /// The dynamic loader a process that ``loadsElsewhere`` starts the bundle through, when this machine has it (x86_64
    /// or aarch64 glibc).
    ///
    /// Without it the bundle loads where the kernel puts it.
    package static let loader: String? = {
        let candidates =
            architecture == "aarch64" ? ["/lib/ld-linux-aarch64.so.1"] : ["/lib64/ld-linux-x86-64.so.2"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// What one pass measured.
    package struct Outcome: Sendable {
        /// The test's results, with profiles read from this pass's dumps.
        var tests: [TestResult]
        /// The bundle's exit status (1 when a test failed).
        var status: Int32
        /// The largest share of a sample spent in the Swift runtime's shared lookups
        /// (``CallgrindDump/runtimeLookupShare``), over the process's dumps.
        var runtimeLookupShare = 0.0
        /// The process's folder, where its dumps stay until the run gathers them.
        var folder = ""
        /// A placement trial's samples, the totals of its dumps 1, 2, … in order (empty for any other
        /// process).
        var trialCounts: [UInt64] = []

        /// What a pass measured: `tests`, exiting with `status`; the rest as the fields above say.
        package init(
            tests: [TestResult], status: Int32, runtimeLookupShare: Double = 0, folder: String = "",
            trialCounts: [UInt64] = []
        ) {
            self.tests = tests
            self.status = status
            self.runtimeLookupShare = runtimeLookupShare
            self.folder = folder
            self.trialCounts = trialCounts
        }

        /// Why a count series of the pass was measured on a heap that was not pinned
        /// (``SampleSeries/heapUnpinned``), or nil when every one was.
        var heapUnpinned: String? {
            tests.lazy.flatMap(\.measurements).flatMap(\.series).compactMap(\.heapUnpinned).first
        }

        /// Whether the test gets a heap-shifted second process (``CountingRun/shiftCheck(of:_:root:)``).
        ///
        /// It spent over ``CountingRun/runtimeLookupThreshold`` in the runtime's shared lookups, or its heap was not
        /// pinned.
        var needsShiftCheck: Bool {
            runtimeLookupShare > CountingRun.runtimeLookupThreshold || heapUnpinned != nil
        }
    }

    /// The pass folder's name, of one length for every test of a run below 100,000 tests.
    ///
    /// The paths the process is handed (dump prefix, results) are then of one length in every pass.
    package static func folderName(_ test: Int, _ pad: Int) -> String {
        let digits = String(test)
        return "/pass-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + "-\(pad)"
    }

    /// Runs `passes`, `width` at a time, and returns their outcomes in the passes' order, then the follow-ups'
    /// outcomes.
    ///
    /// A pass for which `followUp` names more processes (the placements a check or trial asks for) has them run at once
    /// by the same worker. `followUp` is asked again after each follow-up.
    /// - Returns: The outcomes of `passes`, and the follow-ups with their outcomes, in the order of
    ///   the passes that asked for them (neither depends on which process finished first).
    /// - Throws: The error of the earliest pass that failed (no later pass is started after a failure).
    static func runAll(
        _ passes: [CountingProcess], width: Int, root: String, setup: CountingRun.Setup, environment: [String: String],
        directory: String,
        followUp: @Sendable (CountingProcess, Outcome) -> [CountingProcess] = { _, _ in [] }
    ) throws -> (outcomes: [Outcome], followUps: [(process: CountingProcess, outcome: Outcome)]) {
        struct State {
            var next = 0
            var outcomes: [Outcome?]
            var followUps: [Int: [(process: CountingProcess, outcome: Outcome)]] = [:]
            var failure: (index: Int, error: any Error)?
        }
        // Shared by the worker threads below, each taking the next pass when it is free.
        let state = Mutex(State(outcomes: Array(repeating: nil, count: passes.count)))
        ProgressBoard.shared.addToStage(passes.count)
        let run: @Sendable (CountingProcess) throws -> Outcome = {
            let process = $0
            return try ProgressBoard.shared.during(.counting(test: process.id)) {
                try process.run(root: root, setup: setup, environment: environment, directory: directory)
            }
        }
        DispatchQueue.concurrentPerform(iterations: width) { _ in
            while true {
                let taken: Int? = state.withLock { s in
                    guard s.failure == nil, s.next < passes.count else { return nil }
                    s.next += 1
                    return s.next - 1
                }
                guard let k = taken else { return }
                do {
                    let outcome = try run(passes[k])
                    state.withLock { $0.outcomes[k] = outcome }
                    ProgressBoard.shared.finishItem()
                    var waiting = followUp(passes[k], outcome)
                    ProgressBoard.shared.addToStage(waiting.count)
                    while !waiting.isEmpty {
                        let next = waiting.removeFirst()
                        let checked = try run(next)
                        state.withLock { $0.followUps[k, default: []].append((next, checked)) }
                        ProgressBoard.shared.finishItem()
                        let more = followUp(next, checked)
                        ProgressBoard.shared.addToStage(more.count)
                        waiting += more
                    }
                } catch {
                    state.withLock { s in
                        if s.failure.map({ k < $0.index }) ?? true { s.failure = (k, error) }
                    }
                }
            }
        }
        return try state.withLock { s in
            if let failure = s.failure { throw failure.error }
            return (s.outcomes.compactMap { $0 }, s.followUps.sorted { $0.key < $1.key }.flatMap(\.value))
        }
    }

    /// Runs the test under callgrind in its folder and reads its counts.
    func run(root: String, setup: CountingRun.Setup, environment base: [String: String], directory: String) throws
        -> Outcome
    {
        let results = folder + "/results", log = folder + "/valgrind.log"
        try FileManager.default.createDirectory(atPath: results, withIntermediateDirectories: true)
        var environment = base.merging(SettlePolicy.environment) { own, _ in own }
        environment[MeasuredProcessEnvironment.resultsDirectory] = results
        environment[SimulatedCounter.outputVariable] = folder + "/callgrind.out"
        environment[SimulatedCounter.heapPadVariable] = String(pad)
        if isTrial { environment[MeasuredProcessEnvironment.placementTrial] = "1" }
        let finished = try ChildProcess.runKeepingErrors(
            [
                "setarch", Self.architecture, "-R", setup.valgrind, "--tool=callgrind", "--instr-atstart=no",
                "--collect-atstart=no",
            ] + CountingRun.uncountedRuntimeProbes.map { "--toggle-collect=\($0)" } + [
                "--callgrind-out-file=\(folder)/callgrind.out", "--log-file=\(log)",
            ] + (Self.lowestAddress(of: placement).map { ["--aspace-minaddr=\($0)"] } ?? [])
                + (loadsElsewhere ? Self.loader.map { [$0] } ?? [] : []) + [
                    root + "/bundle", "--testing-library", "swift-testing", "--no-parallel", "--filter",
                    NSRegularExpression.escapedPattern(for: id),
                ], in: directory, environment: environment, output: .discard, showErrors: pad == 0 && !isTrial,
            replacingEnvironment: true, timeLimit: ChildProcess.processTimeLimit)
        let status = finished.status
        if finished.timedOut {
            throw OrchestrationError.countingFailed(
                status: status,
                detail: "\(id): still running after \(Format.trim(ChildProcess.processTimeLimit)) s under valgrind (a "
                    + "deadlock, or a test too slow to count?): stopped; PERFKIT_PROCESS_TIME_LIMIT=SECONDS "
                    + "sets the limit"
            )
        }
        // No log (valgrind never started): the exit status alone is reported.
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        if isTrial, !finished.signalled, status == 0 {
            let counts = Self.dumpTotals(in: folder)
            if !counts.isEmpty { return Outcome(tests: [], status: 0, folder: folder, trialCounts: counts) }
        }
        let fragments = FileManager.default.names(in: results).filter {
            $0.hasSuffix(".json")
        }
        // A test still marked as running ended the process inside it (an `exit`, a crash the status hides).
        if let running = RunningMarker.read(in: results) {
            throw OrchestrationError.countingFailed(
                status: status, detail: "\(running.testID) ended the process before it finished (\(finished.ending))")
        }
        // 0: passed; 1: a test failed (its results are still there). Anything else, a signal, an
        // internal error, or a process that wrote no results (valgrind gave up before the test ran)
        // is a failed count, told in valgrind's own last words.
        guard !finished.signalled, status == 0 || status == 1, !text.contains("VALGRIND INTERNAL ERROR"),
            !fragments.isEmpty
        else {
            throw OrchestrationError.countingFailed(
                status: status,
                detail: "\(id)\(finished.signalled ? " (killed by signal \(status))" : ""): "
                    + Self.lastWords(valgrindLog: text, errors: finished.errors, log: log))
        }
        // Each dump parsed once: for the profiles and the share of runtime lookups alike.
        let (counted, share) = CountingRun.profiled(try ResultFragments.readAll(from: results), dumps: folder)
        return Outcome(tests: counted, status: status, runtimeLookupShare: share, folder: folder)
    }

    /// The totals of a process's numbered dumps (`callgrind.out.1`, `.2`, …) in order, up to the
    /// first missing one.
    static func dumpTotals(in folder: String) -> [UInt64] {
        var totals: [UInt64] = []
        while let value = DumpCount.instructions(ofDump: "\(folder)/callgrind.out.\(totals.count + 1)") {
            totals.append(value)
        }
        return totals
    }

    /// valgrind's last words.
    ///
    /// Its log's last lines without the `==pid==` prefix (an internal error or "Giving up" line first when there is
    /// one), else the test process's own standard error.
    static func lastWords(valgrindLog text: String, errors: String, log: String) -> String {
        let lines = text.split(separator: "\n").map {
            String($0.drop { $0 == "=" || $0.isNumber }).trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        if let fatal = lines.firstIndex(where: { $0.contains("INTERNAL ERROR") || $0.contains("Giving up") }) {
            let reason = lines[..<fatal].last { $0.contains("error") || $0.contains("failed") }
            return "valgrind: " + ([reason, lines[fatal]].compactMap { $0 }.joined(separator: " / "))
        }
        if let last = lines.last(where: { !$0.hasPrefix("For lists of detected") && !$0.hasPrefix("Use --") }),
            !lines.isEmpty, !text.contains("Events    :")
        {
            return "valgrind: \(last)"
        }
        let said = ChildProcess.lastWords(errors, lines: 2)
        return said.isEmpty ? "it wrote no results (valgrind's log: \(log))" : "the test process said: \(said)"
    }

    /// `uname -m`, for `setarch`.
    static let architecture: String = {
        var machine = utsname()
        uname(&machine)
        return withUnsafeBytes(of: &machine.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }()
}
