import PerfKitCore

/// The exit statuses of `perfkit` and `calendar-demo`, decided in one place and listed once
/// (``table``, which README's table is checked against).
package enum ExitStatus {
    /// Everything asked was done and nothing failed.
    package static let fine: Int32 = 0
    /// A regression under `--fail-on regression` (`compare`, `abba`), or a change point at the
    /// newest recorded commit under `history show --fail-on change`.
    package static let regression: Int32 = 1
    /// Usage or bad input: a bad option, a file that cannot be read, an unknown revision, a bad
    /// store location or a damaged store. Nothing was written.
    package static let badInput: Int32 = 2
    /// A build, a measured process or a counting process failed (a timing run already finished is
    /// kept and named).
    package static let childFailed: Int32 = 3
    /// A measured test failed (an expectation or a budget); the run file and reports were written.
    package static let testFailed: Int32 = 4
    /// The history store cannot be reached (connection refused, timed out).
    package static let storeUnreachable: Int32 = 5
    /// Interrupted (Ctrl-C, SIGTERM); every process it started is stopped first.
    package static let interrupted: Int32 = 130

    /// Every status with its meaning, in README's words.
    package static let table: [(status: Int32, meaning: String)] = [
        (fine, "fine"),
        (
            regression,
            "a regression under `--fail-on regression`; a change at the newest commit under `history show --fail-on "
                + "change`; a limit exceeded under `check` (or, with `--require-all`, a limit not in the run)"
        ),
        (badInput, "usage or bad input (options, files, revisions, a bad or damaged history store); nothing written"),
        (
            childFailed,
            "a build, a measured process or a counting process failed; a measured test crashed, exited or ran past its "
                + "limit (600 s, its `.timeLimit` or `PERFKIT_TEST_TIME_LIMIT`), named, with the tests that finished "
                + "kept (a finished timing run too)"
        ),
        (testFailed, "a measured test failed (an expectation or a budget); the run file and reports were written"),
        (storeUnreachable, "the history store cannot be reached (refused, timed out)"),
        (interrupted, "interrupted; every process it started is stopped first"),
    ]

    /// The table on one line, for `--help`.
    package static var helpLine: String {
        "Exit status: "
            + table.map { "\($0.status) \($0.meaning.replacingOccurrences(of: "`", with: ""))" }.joined(separator: "; ")
            + "."
    }

    /// The status for a finished comparison.
    /// - Parameters:
    ///   - comparison: The comparison.
    ///   - growth: The growth of parameterized tests: a count that grows faster fails too.
    ///   - failOnRegression: Whether `--fail-on regression` was given.
    /// - Returns: ``regression`` or ``fine``.
    package static func of(_ comparison: Comparison, growth: GrowthReport? = nil, failOnRegression: Bool) -> Int32 {
        (comparison.hasRegression || growth?.hasRegression == true) && failOnRegression ? regression : fine
    }

    /// The status of a run whose measured processes exited with `worst` (0 passed, 1 a test failed).
    package static func ofRun(worst: Int32) -> Int32 { worst == 0 ? fine : testFailed }

    /// The last line of a command that wrote its report and then exits non-zero: what was written
    /// and why the status is what it is.
    /// - Parameters:
    ///   - tool: `perfkit VERB` or `calendar-demo demo`.
    ///   - written: What was written (the run file, the report).
    ///   - tests: The run's results, whose failed budgets are named.
    ///   - status: The exit status.
    /// - Returns: The line.
    package static func closingLine(tool: String, written: String, tests: [TestResult], status: Int32) -> String {
        let failed = tests.flatMap { test in
            test.budgets.filter { $0.status == .failed }.map {
                "\(SeriesID.shortTest(test.id)) \($0.measurement) \($0.metric) \($0.budget)"
            }
        }
        let why =
            failed.isEmpty
            ? "a measured test failed (its expectations; the test log above says which)"
            : "\(failed.count) budget\(failed.count == 1 ? "" : "s") failed: "
                + failed.prefix(3).joined(separator: "; ") + (failed.count > 3 ? "; …" : "")
        return "\(tool): \(written) written; exit \(status) because \(why)"
    }
}

/// An error that carries its own exit status (one the command line does not decide by its type alone).
package protocol ExitStatusError: Error, CustomStringConvertible {
    /// The status to exit with.
    var exitStatus: Int32 { get }
}

extension CountingFailedAfterTiming: ExitStatusError {
    /// ``ExitStatus/childFailed``.
    package var exitStatus: Int32 { ExitStatus.childFailed }
}
