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
        for revision in parsed.positionals { _ = try Worktrees.resolve(revision) }
        if rounds < 6 {
            throw UsageError(
                "--rounds \(rounds) can never reach significance: the smallest two-sided Wilcoxon p with \(rounds) pairs is \(Format.pValue(2 / pow(2, Double(rounds)))); use at least 6 (10 or more to survive Benjamini–Hochberg across a suite)"
            )
        }
        let a = try Worktrees.prepare(parsed.positionals[0])
        let b = try Worktrees.prepare(parsed.positionals[1])
        let bundleA = try Worktrees.build(a, pinnedLayout: true)
        let bundleB = a.directory == b.directory ? bundleA : try Worktrees.build(b, pinnedLayout: true)
        let session = try AbbaSession.run(arms: [(a, bundleA, envA), (b, bundleB, envB)], rounds: rounds, filter: filter, iterations: iterations, seed: seed)
        let machine = EnvironmentReader.machine()
        let bands = try NoiseBandsFile.load(parsed.options["noise"], machine: machine, default: NoiseBandsFile.pairedDefault)
        let comparison = try Comparison(
            paired: session.pairing, bands: bands, environmentA: session.environment(for: a), environmentB: session.environment(for: b))
        let diagnostics = try AbbaSession.diagnosticsSection(session.pairing.paired)
        let command = Arguments.commandLine(["perfkit", "abba"] + arguments)
        let elapsed = Int(Date().timeIntervalSince(started))
        let report = MarkdownReport(
            title: "ABBA comparison: \(b.name) (B) against \(a.name) (A)", command: command, comparison: comparison,
            extraSections: [session.summarySection(a: a, b: b, elapsedSeconds: elapsed), diagnostics], runOrder: session.runOrderLines(a: a, b: b),
            limitations: [
                "Each figure is the median of one process's samples, paired with the other arm's process in the same round; it is host-side cost on this machine, not frame delivery on a device."
            ],
            sides: .abba)
        let written = try ReportWriter(markdown: parsed.options["markdown"], csv: parsed.options["csv"], json: parsed.options["json"])
            .write(report, rawTests: session.rawTests.map { (side: $0.0, tests: $0.1) })
        for line in ReportHeadline(comparison, direction: "B = \(b.name) against A = \(a.name)").lines where !line.isEmpty {
            Output.line(line.replacingOccurrences(of: "**", with: ""))
        }
        Output.line("\(rounds) rounds, \(elapsed) s" + written.filter { $0.hasSuffix(".md") }.map { "; report: \($0)" }.joined())
        for warning in Set(session.pairing.paired.filter { $0.metric == .wallClock }.compactMap { try? PairedDiagnostics($0) }.flatMap(\.warnings)).sorted()
            .prefix(5)
        {
            Output.progress("warning: \(warning)")
        }
        return comparison.hasRegression && parsed.options["fail-on"] != nil ? 1 : 0
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

/// The measured processes of one ABBA comparison, paired round by round.
struct AbbaSession {
    var order: RunOrder
    var rounds: [PairedSeries.Round]
    var pairing: Pairing
    var rawTests: [(String, [TestResult])]
    var environments: [String: Environment]

