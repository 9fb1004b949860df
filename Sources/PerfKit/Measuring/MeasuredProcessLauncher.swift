import Foundation
import PerfKitCore

/// One fresh process of measured tests: which bundle, where, which tests, how many rounds.
package struct MeasuredProcessRequest: Sendable, Equatable {
    /// The test bundle (absolute, or relative to the current directory).
    package var bundle: String
    /// The package directory the process runs in.
    package var directory: String
    /// The test filter (a regular expression over test IDs).
    package var filter: String
    /// Rounds forced on every measured test, if any.
    package var samples: Int?
    /// Variables added to the process's environment (for example `PERFKIT_PROCESSES`).
    package var environment: [String: String]
    /// Whether the process's output is shown (on standard error).
    package var forwardOutput: Bool
    /// Which of the run's processes this is (from 1), and how many there are: for the progress line.
    package var process = 1, processes = 1

    /// A request.
    package init(
        bundle: String, directory: String, filter: String, samples: Int?, environment: [String: String] = [:],
        forwardOutput: Bool = false
    ) {
        self.bundle = bundle
        self.directory = directory
        self.filter = filter
        self.samples = samples
        self.environment = environment
        self.forwardOutput = forwardOutput
    }
}

/// What one measured process produced.
package struct MeasuredProcessOutcome: Sendable, Equatable {
    /// The results of its measured tests, test cases merged by test ID.
    package var tests: [TestResult]
    /// Its exit status: 0, or 1 when a test failed (a budget, an expectation); results are kept either way.
    package var status: Int32

    /// An outcome.
    package init(tests: [TestResult], status: Int32) {
        self.tests = tests
        self.status = status
    }
}

/// Launches measured processes.
///
/// ``TestBundleLauncher`` runs real test bundles; tests pass a fake that returns prepared results, so run ordering,
/// pairing and failure handling are tested without building anything.
package protocol MeasuredProcessLauncher {
    /// Runs one fresh process and collects its results.
    /// - Parameter request: What to run.
    /// - Returns: Its results and exit status.
    /// - Throws: ``OrchestrationError`` when nothing matched or the process ended abnormally.
    func measure(_ request: MeasuredProcessRequest) throws -> MeasuredProcessOutcome
}

