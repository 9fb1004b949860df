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
        var (run, status) = try RunCommand.measure(filter: RunCommand.defaultFilter, iterations: iterations, processes: processes)
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
        var limitations = [
            "No GPU frame delivery: every time here is host-side CPU work of a platform-independent core, not a frame on a device.",
            "No input-to-visible latency on a device: the edit and interaction budgets judge host-side work against the clocks, not touch-to-photon time.",
            "One machine: \(run.environment.machine.summary); another CPU, allocator or OS changes every absolute number.",
            "Fewer live views and fewer prepared bytes are exact counts; they do not by themselves prove a faster scroll. Time claims rest on the ABBA timing rows.",
        ]
        if baseline.environment.commit == run.environment.commit || baseline.environment.commit.hasPrefix(run.environment.commit.prefix(12)) {
            limitations.append(
                "The baseline `\(baselineName)` was recorded from the same commit (\(run.environment.commit.prefix(12))): every regression or improvement against it is this machine's run-to-run variation, not a code change. `perfkit abba` pairs runs of two revisions in one session to remove that drift."
            )
        } else {
            limitations.append(
                "The baseline `\(baselineName)` comes from commit \(baseline.environment.commit.prefix(12)) and an earlier session; differences against it include the machine's run-to-run drift. `perfkit abba` pairs runs of two revisions in one session to remove it."
            )
        }
        // `make demo` runs `perfkit demo` without arguments.
        let command = arguments.isEmpty ? "make demo" : Arguments.commandLine(["perfkit", "demo"] + arguments)
        let report = MarkdownReport(
            title: "Calendar renderer: native policy against reference", command: command, comparison: comparison,
            armComparison: MarkdownReport.ArmSection(
                title: "Policy comparison: native against reference (same run, same binary)", comparison: arms, first: "reference", second: "native"),
            extraSections: [PolicyComparison.headline(arms), historySection], runOrder: runOrder(run), limitations: limitations,
            budgets: MarkdownReport.budgets(of: run.tests))
        try ReportWriter(markdown: reportPath, csv: URL(fileURLWithPath: reportPath).deletingPathExtension().path + ".csv", json: nil)
            .write(report, rawTests: [("current", run.tests)])
        Output.line(RunSummary.text(run))
        Output.line("")
        Output.line("policy comparison (native against reference):")
        for line in ReportHeadline(arms, direction: "native against reference", limit: 10).lines where !line.isEmpty {
            Output.line("  " + line.replacingOccurrences(of: "**", with: ""))
        }
        Output.line("against baseline '\(baselineName)':")
        for line in ReportHeadline(comparison, direction: "this run against \(baselineName)", limit: 10).lines where !line.isEmpty {
            Output.line("  " + line.replacingOccurrences(of: "**", with: ""))
        }
        Output.line("report: \(reportPath) (\(Int(Date().timeIntervalSince(started))) s)")
        return status == 0 ? 0 : 1
    }

    static func runOrder(_ run: RunFile) -> [String] {
        run.tests.flatMap { test in
            test.measurements.filter { $0.arms.count > 1 }.map { m in
                let rounds = m.order.prefix(4).map { $0.map { m.arms[$0] }.joined(separator: ", ") }.joined(separator: " | ")
                return "\(test.id) \(m.name): \(m.order.count) rounds, first four: \(rounds)"
            }
        }
    }
}
