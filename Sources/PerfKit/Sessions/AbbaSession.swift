import Foundation
import PerfKitCore

/// The measured processes of one ABBA comparison of two revisions, paired round by round.
///
/// Each round runs each arm's measured tests in one fresh process, in the round's order (A B or
/// B A, counterbalanced in blocks with a seeded phase); the round's figure of a series is the
/// median of that process's samples, paired with the other arm's process of the same round.
package struct AbbaSession {
    /// What a look found (``SequentialLook``).
    package typealias Look = SequentialLook

    /// The run order (arm indices per round) of the rounds that ran.
    package var order: RunOrder
    /// Every round's results, A and B.
    package var rounds: [PairedSeries.Round]
    /// The series paired across rounds, and those that could not be.
    package var pairing: Pairing
    /// Raw results per side (`A`, `B`), every sample labelled with its process round and position.
    package var rawTests: [(side: String, tests: [TestResult])]
    /// One line per measured process that exited 1 (a test failed in it: a budget, an expectation);
    /// its results are kept, and the failure is in them.
    package var failedProcesses: [String]
    /// The plan the session followed.
    package var plan: SequentialPlan
    /// The looks taken, in order.
    package var looks: [Look]
    /// Why the session stopped adding rounds.
    package var stopReason: String
    /// The comparison, B against A: each series as judged at the look that decided it, the open ones as at the last
    /// look.
    ///
    /// Its environments are left for the caller to fill in.
    package var comparison: Comparison

    /// Runs rounds look by look until every statistical series is decided or the plan or budget ends.
    ///
    /// Runs rounds look by look until every statistical series is decided (CI inside the band, or
    /// outside it and significant), the plan's last look, or the time budget.
    /// - Parameters:
    ///   - a: Side A (the reference).
    ///   - b: Side B.
    ///   - plan: The looks and the error each spends (``SequentialPlan/fixed(rounds:alpha:)`` for one look).
    ///   - timeBudget: Seconds the rounds may take. When a look's rounds would, at the average
    ///     round's duration so far, end after the budget, it becomes a last look at the whole ABBA
    ///     blocks that still fit, if they add at least a quarter of the rounds run (and two);
    ///     otherwise the session stops. The first look always runs.
    ///   - bands: The noise bands the series are judged with.
    ///   - filter: Test filter.
    ///   - samples: Samples forced on each measured test inside a process, if any.
    ///   - seed: Seed of the block phase of the run order.
    ///   - launcher: Launches the measured processes.
    ///   - clock: Seconds on a monotonic scale (a fake in tests).
    ///   - progress: Receives one line per process and per look.
    /// - Returns: The session.
    /// - Throws: ``OrchestrationError`` when a process fails or matches no test; ``StatisticsError`` for non-finite
    ///   samples.
    package static func run(
        a: Side, b: Side, plan: SequentialPlan, timeBudget: Double? = nil, bands: NoiseBands, filter: String,
        samples: Int?, seed: UInt64,
        launcher: some MeasuredProcessLauncher, clock: () -> Double = { ProcessInfo.processInfo.systemUptime },
        progress: (String) -> Void = { _ in }
    ) throws -> AbbaSession {
        let sides = [a, b]
        let order = RunOrder(armCount: 2, roundCount: plan.maximumRounds, seed: seed)
        var pairedRounds: [PairedSeries.Round] = []
        var raw: [(side: String, tests: [TestResult])] = [("A", []), ("B", [])]
        var failed: [String] = []
        var decided: [SeriesID: ComparisonRow] = [:]
        var looks: [Look] = []
        var comparison = Comparison(rows: [])
        var pairing = Pairing(paired: [], unpaired: [])
        var stopReason = "the plan's last look (\(plan.maximumRounds) rounds)"
        let start = clock()
        looking: for (lookIndex, planned) in plan.looks.enumerated() {
            var target = planned, lastLook = false
            if lookIndex > 0, let timeBudget {
                switch Self.look(
                    planned: planned, done: pairedRounds.count, elapsed: clock() - start, budget: timeBudget)
                {
                case .asPlanned: break
                case .shortened(let fits, let reason):
                    (target, lastLook, stopReason) = (fits, true, reason)
                case .stop(let reason):
                    stopReason = reason
                    break looking
                }
            }
            while pairedRounds.count < target {
                let round = pairedRounds.count
                let outcome = try Self.runRound(
                    round, order: order.rounds[round], sides: sides, nextLook: target, filter: filter, samples: samples,
                    launcher: launcher, progress: progress)
                pairedRounds.append(outcome.paired)
                for index in 0..<2 { raw[index].tests += outcome.raw[index] }
                failed += outcome.failed
            }
            pairing = try PairedSeries.pair(pairedRounds)
            comparison = try Self.judge(
                pairing, bands: bands, plan: plan, look: lookIndex, rounds: target, decided: &decided)
            let open = comparison.rows.filter { $0.pValue != nil && $0.verdict == .inconclusive }.count
            looks.append(Look(rounds: target, decided: decided.count, open: open, seconds: clock() - start))
            progress(
                "perfkit abba: look \(lookIndex + 1) of \(plan.looks.count) at \(target) rounds: \(decided.count) "
                    + "series decided, \(open) open"
            )
            if open == 0 {
                stopReason = "every statistical series decided at look \(lookIndex + 1)"
                break
            }
            if lastLook { break }
        }
        return AbbaSession(
            order: RunOrder(rounds: Array(order.rounds.prefix(pairedRounds.count))), rounds: pairedRounds,
            pairing: pairing, rawTests: raw,
            failedProcesses: failed, plan: plan, looks: looks, stopReason: stopReason, comparison: comparison)
    }

    /// The comparison at a look.
    ///
    /// Series decided at an earlier look keep that verdict, and each series decided at this one is added to `decided`
    /// with the look named in its note.
    static func judge(
        _ pairing: Pairing, bands: NoiseBands, plan: SequentialPlan, look: Int, rounds: Int,
        decided: inout [SeriesID: ComparisonRow]
    ) throws -> Comparison {
        var comparison = try Comparison(
            paired: pairing, bands: bands, alpha: plan.alphaPerLook, decided: decided, environmentA: nil,
            environmentB: nil)
        for index in comparison.rows.indices
        where decided[comparison.rows[index].id] == nil && comparison.rows[index].isDecidedByTest {
            comparison.rows[index].note += " (decided at look \(look + 1) of \(plan.looks.count), \(rounds) rounds)"
            decided[comparison.rows[index].id] = comparison.rows[index]
        }
        return comparison
    }

    /// Where a look lands under a time budget.
    enum BudgetedLook: Equatable {
        /// At its planned rounds.
        case asPlanned
        /// A last, shorter look at the whole ABBA blocks that still fit, and why.
        case shortened(Int, String)
        /// No look: the session stops, and why.
        case stop(String)
    }

    /// The look planned at `planned` rounds when `done` rounds took `elapsed` seconds of `budget`.
    ///
    /// A shorter last look moves a look, never adds one, and where it lands depends on the pace of the rounds (A's time
    /// plus B's), not on the statistics judged at it: the Bonferroni bound over the plan's looks holds. It must add
    /// enough rounds to matter (a quarter, and two).
    static func look(planned: Int, done: Int, elapsed: Double, budget: Double) -> BudgetedLook {
        let perRound = elapsed / Double(done)
        guard elapsed + perRound * Double(planned - done) > budget else { return .asPlanned }
        let fits = done + Int(max(0, budget - elapsed) / perRound) / 2 * 2
        guard fits >= done + max(2, done / 4) else {
            return .stop(
                "the time budget: the next look (\(planned) rounds) would end after \(Int(budget)) s "
                    + "at \(Format.trim(perRound)) s a round")
        }
        return .shortened(
            fits,
            "the time budget: a last look at \(fits) rounds instead of \(planned), the rounds that fit "
                + "\(Int(budget)) s at \(Format.trim(perRound)) s a round")
    }

    /// One round: a fresh process of each side in the round's `order`, paired.
    ///
    /// Each process's tests relabelled with the round and its position; a failed measured test named.
    static func runRound(
        _ round: Int, order: [Int], sides: [Side], nextLook: Int, filter: String, samples: Int?,
        launcher: some MeasuredProcessLauncher, progress: (String) -> Void
    ) throws -> (paired: PairedSeries.Round, raw: [[TestResult]], failed: [String]) {
        let names = ["A", "B"]
        var results: [[TestResult]] = [[], []], raw: [[TestResult]] = [[], []], failed: [String] = []
        for (position, index) in order.enumerated() {
            let side = sides[index]
            progress(
                "perfkit abba: round \(round + 1) (next look at \(nextLook)), \(names[index]) "
                    + "(\(side.revision.name)), position \(position + 1)")
            var environment = side.environment
            if round >= Self.exactCountProcessRounds {
                environment[MeasuredProcessEnvironment.exactCounts] = MeasuredProcessEnvironment.exactCountsElsewhere
            }
            let outcome = try launcher.measure(
                MeasuredProcessRequest(
                    bundle: side.bundle, directory: side.revision.directory, filter: filter, samples: samples,
                    environment: environment))
            if outcome.status != 0 {
                failed.append(
                    "round \(round + 1), \(names[index]) (\(side.revision.name)): a measured test failed (exit "
                        + "\(outcome.status))")
            }
            results[index] = outcome.tests
            raw[index] = relabel(outcome.tests, round: round, position: position)
        }
        return (
            PairedSeries.Round(baseline: results[0], current: results[1], currentRanSecond: order == [0, 1]), raw,
            failed
        )
    }

    /// Rounds whose processes take the exact-count pass.
    ///
    /// The first ABBA block, so each revision's counts come from two processes (constant across them, or the row says
    /// it varies). Exact counts are the same in every process, and the pass, slow and cache-less, took about 40% of a
    /// calendar-suite process at `--samples 3` (README); later rounds skip it and buy more timing rounds with the time.
    package static let exactCountProcessRounds = 2

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

    /// What the report says about how the ABBA rounds ran: order, rounds, stopping rule (``AbbaDesign``).
    /// - Parameters:
    ///   - a: Side A's revision.
    ///   - b: Side B's revision.
    ///   - elapsedSeconds: Wall time of the whole comparison.
    /// - Returns: The design section's facts.
    package func design(a: Revision, b: Revision, elapsedSeconds: Int) -> AbbaDesign {
        AbbaDesign(
            a: .init(name: a.name, commit: a.commit), b: .init(name: b.name, commit: b.commit), order: order.rounds,
            exactCountProcessRounds: Self.exactCountProcessRounds, plan: plan, looks: looks, stopReason: stopReason,
            failedProcesses: failedProcesses, elapsedSeconds: elapsedSeconds)
    }

    /// The report's design section (``AbbaReport/designSection(_:)``).
    package func designSection(a: Revision, b: Revision, elapsedSeconds: Int) -> String {
        AbbaReport.designSection(design(a: a, b: b, elapsedSeconds: elapsedSeconds))
    }

    /// The fewest rounds of a fixed plan that can ever reach significance: with n pairs the
    /// smallest two-sided Wilcoxon p is 2 / 2ⁿ, 0.031 at 6.
    package static let minimumRounds = 6

    /// Why a plan of `rounds` rounds (fixed) or at most `rounds` (adaptive) can never give a
    /// verdict, or nil when it can.
    /// - Parameters:
    ///   - rounds: Requested rounds.
    ///   - adaptive: Whether they are the maximum of an adaptive plan.
    /// - Returns: One line saying why and what to use instead.
    package static func roundsProblem(_ rounds: Int, adaptive: Bool = false) -> String? {
        if adaptive {
            guard rounds < SequentialPlan.firstLook else { return nil }
            return
                "--max-rounds \(rounds) ends before the first look at \(SequentialPlan.firstLook) rounds; use at least "
                + "\(SequentialPlan.firstLook)"
        }
        guard rounds < minimumRounds else { return nil }
        return
            "--rounds \(rounds) can never reach significance: the smallest two-sided Wilcoxon p with \(rounds) pairs "
            + "is \(Format.pValue(2 / pow(2, Double(rounds)))); use at least \(minimumRounds) (10 or more to "
            + "survive Benjamini–Hochberg across a suite)"
    }

    /// A warning when the rounds that ran could not flag a change in one series alone.
    ///
    /// The floor is set by this comparison's decisions (the significance floor); the warning names the rounds
    /// that could and what stopped the session short of them; nil otherwise.
    package var floorWarning: String? {
        let decisions = comparison.rows.filter { $0.pValue != nil && $0.qValue != nil }.count
        let needed = plan.roundsForALoneChange(decisions: decisions)
        let ran = order.rounds.count
        guard decisions > 0, needed > ran,
            comparison.rows.contains(where: { $0.pValue != nil && $0.verdict == .inconclusive })
        else { return nil }
        let remedy =
            needed > plan.maximumRounds
            ? "allow \(needed) rounds (--max-rounds) or narrow --filter" : "raise --time-budget or narrow --filter"
        return
            "after \(ran) rounds a change in one series alone cannot reach significance among \(decisions) decisions "
            + "(the smallest p at \(ran) pairs is "
            + "\(String(format: "%.2g", SequentialPlan.signedRankFloor(pairs: ran))), a lone change needs "
            + "\(String(format: "%.2g", plan.alphaPerLook / Double(decisions)))): \(needed) rounds could; \(remedy)"
    }

    /// The report of the rounds' comparison (``AbbaReport/report(_:comparison:paired:command:)``).
    /// - Parameters:
    ///   - a: Side A's revision.
    ///   - b: Side B's revision.
    ///   - command: The command line, written at the top.
    ///   - elapsedSeconds: Wall time of the whole comparison.
    /// - Returns: The report, for ``ReportWriter``.
    /// - Throws: ``StatisticsError`` for non-finite values.
    package func report(a: Revision, b: Revision, command: String, elapsedSeconds: Int) throws -> MarkdownReport {
        try AbbaReport.report(
            design(a: a, b: b, elapsedSeconds: elapsedSeconds), comparison: comparison, paired: pairing.paired,
            command: command)
    }

    /// Warnings worth a line on the terminal.
    ///
    /// Processes in which a test failed, then the wall-clock diagnostics' warnings (order effect, drift), at most
    /// `limit` of each.
    /// - Parameter limit: Lines of each kind.
    /// - Returns: The lines.
    package func warnings(limit: Int = 5) -> [String] {
        let diagnostics = Set(
            // A series with non-finite rounds gets no diagnostics (its row is judged, or not, on its own).
            pairing.paired.filter { $0.metric == .wallClock }.compactMap { try? PairedDiagnostics($0) }.flatMap(
                \.warnings))
        return Array(failedProcesses.prefix(limit)) + (floorWarning.map { [$0] } ?? [])
            + Array(diagnostics.sorted().prefix(limit))
    }
}