/// Runs a release test bundle in measure mode and reads the result fragments its tests write.
package struct TestBundleLauncher: MeasuredProcessLauncher {
    /// The longest one test may run (nil: ``testTimeLimit``), for tests of the limit itself.
    package var testLimit: Double?

    /// A launcher.
    package init(testLimit: Double? = nil) { self.testLimit = testLimit }

    /// The test a process ended inside (its running marker still standing), how, and what finished; nil when none.
    static func endedEarly(
        _ process: ChildProcess.Finished, results: String, testLimit: Double, finished tests: [TestResult]
    ) -> MeasuredProcessEndedEarly? {
        guard let running = RunningMarker.read(in: results) else { return nil }
        let how =
            process.timedOut
            ? "ran past its limit of \(Format.trim(running.limit ?? testLimit)) s (its .timeLimit, or "
                + "PERFKIT_TEST_TIME_LIMIT=SECONDS) and was stopped"
            : process.signalled
                ? "crashed (\(process.ending))" : "ended the process (exit \(process.status)) before it finished"
        return MeasuredProcessEndedEarly(test: running.testID, how: how, finished: tests)
    }

    /// The longest one measured test may run in a timing process before perfkit stops it.
    ///
    /// 600 s, or `PERFKIT_TEST_TIME_LIMIT` seconds; a test's own `.timeLimit` takes its place.
    package static var testTimeLimit: Double {
        ProcessInfo.processInfo.environment["PERFKIT_TEST_TIME_LIMIT"].flatMap(Double.init).flatMap {
            $0 > 0 ? $0 : nil
        } ?? 600
    }

    /// A new temporary folder for a measured process's result fragments, registered with its owner.
    static func makeResultsFolder() throws -> String {
        let results = FileManager.default.temporaryDirectory.appendingPathComponent(
            "perfkit-measured-\(UUID().uuidString)"
        ).path
        ChildRegistry.created(folder: results)
        try FileManager.default.createDirectory(atPath: results, withIntermediateDirectories: true)
        // Its owner named, so a later run removes it if this one is killed.
        try? Data("\(getpid())\n".utf8).write(to: URL(fileURLWithPath: results + "/" + CountingFolder.ownerFile))
        return results
    }

    /// The progress step of `request`'s process running `test`.
    static func step(_ request: MeasuredProcessRequest, test: String?) -> ProgressBoard.Step {
        .measuring(
            test: test, process: request.process, processes: request.processes, showsOutput: request.forwardOutput)
    }

    /// Puts `step` on the board, and the tests done when the process moved on to another test.
    ///
    /// The results folder is listed only then (the test before has written its fragment), not at every look while a
    /// test is timed.
    static func moved(_ token: Int, to step: ProgressBoard.Step, results: String) {
        if ProgressBoard.shared.update(token, to: step) {
            ProgressBoard.shared.setDone(ResultFragments.count(in: results))
        }
    }

    /// Runs `request.bundle` with Swift Testing, one test at a time, in measure mode.
    /// - Throws: ``OrchestrationError/noMeasuredTests(filter:directory:status:)`` when no fragment
    ///   was written; ``OrchestrationError/measuredProcessFailed(description:status:)`` when the
    ///   process was killed or exited with a status other than 0 or 1; ``FileError`` for a corrupt fragment.
    package func measure(_ request: MeasuredProcessRequest) throws -> MeasuredProcessOutcome {
        let results = try Self.makeResultsFolder()
        defer {
            FileManager.default.removeLitter(atPath: results)
            ChildRegistry.removed(folder: results)
        }
        var environment = request.environment
        environment[MeasuredProcessEnvironment.mode] = MeasuredProcessEnvironment.measureMode
        // Colour only on a terminal: through the plugin into a log, Swift Testing's escape codes reached the file.
        if isatty(STDERR_FILENO) == 0 { environment["NO_COLOR"] = "1" }
        environment[MeasuredProcessEnvironment.resultsDirectory] = results
        if let samples = request.samples { environment[MeasuredProcessEnvironment.samples] = String(samples) }
        let bundle =
            request.bundle.hasPrefix("/")
            ? request.bundle : FileManager.default.currentDirectoryPath + "/" + request.bundle
        // Standard error wired straight through (never a pipe and a reader thread while it is timed).
        let testLimit = self.testLimit ?? Self.testTimeLimit
        let token = ProgressBoard.shared.begin(Self.step(request, test: nil))
        defer { ProgressBoard.shared.end(token) }
        let finished = try ChildProcess.runKeepingErrors(
            [bundle, "--testing-library", "swift-testing", "--no-parallel", "--filter", request.filter],
            in: request.directory,
            environment: environment, output: request.forwardOutput ? .standardError : .discard,
            showErrors: request.forwardOutput, keepErrors: false, timeLimit: ChildProcess.processTimeLimit,
            stopWhen: {
                // One test past its limit (its own `.timeLimit`, else the default) stops the process.
                guard let running = RunningMarker.read(in: results), let age = RunningMarker.age(in: results) else {
                    return false
                }
                Self.moved(token, to: Self.step(request, test: running.testID), results: results)
                return age > (running.limit ?? testLimit)
            })
        let status = finished.status
        let tests = try ResultFragments.readAll(from: results)
        // A test still marked as running: the process crashed, exited or was stopped inside it. What finished stands.
        if let early = Self.endedEarly(finished, results: results, testLimit: testLimit, finished: tests) {
            throw early
        }
        if finished.timedOut {
            throw OrchestrationError.measuredProcessFailed(
                description: "the measured process of \(request.directory) (\(request.filter)) ran past "
                    + "\(Format.trim(ChildProcess.processTimeLimit)) s (a deadlock?) and was stopped; "
                    + "PERFKIT_PROCESS_TIME_LIMIT=SECONDS sets the limit",
                status: status)
        }
        // 0: every test passed; 1: a test failed (its results stand, the failure is in them). Anything
        // else (a crash, a signal) may have cut a measurement short.
        guard status == 0 || status == 1 else {
            throw OrchestrationError.measuredProcessFailed(
                description: "the measured process of \(request.directory)", status: status)
        }
        guard !tests.isEmpty else {
            throw OrchestrationError.noMeasuredTests(
                filter: request.filter, directory: request.directory, status: status)
        }
        return MeasuredProcessOutcome(tests: tests, status: status)
    }
}
