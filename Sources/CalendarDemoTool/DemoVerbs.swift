import PerfKit
import PerfKitCommandLine

/// The verbs of `calendar-demo`, PerfKit's flagship example.
///
/// The demo `make demo` runs, and the calendar workloads (fixtures, layout, and the demo's own child processes).
extension VerbTable {
    /// Every `calendar-demo` verb.
    static let calendarDemo = VerbTable(
        tool: "calendar-demo",
        exitStatus: ExitStatus.helpLine,
        verbs: [
            Verb(
                name: "demo", run: DemoCommand.run, positionals: "",
                summary:
                    "Measures the calendar renderer suite and writes Reports/calendar-renderer.md (what "
                    + "make demo runs).",
                options: [
                    .samples.help("samples per measured test"),
                    .processes.help("fresh processes (default 8)"),
                    .memoryRounds,
                    .baseline,
                    .markdown.help(
                        "Markdown report (default Reports/calendar-renderer.md; its CSV and charts beside it)"),
                    .saveBaseline,
                    .noCounts,
                ]),
            Verb(
                name: "calendar", run: CalendarCommand.run, positionals: "fixture|layout|history|memory|edit",
                summary: "Calendar workloads: generate fixtures, lay events out, and the demo's child processes.",
                options: [
                    .kind,
                    .days,
                    .seed.help("fixture seed"),
                    .events,
                    .timeZone,
                    .firstDay,
                    .width,
                    .collapsedHourWidth,
                    .maxLanes,
                    .format.value("json|svg", help: "layout: output format"),
                    .now,
                    .output.help("where to write (default standard output)"),
                    .policy.value("reference|native", help: "memory: the viewport policy"),
                    .journal,
                    .moves,
                ]),
        ])
}

extension Arguments {
    /// Parses `arguments` against the `calendar-demo` verb called `name`.
    init(_ arguments: [String], verb name: String) throws { try self.init(arguments, verb: name, of: .calendarDemo) }
}
