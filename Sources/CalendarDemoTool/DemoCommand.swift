import CalendarSubjects
import Foundation
import PerfKit
import PerfKitCommandLine

/// `calendar-demo demo`.
///
/// Measures the calendar renderer suite in release, measures each policy's process memory in fresh child processes in
/// ABBA order, compares against `Baselines/main` and writes `Reports/calendar-renderer.md` with its CSV and SVG charts.
enum DemoCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "demo")
        let memoryRounds = try parsed.integer(.memoryRounds, default: 8, range: 2...100)
        let samples = try parsed.integer(.samples)
        let baselineName = parsed[.baseline] ?? "main"
        let reportPath = parsed[.markdown] ?? "Reports/calendar-renderer.md"
        let started = Date()
        let processes = try parsed.integer(.processes, default: MeasuredRun.defaultProcesses, range: 1...100)
        // `make demo` runs `calendar-demo demo` without arguments.
        let command =
            arguments.isEmpty ? "make demo" : MarkdownReport.commandLine(["calendar-demo", "demo"] + arguments)
        let demo = try CalendarDemo.run(
            samples: samples, processes: processes, memoryRounds: memoryRounds, baselineName: baselineName,
            saveBaseline: parsed.has(.saveBaseline), executable: CommandLine.arguments[0], command: command,
            counts: !parsed.has(.noCounts), progress: Output.progress)
        if demo.savedBaseline {
            Output.progress(
                "calendar-demo: saved this run as baseline '\(baselineName)' (there was none, or --save-baseline)")
        }
        var writer = ReportWriter(
            markdown: reportPath, csv: URL(fileURLWithPath: reportPath).deletingPathExtension().path + ".csv", json: nil
        )
        // How layout cost grows with days and whether the viewport query grows with loaded days.
        let growth = GrowthReport(baseline: demo.baseline.tests, current: demo.run.tests)
        writer.growth = growth
        try writer.write(demo.report, rawTests: [("current", demo.run.tests)])
        Output.line(RunSummary.text(demo.run))
        Output.line("")
        Output.line("policy comparison (native against reference):")
        for line in ReportHeadline(demo.policies, direction: "native against reference", limit: 10).plainLines {
            Output.line("  " + line)
        }
        Output.line("against baseline '\(baselineName)':")
        for line in ReportHeadline(
            demo.comparison, direction: "this run against \(baselineName)", sides: demo.report.sidesNamed, limit: 10
        ).plainLines {
            Output.line("  " + line)
        }
        for line in growth.plainLines { Output.line(line) }
        for line in Comparison.unmatchedCases(baseline: demo.baseline.tests, current: demo.run.tests) {
            Output.line(line)
        }
        Output.line("report: \(reportPath) (\(Int(Date().timeIntervalSince(started))) s)")
        let exit = ExitStatus.ofRun(worst: demo.status)
        if exit != ExitStatus.fine {
            Output.progress(
                ExitStatus.closingLine(
                    tool: command, written: "\(reportPath) and .perfkit/runs/demo-latest.json", tests: demo.run.tests,
                    status: exit))
        }
        return exit
    }
}
