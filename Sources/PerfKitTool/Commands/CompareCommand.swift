import Foundation
import PerfKit
import PerfKitCommandLine

/// `perfkit compare BASELINE [--current RUNFILE | --with BASELINE2] [--markdown FILE] [--csv FILE] [--json FILE]
/// [--fail-on regression]`.
///
/// Exit status: 0 nothing regressed, 1 regression with `--fail-on regression`, 2 bad input or usage.
enum CompareCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "compare")
        try parsed.requirePositionals(1...1)
        if parsed[.failOn] != nil { _ = try parsed.choice(.failOn, ["regression"], default: "regression") }
        guard parsed[.current] == nil || parsed[.with] == nil else {
            throw UsageError("give --current or --with, not both")
        }
        try OutputPath.check(
            ReportWriter(markdown: parsed[.markdown], csv: parsed[.csv], json: parsed[.json]).plannedPaths,
            inputs: [parsed[.current] ?? RunFile.latestPath])
        let store = BaselineStore(root: parsed[.root] ?? "Baselines")
        // With no per-toolchain baseline the one asked for is the one used: loaded, and a missing or
        // damaged one told, before the current side is read.
        let asked = parsed.positionals[0]
        let perToolchain = store.list().contains { $0.hasPrefix(asked + ".swift-") }
        let plain = perToolchain ? nil : try store.load(asked)
        let current = try currentSide(parsed, store: store)
        let baseline = try plain ?? store.load(store.resolve(asked, swiftVersion: current.environment.swiftVersion))
        if baseline.name != asked {
            Output.line("baseline \(baseline.name): the one saved for this run's toolchain")
        } else if let note = BaselineStore.toolchainNote(baseline: baseline, current: current.environment) {
            Output.line(note)
        }
        let (currentTests, currentEnvironment, currentSource) = (current.tests, current.environment, current.source)
        let bands = try NoiseBandsFile.load(parsed[.noise], machine: currentEnvironment.machine).withCrossRunDefault
        let comparison: Comparison
        do {
            comparison = try Comparison(
                baseline: baseline.tests, current: currentTests, bands: bands,
                baselineEnvironment: baseline.environment, currentEnvironment: currentEnvironment,
                allowOtherMachine: parsed.has(.allowOtherMachine),
                currentFilter: current.filter, currentCountsOnly: current.countsOnly)
        } catch let error as ComparisonError {
            throw FileError(currentSource, "\(error) (against \(store.root)/\(baseline.name))")
        }
        let whereItWent = WhereItWent(comparison, baseline: baseline.tests, current: currentTests)
        let report = try self.report(
            comparison, baseline: baseline, current: current, whereItWent: whereItWent,
            command: MarkdownReport.commandLine(["perfkit", "compare"] + arguments), against: parsed[.with] != nil)
        var writer = ReportWriter(markdown: parsed[.markdown], csv: parsed[.csv], json: parsed[.json])
        let growth = GrowthReport(baseline: baseline.tests, current: currentTests)
        writer.growth = growth
        writer.flameGraphs = whereItWent.flameGraphs(baseline: baseline.tests, current: currentTests)
        var written = try writer.write(report, rawTests: [("baseline", baseline.tests), ("current", currentTests)])
        if let folded = parsed[.folded] {
            written += try ReportWriter.writeFolded(
                whereItWent, baseline: baseline.tests, current: currentTests, to: folded)
        }
        // The answer always goes to standard output, whatever files are written too.
        for line in ReportHeadline(comparison, direction: "current against \(baseline.name)", sides: report.sidesNamed)
            .plainLines
        { Output.line(line) }
        for notice in report.notices { Output.line("warning: " + notice) }
        for line in whereItWent.plainLines { Output.line(line) }
        for line in growth.plainLines { Output.line(line) }
        for line in Comparison.unmatchedCases(baseline: baseline.tests, current: currentTests) { Output.line(line) }
        for path in written where path.hasSuffix(".md") { Output.line("report: \(path)") }
        return ExitStatus.of(comparison, growth: growth, failOnRegression: parsed[.failOn] != nil)
    }

    /// The current side: a run file (with its filter and whether it holds counts only) or a second baseline.
    struct CurrentSide {
        var tests: [TestResult], environment: Environment, source: String
        var filter: String? = nil, countsOnly = false
    }

    static func currentSide(_ parsed: Arguments, store: BaselineStore) throws -> CurrentSide {
        if let other = parsed[.with] {
            let b = try store.load(other)
            return CurrentSide(tests: b.tests, environment: b.environment, source: "\(store.root)/\(other)")
        }
        let run = try RunFile.read(orLatest: parsed[.current])
        return CurrentSide(
            tests: run.tests, environment: run.environment, source: parsed[.current] ?? RunFile.latestPath,
            filter: run.filter, countsOnly: run.countsOnly ?? false)
    }

    /// The Markdown report: sides named, arms, where it went, budgets, and a notice when the run
    /// is not of this checkout's HEAD.
    static func report(
        _ comparison: Comparison, baseline: BaselineStore.Baseline, current: CurrentSide, whereItWent: WhereItWent,
        command: String,
        against againstBaseline: Bool
    ) throws -> MarkdownReport {
        var report = MarkdownReport(
            title: "PerfKit comparison against \(baseline.name)", command: command, comparison: comparison,
            armComparison: try ArmComparison.compare(current.tests).map {
                MarkdownReport.ArmSection(
                    title: "Arms of the current run: each against its first arm", comparison: $0, first: "first arm",
                    second: "arm")
            },
            extraSections: whereItWent.markdown.map { [$0] } ?? [],
            limitations: [MarkdownReport.allocatorLimitation(current.environment)]
                + NotMeasured.limitations(of: current.tests),
            budgets: MarkdownReport.budgets(of: current.tests))
        let day = ISO8601DateFormatter.string(
            from: baseline.savedAt, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        report.sidesNamed =
            "\(current.source) (\(current.environment.commit.prefix(12))) against baseline \(baseline.name) "
            + "(\(baseline.environment.commit.prefix(12)), saved \(day))"
        // A run of older code (the last run stopped on a compile error, say) must not pass for this checkout.
        let head = Git.answer(["rev-parse", "HEAD"])
        if !againstBaseline, let head, !current.environment.commit.hasPrefix(head) {
            report.notices.append(
                "The current run is of commit \(current.environment.commit.prefix(12)), not of this checkout's HEAD "
                    + "\(head.prefix(12)): run perfkit run again to judge the code you have"
            )
        }
        return report
    }
}