    /// Runs every round: each arm's tests in a fresh process, in the round's order.
    static func run(arms: [(PreparedRevision, String, [String: String])], rounds: Int, filter: String, iterations: Int?, seed: UInt64) throws -> AbbaSession {
        let order = RunOrder(armCount: 2, roundCount: rounds, seed: seed)
        var pairedRounds: [PairedSeries.Round] = []
        var raw: [(String, [TestResult])] = [("A", []), ("B", [])]
        for (round, armOrder) in order.rounds.enumerated() {
            var results: [[TestResult]] = [[], []]
            for (position, arm) in armOrder.enumerated() {
                let (revision, bundle, environment) = arms[arm]
                Output.progress("perfkit abba: round \(round + 1)/\(rounds), \(arm == 0 ? "A" : "B") (\(revision.name)), position \(position + 1)")
                let (tests, _) = try MeasuredProcess.run(
                    bundle: bundle, in: revision.directory, filter: filter, iterations: iterations, environment: environment)
                results[arm] = tests
                raw[arm].1 += relabel(tests, round: round, position: position)
            }
            pairedRounds.append(PairedSeries.Round(a: results[0], b: results[1], bRanSecond: armOrder == [0, 1]))
        }
        let machine = EnvironmentReader.machine()
        var environments: [String: Environment] = [:]
        for (revision, _, _) in arms {
            var env = EnvironmentReader.current(buildConfiguration: "release", directory: revision.directory)
            env.commit = revision.commit
            env.machine = machine
            environments[revision.name] = env
        }
        return AbbaSession(order: order, rounds: pairedRounds, pairing: try PairedSeries.pair(pairedRounds), rawTests: raw, environments: environments)
    }

    /// Labels every sample with the process round and position instead of the in-process ones.
    static func relabel(_ tests: [TestResult], round: Int, position: Int) -> [TestResult] {
        tests.map { test in
            var t = test
            for m in t.measurements.indices {
                for s in t.measurements[m].series.indices {
                    let n = t.measurements[m].series[s].values.count
                    t.measurements[m].series[s].rounds = Array(repeating: round, count: n)
                    t.measurements[m].series[s].positions = Array(repeating: position, count: n)
                }
            }
            return t
        }
    }

    func environment(for revision: PreparedRevision) -> Environment? { environments[revision.name] }

    func runOrderLines(a: PreparedRevision, b: PreparedRevision) -> [String] {
        order.rounds.enumerated().map { round, arms in
            "round \(round + 1): " + arms.map { $0 == 0 ? "A (\(a.name))" : "B (\(b.name))" }.joined(separator: ", ")
        }
    }

    func summarySection(a: PreparedRevision, b: PreparedRevision, elapsedSeconds: Int) -> String {
        """
        ## Design

        A = `\(a.name)` at \(a.commit.prefix(12)), B = `\(b.name)` at \(b.commit.prefix(12)), each built once in release with pinned code alignment (functions and blocks on 64-byte boundaries). \
        \(order.rounds.count) rounds; in every round each arm's measured tests ran in a fresh process, in ABBA order with a seeded block phase. \
        Each round pairs the two processes: the per-round figure is the median of that process's samples. Change is the Hodges–Lehmann estimate of the per-round ratios B/A (on their logarithms) \
        with its exact signed-rank 95% CI; p is the Wilcoxon signed-rank test of the log ratios against the noise band's edge, adjusted with Benjamini–Hochberg across the decisions. Took \(elapsedSeconds) s.
        """
    }

    /// A table of diagnostics for the wall-clock series: order effect, drift, warnings.
    static func diagnosticsSection(_ paired: [PairedSeries]) throws -> String {
        var lines = [
            "## Diagnostics (wall clock)", "",
            "| test / measurement [arm, phase] | order effect (2nd vs 1st) | p | paired drift / round | machine drift / round | warnings |",
            "|---|--:|--:|--:|--:|---|",
        ]
        for series in paired where series.metric == .wallClock {
            let d = try PairedDiagnostics(series)
            let name = MarkdownReport.shortName(series.test)
            lines.append(
                "| \(name) / \(series.measurement) [\(series.arm), \(series.phase)] | \(MarkdownReport.percent(1 + d.orderEffect)) | \(Format.pValue(d.orderEffectP)) | \(MarkdownReport.percent(1 + d.driftPerRound)) | \(MarkdownReport.percent(1 + d.machineDriftPerRound)) | \(d.warnings.isEmpty ? "none" : d.warnings.joined(separator: "; ")) |"
            )
        }
        return lines.joined(separator: "\n")
    }
}
