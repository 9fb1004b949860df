import Foundation
import PerfKit

/// `perfkit abba REV_A REV_B [--rounds N] [--filter REGEX] [--markdown FILE] [--csv FILE] [--fail-on regression]`:
/// both revisions built in release in their own worktrees, then their measured tests run process
/// by process in counterbalanced ABBA rounds, paired round by round.
enum AbbaCommand {
    /// Rounds by default. On a 2-core VM, with the ±2% band used then, a 3% slowdown of the layout
    /// subject was detected in 17 of 20 repeats with 10 rounds, in 16, 20 and 20 of 20 with 20
    /// rounds, and in 18 of 20 with 30 (a few processes per session run 15 to 35% off the rest, as
    /// the raw CSV that `abba --csv` writes shows);
    /// 30 rounds keep the paired CI narrow, at 1.5 times the measuring time of 20.
    static let defaultRounds = 30

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "abba")
        try parsed.requirePositionals(
            2...2, usage: "perfkit abba REV_A REV_B [--rounds N] [--filter REGEX] [--markdown FILE] [--csv FILE] [--fail-on regression]")
        if parsed.options["fail-on"] != nil { _ = try parsed.choice("fail-on", ["regression"], default: "regression") }
        let rounds = try parsed.integer("rounds", default: defaultRounds, range: 2...1_000)
        let iterations = try parsed.options["iterations"].map { _ in try parsed.integer("iterations", default: 30) }
        let seed = UInt64(try parsed.integer("seed", default: 0xABBA, range: 0...Int.max))
        let filter = parsed.options["filter"] ?? RunCommand.defaultFilter
        let envA = try environment(parsed.options["env-a"]), envB = try environment(parsed.options["env-b"])
        let started = Date()
        // Both revisions are resolved before anything is created: a bad B leaves no worktree of A behind.
        for revision in parsed.positionals { _ = try Revision.resolve(revision) }
        if let problem = AbbaSession.roundsProblem(rounds) { throw UsageError(problem) }
        let a = try Revision.prepare(parsed.positionals[0], progress: Output.progress)
        let b = try Revision.prepare(parsed.positionals[1], progress: Output.progress)
        let bundleA = try a.build(pinnedLayout: true, progress: Output.progress)
        let bundleB = a.directory == b.directory ? bundleA : try b.build(pinnedLayout: true, progress: Output.progress)
        let session = try AbbaSession.run(
            a: .init(revision: a, bundle: bundleA, environment: envA), b: .init(revision: b, bundle: bundleB, environment: envB), rounds: rounds,
            filter: filter, iterations: iterations, seed: seed, launcher: TestBundleLauncher(), progress: Output.progress)
        let machine = EnvironmentReader.machine()
        let bands = try NoiseBandsFile.load(parsed.options["noise"], machine: machine, default: NoiseBandsFile.pairedDefault)
        let comparison = try Comparison(
            paired: session.pairing, bands: bands, environmentA: a.environment(machine: machine), environmentB: b.environment(machine: machine))
        let elapsed = Int(Date().timeIntervalSince(started))
        let report = try session.report(
            comparison: comparison, a: a, b: b, command: Arguments.commandLine(["perfkit", "abba"] + arguments), elapsedSeconds: elapsed)
        let written = try ReportWriter(markdown: parsed.options["markdown"], csv: parsed.options["csv"], json: parsed.options["json"])
            .write(report, rawTests: session.rawTests)
        for line in ReportHeadline(comparison, direction: "B = \(b.name) against A = \(a.name)").lines where !line.isEmpty {
            Output.line(line.replacingOccurrences(of: "**", with: ""))
        }
        Output.line("\(rounds) rounds, \(elapsed) s" + written.filter { $0.hasSuffix(".md") }.map { "; report: \($0)" }.joined())
        for warning in session.warnings() { Output.progress("warning: \(warning)") }
        return ExitStatus.of(comparison, failOnRegression: parsed.options["fail-on"] != nil)
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
