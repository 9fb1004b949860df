import PerfKitCore

/// What can go wrong checking out, building and running revisions.
///
/// One line each, and whether it is the user's input (a bad revision, a filter that matches nothing) or a child process
/// that failed (a build, a measured process), which the command line reports with different exit codes.
package enum OrchestrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Git cannot resolve the revision; `said` is git's own message.
    case unknownRevision(String, said: String)
    /// The working tree has no `Package.swift` here or in a folder above: nothing to build.
    case notAPackage(folder: String)
    /// The revision could not be checked out into its worktree; `said` is git's own message.
    case checkoutFailed(revision: String, path: String, said: String)
    /// git failed at something other than resolving or checking out (bisecting, listing).
    case git(GitError)
    /// The release build failed; `firstError` is SwiftPM's first `error:` line.
    case buildFailed(revision: String, ending: String, firstError: String)
    /// The build left no test bundle where one was expected.
    case noTestBundle(folder: String)
    /// Swift Build made a test runner for each of several test targets, where perfkit runs one bundle.
    case severalTestRunners(folder: String, runners: [String])
    /// No measured test matched the filter in a measured process.
    case noMeasuredTests(filter: String, directory: String, status: Int32)
    /// `--filter` is not a regular expression.
    case badFilter(String)
    /// A measured process ended abnormally (killed, or an exit status other than 0 or 1).
    case measuredProcessFailed(description: String, status: Int32)
    /// A helper child process failed or printed something unusable (the message says which).
    case childFailed(String)
    /// A counting run cannot start here (valgrind missing, the shim cannot be built).
    case countingUnavailable(String)
    /// A counting process under valgrind failed; `detail` names the test and quotes valgrind's last words.
    case countingFailed(status: Int32, detail: String)
    /// What was asked cannot be done as asked (a series that is not there, revisions out of order);
    /// the message says why and what would.
    case cannotDo(String)

    /// Whether a child process failed (a build or a measured process), as opposed to bad input.
    package var isChildFailure: Bool {
        switch self {
        case .buildFailed, .noTestBundle, .severalTestRunners, .measuredProcessFailed, .childFailed, .countingFailed:
            true
        case .unknownRevision, .notAPackage, .checkoutFailed, .git, .noMeasuredTests, .badFilter, .countingUnavailable,
            .cannotDo:
            false
        }
    }

    /// One line naming the revision, folder or process and the problem.
    package var description: String {
        switch self {
        case .unknownRevision(let revision, let said):
            "unknown revision '\(revision)': \(said.isEmpty ? "git rev-parse could not resolve it" : said)"
        case .notAPackage(let folder):
            "no Package.swift in \(folder) or a folder above; run perfkit inside the Swift package to measure"
        case .checkoutFailed(let revision, let path, let said): "cannot check out \(revision) in \(path): \(said)"
        case .git(let error): error.description
        case .buildFailed(let revision, let ending, let firstError):
            "release build of \(revision) failed (\(ending))" + (firstError.isEmpty ? "" : ": \(firstError)")
        case .noTestBundle(let folder): "no test bundle in \(folder)"
        case .severalTestRunners(let folder, let runners):
            "Swift Build made \(runners.count) test runners in \(folder) (\(runners.joined(separator: ", "))), one per "
                + "test "
                + "target; perfkit measures one test bundle: build with --build-system native"
        case .noMeasuredTests(let filter, let directory, let status):
            "no measured test matched '\(filter)' in \(directory) (test process exit \(status))"
        case .badFilter(let filter): "--filter '\(filter)' is not a regular expression"
        case .measuredProcessFailed(let description, let status):
            "\(description) ended abnormally (status \(status)); its results cannot be trusted"
        case .childFailed(let message): message
        case .countingUnavailable(let message): message
        case .cannotDo(let message): message
        case .countingFailed(let status, let detail):
            "the counting process under valgrind failed (status \(status)): \(detail)"
        }
    }
}

/// A counting run failed after the timing run finished.
///
/// The timing run was written to `written` (with no counts), and `cause` says why the counts are missing.
package struct CountingFailedAfterTiming: Error, Sendable, CustomStringConvertible {
    /// Where the finished part of the run was written.
    package var written: String
    /// Why the run stopped short: counting that failed after timing, or a measured process that ended inside a test
    /// (``MeasuredProcessEndedEarly``).
    package var cause: any Error & Sendable

    /// The failure, after the finished part of the run was written to `written`.
    package init(written: String, cause: any Error & Sendable) {
        self.written = written
        self.cause = cause
    }

    /// One line.
    package var description: String {
        if let early = cause as? MeasuredProcessEndedEarly {
            return "\(early); the \(early.finished.count) tests that finished before it were kept: \(written)"
        }
        return "\(cause); the timing run it followed was kept: \(written) (no counts in it)"
    }
}

/// A measured process that crashed, exited or was stopped inside a test.
///
/// It carries the test it was in and the results of the tests that finished before it, which the run keeps.
package struct MeasuredProcessEndedEarly: Error, Sendable, CustomStringConvertible {
    /// The test that was running.
    package var test: String
    /// What happened ("crashed (killed by signal 6 (SIGABRT))", "ran past its limit of 600 s …").
    package var how: String
    /// The tests that finished before it.
    package var finished: [TestResult]

    /// One line naming the test.
    package var description: String { "the measured test \(FileError.shown(test)) \(how)" }
}
