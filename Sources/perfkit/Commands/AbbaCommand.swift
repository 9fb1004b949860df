import Foundation
import PerfKit

/// `perfkit abba REV_A REV_B`: both revisions built in release in their own worktrees, then their
/// measured tests run process by process in counterbalanced ABBA rounds, paired round by round,
/// adding rounds look by look until every series is decided (or `--rounds N` for a fixed number).
enum AbbaCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "abba")
        try parsed.requirePositionals(2...2)
        if parsed.options["fail-on"] != nil { _ = try parsed.choice("fail-on", ["regression"], default: "regression") }
        let plan = try plan(parsed)
        let timeBudget = try parsed.integer("time-budget", default: SequentialPlan.defaultTimeBudget, range: 1...86_400)
        let iterations = try parsed.options["iterations"].map { _ in try parsed.integer("iterations", default: 30) }
        let seed = UInt64(try parsed.integer("seed", default: 0xABBA, range: 0...Int.max))
        let filter = parsed.options["filter"] ?? MeasuredRun.defaultFilter
        let envA = try environment(parsed.options["env-a"]), envB = try environment(parsed.options["env-b"])
        for path in [parsed.options["markdown"], parsed.options["csv"], parsed.options["json"]].compactMap({ $0 }) { try OutputPath.validate(path) }
        let started = Date()
        let arms = try AbbaSession.Arm.build(parsed.positionals[0], parsed.positionals[1], environments: (envA, envB), progress: Output.progress)
        let (a, b) = (arms.a.revision, arms.b.revision)
        let machine = EnvironmentReader.machine()
        var session = try AbbaSession.run(
            a: arms.a, b: arms.b, plan: plan,
            timeBudget: parsed.options["rounds"] == nil ? Double(timeBudget) : nil,
            bands: try NoiseBandsFile.load(parsed.options["noise"], machine: machine, default: NoiseBandsFile.pairedDefault), filter: filter,
            iterations: iterations, seed: seed, launcher: TestBundleLauncher(), progress: Output.progress)
        session.comparison.baselineEnvironment = a.environment(machine: machine)
        session.comparison.currentEnvironment = b.environment(machine: machine)
        let elapsed = Int(Date().timeIntervalSince(started))
        let report = try session.report(a: a, b: b, command: MarkdownReport.commandLine(["perfkit", "abba"] + arguments), elapsedSeconds: elapsed)
        let written = try ReportWriter(markdown: parsed.options["markdown"], csv: parsed.options["csv"], json: parsed.options["json"])
            .write(report, rawTests: session.rawTests)
        for line in ReportHeadline(session.comparison, direction: "B = \(b.name) against A = \(a.name)").plainLines { Output.line(line) }
        Output.line(
            "\(session.order.rounds.count) rounds, stopped at \(session.stopReason), \(elapsed) s"
                + written.filter { $0.hasSuffix(".md") }.map { "; report: \($0)" }.joined())
        for warning in session.warnings() { Output.progress("warning: \(warning)") }
        return ExitStatus.of(session.comparison, failOnRegression: parsed.options["fail-on"] != nil)
    }

    /// `--rounds N`: one look after N rounds; otherwise looks up to `--max-rounds`.
    static func plan(_ parsed: Arguments) throws -> SequentialPlan {
        if parsed.options["rounds"] != nil {
            guard parsed.options["max-rounds"] == nil, parsed.options["time-budget"] == nil else {
                throw UsageError("--rounds fixes the number of rounds; --max-rounds and --time-budget belong to adaptive rounds: give one or the other")
            }
            let rounds = try parsed.integer("rounds", default: 0, range: 2...1_000)
            if let problem = AbbaSession.roundsProblem(rounds) { throw UsageError(problem) }
            return .fixed(rounds: rounds)
        }
        let maximum = try parsed.integer("max-rounds", default: SequentialPlan.defaultMaximumRounds, range: 2...1_000)
        if let problem = AbbaSession.roundsProblem(maximum, adaptive: true) { throw UsageError(problem) }
        return SequentialPlan(maximumRounds: maximum)
    }

    /// Parses `KEY=VALUE[,KEY=VALUE]` (test-only: extra environment for one arm, for example an injected slowdown).
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
