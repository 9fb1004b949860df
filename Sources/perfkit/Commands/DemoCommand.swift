import CalendarSubjects
import Foundation
import PerfKit

/// `perfkit demo`: measures the calendar renderer suite in release, measures each policy's process
/// memory in fresh child processes in ABBA order, compares against `Baselines/main` and writes
/// `Reports/calendar-renderer.md` with its CSV and SVG charts.
enum DemoCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "demo")
        let memoryRounds = try parsed.integer("memory-rounds", default: 8, range: 2...100)
        let iterations = try parsed.options["iterations"].map { _ in try parsed.integer("iterations", default: 30) }
        let baselineName = parsed.options["baseline"] ?? "main"
        let reportPath = parsed.options["markdown"] ?? "Reports/calendar-renderer.md"
        let started = Date()
        let processes = try parsed.integer("processes", default: RunCommand.defaultProcesses, range: 1...100)
        var (run, status) = try MeasuredRun.measurePackage(
            filter: RunCommand.defaultFilter, iterations: iterations, processes: processes, progress: Output.progress)
        Output.progress("perfkit demo: measuring process memory per policy in fresh processes, \(memoryRounds) rounds in ABBA order…")
        run.tests.append(try CalendarDemo.measureMemory(rounds: memoryRounds, executable: CommandLine.arguments[0], progress: Output.progress))
        Output.progress("perfkit demo: generating the 90-day retained history in fresh processes…")
        let historySection = try CalendarDemo.retainedHistorySection(days: 90, executable: CommandLine.arguments[0])
        run.tests.sort { $0.id < $1.id }
        try run.write(to: ".perfkit/runs/demo-latest.json")
        let store = BaselineStore()
        if parsed.flags.contains("save-baseline") || !store.list().contains(baselineName) {
            try store.save(run, as: baselineName)
            Output.progress("perfkit demo: saved this run as baseline '\(baselineName)' (there was none, or --save-baseline)")
        }
        let baseline = try store.load(baselineName)
        let comparison = try Comparison(
            baseline: baseline.tests, current: run.tests,
            bands: try NoiseBandsFile.load(nil, machine: run.environment.machine, default: NoiseBands()).withCrossRunDefault,
            baselineEnvironment: baseline.environment, currentEnvironment: run.environment)
        let arms = try ArmComparison.compare(run.tests) ?? Comparison(baseline: [], current: [])
        // `make demo` runs `perfkit demo` without arguments.
        let command = arguments.isEmpty ? "make demo" : MarkdownReport.commandLine(["perfkit", "demo"] + arguments)
        let report = CalendarDemo.report(
            run: run, baseline: baseline, comparison: comparison, policies: arms, historySection: historySection, command: command)
        try ReportWriter(markdown: reportPath, csv: URL(fileURLWithPath: reportPath).deletingPathExtension().path + ".csv", json: nil)
            .write(report, rawTests: [("current", run.tests)])
        Output.line(RunSummary.text(run))
        Output.line("")
        Output.line("policy comparison (native against reference):")
        for line in ReportHeadline(arms, direction: "native against reference", limit: 10).plainLines { Output.line("  " + line) }
        Output.line("against baseline '\(baselineName)':")
        for line in ReportHeadline(comparison, direction: "this run against \(baselineName)", limit: 10).plainLines { Output.line("  " + line) }
        Output.line("report: \(reportPath) (\(Int(Date().timeIntervalSince(started))) s)")
        return status == 0 ? 0 : 1
    }

}
