import Foundation
import PerfKit

extension CalendarDemo {
    /// What one demo produced: the run, the comparisons and the report, not yet written.
    package struct Outcome {
        /// This run, process memory included (also written to `.perfkit/runs/demo-latest.json`).
        package var run: RunFile
        /// 0, or 1 when a measured test failed (its results stay in the run).
        package var status: Int32
        /// The stored baseline the run was compared against.
        package var baseline: BaselineStore.Baseline
        /// Whether this run was saved as that baseline (there was none, or it was asked for).
        package var savedBaseline: Bool
        /// The run against the baseline.
        package var comparison: Comparison
        /// Native against reference inside the run (same binary).
        package var policies: Comparison
        /// The report, for ``ReportWriter``.
        package var report: MarkdownReport
    }

    /// Runs the demo: the suites in release over fresh processes, memory in ABBA rounds, then the report.
    ///
    /// Runs the demo: measures the package's benchmark suites in release over `processes` fresh
    /// processes, each policy's process memory in `memoryRounds` ABBA rounds of child processes,
    /// the 90-day retained history, then compares the run against the stored baseline (saving it
    /// first when there is none or `saveBaseline`) and the native policy against the reference.
    /// - Parameters:
    ///   - samples: Samples per measured test; nil for each test's own.
    ///   - processes: Fresh processes the samples are split over.
    ///   - memoryRounds: ABBA rounds of the process-memory measurement.
    ///   - baselineName: The baseline under `Baselines/`.
    ///   - saveBaseline: Save this run as the baseline before comparing.
    ///   - executable: The `perfkit` executable the memory and history child processes run.
    ///   - command: The command line the report names.
    ///   - counts: Also count simulated instructions in a counting run (``CountingRun``).
    ///   - progress: Receives one line per step.
    /// - Returns: The outcome.
    /// - Throws: ``OrchestrationError`` for a failed build or child; ``FileError`` for a corrupt
    ///   baseline or a write that failed.
    package static func run(
        samples: Int?, processes: Int, memoryRounds: Int, baselineName: String, saveBaseline: Bool,
        executable: String, command: String,
        counts: Bool = true, progress: (String) -> Void = { _ in }
    ) throws -> Outcome {
        var (run, status, dumps, countingFailure) = try MeasuredRun.measurePackage(
            filter: MeasuredRun.defaultFilter, samples: ForcedSamples(timing: samples), processes: processes,
            runs: counts ? .timingAndCounts : .timing,
            progress: progress)
        if let countingFailure {
            let kept = ".perfkit/runs/demo-timing.json"
            try run.write(to: kept)
            throw CountingFailedAfterTiming(written: kept, cause: countingFailure)
        }
        // Kept dumps are a convenience: a copy that fails leaves the run file whole (the run's folder goes either way).
        _ = try? CountingRun.keepDumps(dumps, beside: ".perfkit/runs/demo-latest.json")
        progress(
            "calendar-demo: measuring process memory per policy in fresh processes, \(memoryRounds) rounds "
                + "in ABBA order…"
        )
        run.tests.append(try measureMemory(rounds: memoryRounds, executable: executable, progress: progress))
        progress("calendar-demo: generating the 90-day retained history in fresh processes…")
        let historySection = try retainedHistorySection(days: 90, executable: executable)
        run.tests.sort { $0.id < $1.id }
        try run.write(to: ".perfkit/runs/demo-latest.json")
        let store = BaselineStore()
        let save = saveBaseline || !store.list().contains(baselineName)
        if save { try store.save(run, as: baselineName) }
        let baseline = try store.load(baselineName)
        let comparison = try Comparison(
            baseline: baseline.tests, current: run.tests,
            bands: try NoiseBandsFile.load(nil, machine: run.environment.machine, default: NoiseBands())
                .withCrossRunDefault,
            baselineEnvironment: baseline.environment, currentEnvironment: run.environment)
        let policies = try ArmComparison.compare(run.tests) ?? Comparison(baseline: [], current: [])
        return Outcome(
            run: run, status: status, baseline: baseline, savedBaseline: save, comparison: comparison,
            policies: policies,
            report: report(
                run: run, baseline: baseline, comparison: comparison, policies: policies,
                historySection: historySection, command: command,
                whereItWent: WhereItWent(comparison, baseline: baseline.tests, current: run.tests)))
    }
}
