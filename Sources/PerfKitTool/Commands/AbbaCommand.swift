import Foundation
import PerfKit
import PerfKitCommandLine

/// `perfkit abba REV_A REV_B`.
///
/// Both revisions built in release in their own worktrees, then their measured tests run process by process in
/// counterbalanced ABBA rounds, paired round by round, adding rounds look by look until every series is decided (or
/// `--rounds N` for a fixed number).
enum AbbaCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "abba")
        try parsed.requirePositionals(2...2)
        if parsed[.failOn] != nil { _ = try parsed.choice(.failOn, ["regression"], default: "regression") }
        let plan = try plan(parsed)
        let timeBudget = try parsed.integer(.timeBudget, default: SequentialPlan.defaultTimeBudget, range: 1...86_400)
        let samples = ForcedSamples(timing: try parsed.integer(.samples), counting: try parsed.integer(.countSamples))
        try SampleOptions.check(samples, timing: !parsed.has(.counts), counting: parsed.has(.counts), verb: "abba")
        let seed = UInt64(try parsed.integer(.seed, default: 0xABBA, range: 0...Int.max))
        let filter = parsed[.filter] ?? MeasuredRun.defaultFilter
        let envA = try environment(parsed[.envA]), envB = try environment(parsed[.envB])
        try OutputPath.check(
            ReportWriter(markdown: parsed[.markdown], csv: parsed[.csv], json: parsed[.json]).plannedPaths, inputs: [])
        let started = Date()
        if parsed.has(.counts) {
            return try counted(
                parsed, arguments: arguments, filter: filter, countSamples: samples.counting,
                environments: (envA, envB),
                started: started)
        }
        let sides = try AbbaSession.Side.build(
            parsed.positionals[0], parsed.positionals[1], environments: (envA, envB),
            buildSystem: try RunCommand.buildSystem(parsed), progress: Output.progress)
        let (a, b) = (sides.a.revision, sides.b.revision)
        let machine = EnvironmentReader.machine()
        var session = try AbbaSession.run(
            a: sides.a, b: sides.b, plan: plan,
            timeBudget: parsed[.rounds] == nil ? Double(timeBudget) : nil,
            bands: try NoiseBandsFile.load(parsed[.noise], machine: machine, default: NoiseBandsFile.pairedDefault),
            filter: filter,
            samples: samples.timing, seed: seed, launcher: TestBundleLauncher(), progress: Output.progress)
        session.comparison.baselineEnvironment = a.environment(machine: machine)
        session.comparison.currentEnvironment = b.environment(machine: machine)
        if let built = session.comparison.baselineEnvironment, let other = session.comparison.currentEnvironment,
            !built.sameBuild(as: other)
        {
            // The rounds were judged before the environments were read; say that the two builds differ.
            Output.progress(
                "warning: A and B were built differently (-enable-testing for one side only: a change adds or removes "
                    + "the tests' first @testable import), so their timings compare differently optimised code")
        }
        let elapsed = Int(Date().timeIntervalSince(started))
        let report = try session.report(
            a: a, b: b, command: MarkdownReport.commandLine(["perfkit", "abba"] + arguments), elapsedSeconds: elapsed)
        var writer = ReportWriter(markdown: parsed[.markdown], csv: parsed[.csv], json: parsed[.json])
        let growth = GrowthReport(
            baseline: session.rawTests.first?.tests, current: session.rawTests.last?.tests ?? [])
        writer.growth = growth
        let written = try writer.write(report, rawTests: session.rawTests)
        for line in ReportHeadline(session.comparison, direction: "B = \(b.name) against A = \(a.name)").plainLines {
            Output.line(line)
        }
        Output.line(
            "\(session.order.rounds.count) rounds, stopped at \(session.stopReason), \(elapsed) s"
                + written.filter { $0.hasSuffix(".md") }.map { "; report: \($0)" }.joined())
        for line in growth.plainLines { Output.line(line) }
        for warning in session.warnings() { Output.progress("warning: \(warning)") }
        return ExitStatus.of(session.comparison, growth: growth, failOnRegression: parsed[.failOn] != nil)
    }

    /// `perfkit abba A B --counts`.
    ///
    /// Both revisions built, each counted by a counting run (``CountingRun/summary``), the counts compared (identical,
    /// or against the count tolerance). No timing rounds: counts do not drift with the machine's load.
    static func counted(
        _ parsed: Arguments, arguments: [String], filter: String, countSamples: Int?,
        environments: (a: [String: String], b: [String: String]), started: Date
    ) throws -> Int32 {
        var built = try AbbaSession.Side.build(
            parsed.positionals[0], parsed.positionals[1], counts: true, buildSystem: try RunCommand.buildSystem(parsed),
            progress: Output.progress)
        (built.a.environment, built.b.environment) = environments
        let counted = try AbbaSession.count(
            built, filter: filter, countSamples: countSamples, progress: Output.progress)
        let sides = [counted.a, counted.b]
        for side in sides {
            if let dumps = side.dumps { Output.line("callgrind files: \(dumps)/callgrind.out.N (\(side.runFile))") }
        }
        let (a, b) = (built.a.revision, built.b.revision)
        let comparison = try Comparison(
            baseline: sides[0].tests, current: sides[1].tests, baselineEnvironment: sides[0].environment,
            currentEnvironment: sides[1].environment)
        let whereItWent = WhereItWent(comparison, baseline: sides[0].tests, current: sides[1].tests)
        let report = MarkdownReport(
            title: "PerfKit counts: \(b.name) against \(a.name)",
            command: MarkdownReport.commandLine(["perfkit", "abba"] + arguments),
            comparison: comparison, extraSections: whereItWent.markdown.map { [$0] } ?? [],
            sides: MarkdownReport.Sides(
                heading: "B against A (simulated counts)", against: "B against A", first: "A", second: "B",
                lead:
                    "Each side: \(CountingRun.summary); \(CountingRun.pairedSummary). Counts do not drift with the "
                    + "machine's load, so no rounds are needed."
            ))
        var writer = ReportWriter(markdown: parsed[.markdown], csv: parsed[.csv], json: parsed[.json])
        let growth = GrowthReport(baseline: sides[0].tests, current: sides[1].tests)
        writer.growth = growth
        writer.flameGraphs = whereItWent.flameGraphs(baseline: sides[0].tests, current: sides[1].tests)
        var written = try writer.write(report, rawTests: [("A", sides[0].tests), ("B", sides[1].tests)])
        if let folded = parsed[.folded] {
            written += try ReportWriter.writeFolded(
                whereItWent, baseline: sides[0].tests, current: sides[1].tests, to: folded)
        }
        for line in ReportHeadline(comparison, direction: "B = \(b.name) against A = \(a.name)").plainLines {
            Output.line(line)
        }
        for line in whereItWent.plainLines { Output.line(line) }
        for line in growth.plainLines { Output.line(line) }
        Output.line(
            "counted both sides in \(Int(Date().timeIntervalSince(started))) s"
                + written.filter { $0.hasSuffix(".md") }.map { "; report: \($0)" }.joined())
        return ExitStatus.of(comparison, growth: growth, failOnRegression: parsed[.failOn] != nil)
    }

    /// `--rounds N`: one look after N rounds; otherwise looks up to `--max-rounds`.
    static func plan(_ parsed: Arguments) throws -> SequentialPlan {
        if parsed[.rounds] != nil {
            guard parsed[.maxRounds] == nil, parsed[.timeBudget] == nil else {
                throw UsageError(
                    "--rounds fixes the number of rounds; --max-rounds and --time-budget belong to adaptive rounds: "
                        + "give one or the other"
                )
            }
            let rounds = try parsed.integer(.rounds, default: 0, range: 2...1_000)
            if let problem = AbbaSession.roundsProblem(rounds) { throw UsageError(problem) }
            return .fixed(rounds: rounds)
        }
        let maximum = try parsed.integer(.maxRounds, default: SequentialPlan.defaultMaximumRounds, range: 2...1_000)
        if let problem = AbbaSession.roundsProblem(maximum, adaptive: true) { throw UsageError(problem) }
        return SequentialPlan(maximumRounds: maximum)
    }

    /// Parses `KEY=VALUE[,KEY=VALUE]` (test-only: extra environment for one side, for example an injected slowdown).
    static func environment(_ text: String?) throws -> [String: String] {
        guard let text else { return [:] }
        var result: [String: String] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { throw UsageError("--env-a/--env-b take KEY=VALUE, not '\(pair)'") }
            result[String(parts[0])] = String(parts[1])
        }
        return result
    }
}
