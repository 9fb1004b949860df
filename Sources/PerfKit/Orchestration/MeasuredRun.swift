import Foundation

/// A `perfkit run`: the measured tests of one build, in several fresh processes that split the
/// rounds between them, merged into one run file with every value labelled by its process.
public enum MeasuredRun {
    /// The environment of process `index` of `processes`: how the measured tests split their rounds
    /// and which process takes the exact-count pass (the first).
    /// - Parameters:
    ///   - index: The process, from 0.
    ///   - processes: How many.
    /// - Returns: Variables for the process (none for a single process).
    public static func environment(process index: Int, of processes: Int) -> [String: String] {
        processes > 1 ? ["PERFKIT_PROCESSES": String(processes), "PERFKIT_PROCESS_INDEX": String(index)] : [:]
    }

    /// Measures `bundle`'s tests matching `filter`, serially, in `processes` fresh processes.
    /// - Parameters:
    ///   - bundle: The release test bundle.
    ///   - directory: The package directory.
    ///   - filter: Test filter.
    ///   - iterations: Total rounds forced on every measured test (split over the processes), if any.
    ///   - processes: Fresh processes.
    ///   - launcher: Launches them.
    ///   - progress: Receives one line per process.
    /// - Returns: The merged results and the worst exit status (1 when a test failed in some process).
    /// - Throws: ``OrchestrationError`` when a process fails or matches no test.
    public static func measure(
        bundle: String, directory: String = ".", filter: String, iterations: Int?, processes: Int, launcher: some MeasuredProcessLauncher,
        progress: (String) -> Void = { _ in }
    ) throws -> (tests: [TestResult], status: Int32) {
        let perProcess = iterations.map { max(1, ($0 + processes - 1) / processes) }
        var results: [[TestResult]] = []
        var status: Int32 = 0
        for process in 0..<processes {
            progress("perfkit run: measuring tests matching '\(filter)' in release, process \(process + 1) of \(processes)…")
            let outcome = try launcher.measure(
                MeasuredProcessRequest(
                    bundle: bundle, directory: directory, filter: filter, iterations: perProcess,
                    environment: environment(process: process, of: processes), forwardOutput: process == 0))
            results.append(outcome.tests)
            status = max(status, outcome.status)
        }
        return (processes > 1 ? [TestResult].merging(processes: results) : results[0], status)
    }
}
