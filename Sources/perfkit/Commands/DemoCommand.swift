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
        let reportPath = parsed.options["report"] ?? "Reports/calendar-renderer.md"
        let started = Date()
        let processes = try parsed.integer("processes", default: RunCommand.defaultProcesses, range: 1...100)
        var (run, status) = try RunCommand.measure(filter: RunCommand.defaultFilter, iterations: iterations, processes: processes)
        Output.progress("perfkit demo: measuring process memory per policy in fresh processes, \(memoryRounds) rounds in ABBA order…")
        run.tests.append(try measureMemory(rounds: memoryRounds))
        let historySection = try retainedHistorySection(days: 90)
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

    /// Generates the 90-day retained history in fresh processes (three) and reports time and memory.
    static func retainedHistorySection(days: Int) throws -> String {
        Output.progress("perfkit demo: generating the \(days)-day retained history in fresh processes…")
        var samples: [[String: Double]] = []
        let keys = ["generationNanoseconds", "residentAfter", "residentBefore", "items", "calendarEvents"]
        for _ in 0..<3 {
            samples.append(try childValues(["calendar", "history", "--days", String(days)], requiring: keys))
        }
        let times = try Summary(samples.map { $0["generationNanoseconds"]! })
        let held = try Summary(samples.map { $0["residentAfter"]! - $0["residentBefore"]! })
        let items = Int(samples[0]["items"]!)
        return """
            ## Retained history workload

            The \(days)-day retained history holds \(items) items (\(Int(samples[0]["calendarEvents"]!)) calendar events; per day 2,000 emails, 100 events, 1,000 notes and 10,000 podcast episodes). \
            Generating it in a fresh process takes \(Format.duration(times.median)) (median of 3 processes, range \(Format.duration(times.min)) to \(Format.duration(times.max))) \
            and adds \(Format.bytes(held.median)) of resident memory (median; range \(Format.bytes(held.min)) to \(Format.bytes(held.max))). \
            This is a stress fixture, not typical usage; its purpose is to weigh on process memory while the renderer is measured.
            """
    }

    /// Runs this executable in a fresh process with `arguments` and decodes the numbers it prints as JSON.
    /// - Throws: A one-line error when the child fails, prints something other than a JSON object
    ///   of numbers, or leaves out one of `requiring`.
    static func childValues(_ arguments: [String], requiring keys: [String] = []) throws -> [String: Double] {
        let (status, output) = try ChildProcess.run([CommandLine.arguments[0]] + arguments)
        let name = "child process 'perfkit \(arguments.joined(separator: " "))'"
        guard status == 0 else { throw ChildFailure("\(name) failed (exit \(status))") }
        guard let values = try? JSONDecoder().decode([String: Double].self, from: output) else {
            throw ChildFailure("\(name) printed \(output.count) bytes that are not a JSON object of numbers")
        }
        if let missing = keys.first(where: { values[$0] == nil }) { throw ChildFailure("\(name) printed no '\(missing)'") }
        return values
    }

    /// Resident memory of each policy, each in a fresh child process, alternated in ABBA order.
    static func measureMemory(rounds: Int) throws -> TestResult {
        let arms = ["reference", "native"]
        let order = RunOrder(armCount: 2, roundCount: rounds, seed: 0xABBA)
        var collector: [String: SampleSeries] = [:]
        for (round, armOrder) in order.rounds.enumerated() {
            for (position, armIndex) in armOrder.enumerated() {
                let values = try childValues(["calendar", "memory", "--policy", arms[armIndex], "--days", "30"], requiring: ["residentMemory"])
                Output.progress("  memory round \(round + 1)/\(rounds) \(arms[armIndex]): resident \(Format.bytes(values["residentMemory"] ?? 0))")
                for (name, metric) in [
                    ("residentMemory", Metric.residentMemory), ("peakResidentMemory", .peakResidentMemory), ("allocatorResident", .allocatorResident),
                ] {
                    guard let value = values[name] else { continue }
                    let key = "\(name)|\(arms[armIndex])"
                    var series = collector[key] ?? SampleSeries(metric: metric, arm: arms[armIndex], phase: .warm)
                    series.append(value, round: round, position: position, iteration: series.values.count)
                    collector[key] = series
                }
            }
        }
        // Every sample comes from its own fresh process: the process is the unit here.
        let series = collector.keys.sorted().map { key in
            var s = collector[key]!
            s.processes = Array(s.values.indices)
            return s
        }
        let measurement = MeasurementResult(name: "process-30d", arms: arms, order: order.rounds, series: series, unavailable: [])
        return TestResult(id: "CalendarMemoryBenchmarks/processMemoryPerPolicy()", suite: "CalendarMemoryBenchmarks", measurements: [measurement])
    }
}

/// The demo's own headline table: the figures the calendar renderer's native policy is about.
enum PolicyComparison {
    /// The headline numbers: live views, consumer-owned artwork bytes and process memory.
    static func headline(_ c: Comparison) -> String {
        var lines = [
            "## Headline: native policy against reference", "", "| figure | reference | native | change (95% CI where statistical) |", "|---|--:|--:|---|",
        ]
        let wanted: [(String, String, Phase)] = [
            ("liveViews", "scroll-30d", .warm), ("consumerArtworkBytes", "scroll-30d", .warm),
            ("consumerArtworkBytes", "artwork-30d", .warm), ("residentMemory", "process-30d", .warm),
            ("peakResidentMemory", "process-30d", .warm), ("wallClock", "scroll-30d", .warm),
        ]
        for (metric, measurement, phase) in wanted {
            guard
                let row = c.rows.first(where: {
                    $0.metric.name == metric && $0.measurement == measurement && $0.phase == phase && $0.arm == "native vs reference"
                }),
                let b = row.baseline, let n = row.current
            else { continue }
            let u = row.metric.unit
            let change =
                row.change.map {
                    "\(MarkdownReport.percent($0.value)) (\(MarkdownReport.percent($0.lower)) … \(MarkdownReport.percent($0.upper))), \(row.verdict)"
                }
                ?? (row.verdict == .notJudged
                    ? "\(MarkdownReport.percent(n.median / max(b.median, 1))), not judged (\(ReportHeadline.reason(row)))"
                    : "\(MarkdownReport.percent(n.median / max(b.median, 1))), \(row.note.hasPrefix("exact") ? "exact: every sample identical" : row.verdict.description)")
            lines.append("| \(metric) (\(measurement), \(phase), median) | \(Format.value(b.median, u)) | \(Format.value(n.median, u)) | \(change) |")
        }
        lines.append("")
        lines.append(
            "Live views and artwork bytes are counts of this workload (exact where every sample is identical); process memory is the resident set of a fresh process per policy, one process per sample, alternated in ABBA order, with the Hodges–Lehmann ratio and its exact 95% CI."
        )
        return lines.joined(separator: "\n")
    }
}
