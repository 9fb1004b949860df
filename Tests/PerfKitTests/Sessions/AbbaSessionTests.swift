import Foundation
import PerfKit
import Testing

/// Stands in for measured processes.
///
/// Answers each request with a prepared result (B `effect` times slower than A, seeded uniform noise of ±`noise`),
/// records the order of requests, moves a fake clock `secondsPerProcess` a process, and can fail. With `noisyTest` it
/// also reports a second test whose noise is ±10%. With `mallocsOfB` set, a process not told that another one took the
/// exact counts also reports an exact allocation count: 10 in A, `mallocsOfB` in B.
private final class FakeLauncher: MeasuredProcessLauncher {
    var requests: [MeasuredProcessRequest] = []
    var effect = 1.0
    var noise = 0.002
    var noisyTest = false
    var statusOfB: Int32 = 0
    var generator = SeededGenerator(seed: 11)
    var now = 0.0
    var secondsPerProcess = 1.0
    var mallocsOfB: Double?
    var mallocsOfBGrow = false

    func value(_ isB: Bool, noise: Double) -> Double {
        100_000 * (1 + noise * (Double(generator.index(below: 2_001)) / 1_000 - 1)) * (isB ? effect : 1)
    }

    func measure(_ request: MeasuredProcessRequest) throws -> MeasuredProcessOutcome {
        requests.append(request)
        now += secondsPerProcess
        let isB = request.directory == "b"
        if isB && statusOfB > 1 {
            throw OrchestrationError.measuredProcessFailed(description: "the measured process of b", status: statusOfB)
        }
        func result(_ id: String, noise: Double) -> TestResult {
            var series = SampleSeries(metric: .wallClock, arm: "main", phase: .warm)
            let value = value(isB, noise: noise)
            for i in 0..<3 { series.append(value, round: i, position: 0, index: i) }
            var all = [series]
            if let mallocsOfB, request.environment["PERFKIT_EXACT_COUNTS"] != "elsewhere" {
                var mallocs = SampleSeries(metric: .mallocs, arm: "main", phase: .warm)
                if isB && mallocsOfBGrow { self.mallocsOfB = mallocsOfB + 1 }
                mallocs.append(isB ? mallocsOfB : 10, round: 0, position: 0, index: 0)
                all.append(mallocs)
            }
            return TestResult(
                id: id, suite: "S",
                measurements: [MeasurementResult(name: "m", arms: ["main"], order: [], series: all, unavailable: [])])
        }
        let tests = [result("S/t()", noise: noise)] + (noisyTest ? [result("S/noisy()", noise: 0.10)] : [])
        return MeasuredProcessOutcome(tests: tests, status: isB ? statusOfB : 0)
    }
}

@Suite struct AbbaSessionTests {
    static let a = AbbaSession.Side(revision: Revision(name: "main", directory: "a", commit: "aaa"), bundle: "a.xctest")
    static let b = AbbaSession.Side(
        revision: Revision(name: ".", directory: "b", commit: "bbb"), bundle: "b.xctest", environment: ["X": "1"])
    static let bands = NoiseBands(defaultRelative: 0.01)

    private static func run(_ launcher: FakeLauncher, plan: SequentialPlan, seed: UInt64 = 0, timeBudget: Double? = nil)
        throws -> AbbaSession
    {
        try AbbaSession.run(
            a: a, b: b, plan: plan, timeBudget: timeBudget, bands: bands, filter: "Benchmarks/", samples: nil,
            seed: seed, launcher: launcher,
            clock: { launcher.now })
    }

    @Test func processesRunInABBAOrderAndArePairedRoundByRound() throws {
        let launcher = FakeLauncher()
        launcher.mallocsOfB = 10
        let session = try Self.run(launcher, plan: .fixed(rounds: 8))
        // Two processes a round, in the run order's sequence; B's extra environment reaches only B.
        #expect(launcher.requests.map(\.directory) == session.order.rounds.flatMap { $0.map { $0 == 0 ? "a" : "b" } })
        #expect(launcher.requests.count == 16)
        // After the first ABBA block (4 processes) the exact counts are left to it.
        let elsewhere = ["PERFKIT_EXACT_COUNTS": "elsewhere"]
        #expect(launcher.requests.prefix(4).filter { $0.directory == "b" }.allSatisfy { $0.environment == ["X": "1"] })
        #expect(launcher.requests.prefix(4).filter { $0.directory == "a" }.allSatisfy { $0.environment.isEmpty })
        #expect(
            launcher.requests.dropFirst(4).filter { $0.directory == "b" }.allSatisfy {
                $0.environment == elsewhere.merging(["X": "1"]) { $1 }
            })
        #expect(
            launcher.requests.dropFirst(4).filter { $0.directory == "a" }.allSatisfy { $0.environment == elsewhere })
        #expect(session.pairing.paired.count == 1 && session.pairing.paired[0].baseline.count == 8)
        #expect(session.pairing.unpaired.map(\.metric) == [.mallocs])
        #expect(session.rounds.map(\.currentRanSecond) == session.order.rounds.map { $0 == [0, 1] })
        // Raw samples are relabelled with the process round and position.
        let raw = try #require(session.rawTests.first { $0.side == "B" }?.tests)
        #expect(raw.count == 8)
        #expect(raw[3].measurements[0].series[0].rounds == [3, 3, 3])
        #expect(session.failedProcesses.isEmpty)
    }

    @Test(arguments: [(effect: 1.10, verdict: Verdict.regressed), (effect: 1.0, verdict: Verdict.withinNoise)])
    func aSlowerBIsARegressionAndAnEqualOneIsNot(effect: Double, verdict: Verdict) throws {
        let launcher = FakeLauncher()
        launcher.effect = effect
        let comparison = try Self.run(launcher, plan: .fixed(rounds: 10), seed: 1).comparison
        #expect(comparison.rows[0].verdict == verdict)
        #expect(ExitStatus.of(comparison, failOnRegression: true) == (verdict == .regressed ? 1 : 0))
        #expect(ExitStatus.of(comparison, failOnRegression: false) == 0)
    }

    @Test(arguments: [(extra: 0.0, verdict: Verdict.unchanged), (extra: 2.0, verdict: Verdict.regressed)])
    func exactCountsOfTheFirstBlockAreJudgedExactly(extra: Double, verdict: Verdict) throws {
        let launcher = FakeLauncher()
        launcher.mallocsOfB = 10 + extra
        let comparison = try Self.run(launcher, plan: .fixed(rounds: 10), seed: 3).comparison
        let mallocs = try #require(comparison.rows.first { $0.metric == .mallocs })
        #expect(mallocs.verdict == verdict)
        #expect(mallocs.baseline?.median == 10 && mallocs.current?.median == 10 + extra)
    }

    /// An exact count that grows in B's processes: taken only in the first block, so not paired.
    private static func unpairedMallocs() throws -> ComparisonRow {
        let launcher = FakeLauncher()
        launcher.mallocsOfB = 10
        launcher.mallocsOfBGrow = true
        let comparison = try Self.run(launcher, plan: .fixed(rounds: 10), seed: 3).comparison
        return try #require(comparison.rows.first { $0.metric == .mallocs })
    }

    @Test func anExactCountThatDiffersBetweenTheFirstBlocksProcessesIsNotJudged() throws {
        let mallocs = try Self.unpairedMallocs()
        #expect(mallocs.verdict == .inconclusive)
        #expect(mallocs.reason == .notPaired)
    }

    /// Rendering: the note of an unpaired exact count says where it was taken.
    @Test func theNoteOfAnUnpairedCountSaysWhereItWasTaken() throws {
        let mallocs = try Self.unpairedMallocs()
        #expect(mallocs.note.hasPrefix("an exact count that differs between the processes of the first ABBA block"))
        #expect(mallocs.note.contains("in A in 2 of 10 rounds, in B in 2"))
    }

    @Test func aProcessInWhichATestFailedIsKeptAndListed() throws {
        let launcher = FakeLauncher()
        launcher.statusOfB = 1
        let session = try Self.run(launcher, plan: .fixed(rounds: 6), seed: 2)
        #expect(session.failedProcesses.count == 6)
        #expect(session.failedProcesses[0].contains("B (.)") && session.failedProcesses[0].contains("exit 1"))
        #expect(
            session.designSection(a: Self.a.revision, b: Self.b.revision, elapsedSeconds: 1).contains(
                "a measured test failed"))
        #expect(
            session.designSection(a: Self.a.revision, b: Self.b.revision, elapsedSeconds: 1).contains(
                "Exact counts (allocations) come from the processes of the first 2 rounds"))
    }

    @Test func aProcessThatEndsAbnormallyStopsTheSessionAsAChildFailure() {
        let launcher = FakeLauncher()
        launcher.statusOfB = 139
        #expect {
            try Self.run(launcher, plan: .fixed(rounds: 6), seed: 3)
        } throws: { error in
            (error as? OrchestrationError)?.isChildFailure == true && String(describing: error).contains("status 139")
        }
    }
}

/// The adaptive design: looks, early stopping, decisions kept, the time budget.
@Suite struct SequentialAbbaTests {
    static let a = AbbaSessionTests.a, b = AbbaSessionTests.b

    /// Rendering: the note of a series decided at a look says which look.
    @Test func theNoteOfADecidedSeriesSaysAtWhichLook() throws {
        let session = try Self.run(FakeLauncher(), maximumRounds: 60)
        #expect(session.comparison.rows[0].note.contains("decided at look 1 of 5, 10 rounds"))
    }

    private static func run(_ launcher: FakeLauncher, maximumRounds: Int, timeBudget: Double? = nil) throws
        -> AbbaSession
    {
        try AbbaSession.run(
            a: a, b: b, plan: SequentialPlan(maximumRounds: maximumRounds), timeBudget: timeBudget,
            bands: AbbaSessionTests.bands, filter: "x",
            samples: nil, seed: 5, launcher: launcher, clock: { launcher.now })
    }

    @Test(arguments: [
        (maximum: 60, looks: [10, 16, 24, 36, 60]), (maximum: 10, looks: [10]), (maximum: 20, looks: [10, 16, 20]),
        (maximum: 25, looks: [10, 16, 25]),
    ])
    func looksGrowByHalfAndEndAtTheMaximum(maximum: Int, looks: [Int]) {
        let plan = SequentialPlan(maximumRounds: maximum)
        #expect(plan.looks == looks)
        #expect(plan.alphaPerLook == 0.05 / Double(looks.count))
        #expect(plan.looks.allSatisfy { $0.isMultiple(of: 2) || $0 == maximum })
    }

    @Test(arguments: [
        (effect: 1.0, verdict: Verdict.withinNoise), (effect: 1.2, verdict: Verdict.regressed),
        (effect: 0.8, verdict: Verdict.improved),
    ])
    func aSessionWhoseSeriesAreAllDecidedStopsAtTheFirstLook(effect: Double, verdict: Verdict) throws {
        let launcher = FakeLauncher()
        launcher.effect = effect
        let session = try Self.run(launcher, maximumRounds: 60)
        #expect(launcher.requests.count == 20)
        #expect(session.looks.map(\.rounds) == [10])
        #expect(session.stopReason == "every statistical series decided at look 1")
        #expect(session.comparison.rows.map(\.verdict) == [verdict])
        // The interval is at the look's level (1 − 0.05 / 5), and the answer says so.
        #expect(session.comparison.rows[0].confidence == 0.99)
        if verdict == .regressed {
            #expect(ReportHeadline(session.comparison, direction: "B against A").lines.joined().contains("(99% CI +"))
            #expect(
                SVGChart.changes(session.comparison.rows, title: "warm").contains(
                    "change of the median with its 99% CI"))
        }
    }

    @Test func aDecidedSeriesKeepsItsVerdictWhileANoisyOneRunsToTheLastLook() throws {
        let launcher = FakeLauncher()
        launcher.noisyTest = true
        let session = try Self.run(launcher, maximumRounds: 24)
        #expect(session.looks.map(\.rounds) == [10, 16, 24])
        #expect(session.looks.map(\.decided) == [1, 1, 1])
        #expect(session.stopReason == "the plan's last look (24 rounds)")
        let quiet = try #require(session.comparison.rows.first { $0.test == "S/t()" })
        let noisy = try #require(session.comparison.rows.first { $0.test == "S/noisy()" })
        #expect(quiet.verdict == .withinNoise)
        #expect(noisy.verdict == .inconclusive)
        // The open row names its failing gate and what these rounds could detect.
        #expect(noisy.reason == .tooNoisy && noisy.detectableChange != nil)
        #expect(noisy.replicatedOver == .rounds)
        let detectable = try #require(noisy.detectableChange)
        #expect(detectable > 0.01 + (noisy.change!.upper - noisy.change!.lower) / 2 / noisy.change!.value * 0.9)
    }

    @Test(arguments: [
        (
            budget: 40.0, looks: [10, 16, 20],
            reason: "the time budget: a last look at 20 rounds instead of 24, the rounds that fit 40 s"
        ),
        (budget: 35.0, looks: [10, 16], reason: "the time budget: the next look (24 rounds) would end after 35 s"),
    ])
    func theTimeBudgetShortensOrSkipsALookThatWouldEndAfterIt(budget: Double, looks: [Int], reason: String) throws {
        let launcher = FakeLauncher()
        launcher.noisyTest = true
        // Two seconds a round: look 1 ends at 20 s, look 2 (16 rounds) at 32 s, look 3 (24) would
        // end at 48 s. Within 40 s, 4 more rounds fit (a quarter of 16: enough for a last look);
        // within 35 s only 1, so the session stops.
        let session = try Self.run(launcher, maximumRounds: 60, timeBudget: budget)
        #expect(session.looks.map(\.rounds) == looks)
        #expect(session.order.rounds.count == looks.last! && launcher.requests.count == 2 * looks.last!)
        #expect(session.stopReason.hasPrefix(reason))
        // The fake clock moves one second a process: each look's time is exactly two a round.
        #expect(session.looks.map(\.seconds) == looks.map { 2 * Double($0) })
        // 2 decisions at 0.01 need p ≤ 0.005: 8 pairs would do, so 16 rounds raise no floor warning.
        #expect(session.floorWarning == nil)
    }

    @Test(arguments: [(maximum: 9, refused: true), (maximum: 10, refused: false)])
    func anAdaptivePlanEndingBeforeTheFirstLookIsRefused(maximum: Int, refused: Bool) {
        #expect((AbbaSession.roundsProblem(maximum, adaptive: true) != nil) == refused)
    }

    /// 40 noisy series of 10 rounds judged at α = 0.01.
    static func floorComparison() throws -> Comparison {
        // 40 noisy series of 10 rounds judged at α = 0.01: a lone change needs p ≤ 0.01 / 40 =
        // 0.00025, but 10 pairs cannot go below 1 / 1024.
        var generator = SeededGenerator(seed: 3)
        let paired = (0..<40).map { k in
            var series = PairedSeries(
                test: "S/t\(k)()", measurement: "m", arm: "main", phase: .warm, metric: .wallClock)
            for r in 0..<10 {
                series.baseline.append(100_000)
                series.current.append(100_000 * (1 + 0.4 * (Double(generator.index(below: 1_001)) / 1_000 - 0.5)))
                series.currentRanSecond.append(r % 2 == 0)
            }
            return series
        }
        return try Comparison(
            paired: Pairing(paired: paired, unpaired: []), bands: AbbaSessionTests.bands, alpha: 0.01,
            environmentA: nil, environmentB: nil)
    }

    @Test func anInconclusiveRowNamesTheSignificanceFloorFirst() throws {
        let comparison = try Self.floorComparison()
        let open = comparison.rows.filter { $0.verdict == .inconclusive }
        #expect(!open.isEmpty)
        #expect(open.allSatisfy { $0.reason == .significanceFloor })
        #expect(comparison.rows.allSatisfy { $0.smallestP == 1.0 / 1_024 })
        #expect(SequentialPlan(maximumRounds: 60).roundsForALoneChange(decisions: 40) == 12)
    }

    /// Rendering: the floor's note gives the smallest p the sample sizes allow.
    @Test func theSignificanceFloorsNoteGivesTheSmallestP() throws {
        let open = try Self.floorComparison().rows.filter { $0.verdict == .inconclusive }
        #expect(
            open.allSatisfy {
                $0.note.hasPrefix("significance floor: the smallest p these sample sizes allow is 0.00098")
            })
    }

    @Test func aSessionStoppedBelowTheFloorSaysWhichRoundsWouldDo() throws {
        // Many noisy series and a budget that allows only the first look: 10 rounds cannot make a
        // lone change significant among them, and the warning names the rounds and the remedy.
        let launcher = FakeLauncher()
        launcher.noisyTest = true
        let session = try AbbaSession.run(
            a: Self.a, b: Self.b, plan: SequentialPlan(maximumRounds: 60, alpha: 0.0005), timeBudget: 21,
            bands: AbbaSessionTests.bands, filter: "x",
            samples: nil, seed: 5, launcher: launcher, clock: { launcher.now })
        #expect(session.order.rounds.count == 10)
        let warning = try #require(session.floorWarning)
        #expect(
            warning.hasPrefix(
                "after 10 rounds a change in one series alone cannot reach significance among 2 decisions"))
        #expect(warning.hasSuffix("15 rounds could; raise --time-budget or narrow --filter"))
        #expect(session.warnings().contains(warning))
    }
}

@Suite struct ChildNumbersTests {
    @Test(arguments: [
        (output: "not json at all", problem: "15 bytes that are not a JSON object of numbers"),
        (output: "{\"residentMemory\": \"many\"}", problem: "not a JSON object of numbers"),
        (output: "{\"residentBefore\": 1}", problem: "printed no 'residentMemory'"),
        (output: "", problem: "0 bytes"),
    ])
    func brokenOutputOfAChildIsAOneLineErrorNotACrash(output: String, problem: String) {
        #expect {
            try ChildNumbers.decode(
                Data(output.utf8), from: "child process 'perfkit calendar memory'", requiring: ["residentMemory"])
        } throws: { error in
            let text = String(describing: error)
            return (error as? OrchestrationError)?.isChildFailure == true && text.contains("perfkit calendar memory")
                && text.contains(problem)
                && !text.contains("\n")
        }
    }

    @Test func aWellFormedObjectIsDecoded() throws {
        let values = try ChildNumbers.decode(
            Data("{\"residentMemory\": 123, \"items\": 4}".utf8), from: "child", requiring: ["residentMemory"])
        #expect(values == ["residentMemory": 123, "items": 4])
    }

    @Test func aChildThatFailsIsNamedWithItsStatus() {
        #expect {
            try ChildNumbers.run("/bin/sh", ["-c", "exit 7"])
        } throws: { error in
            String(describing: error).contains("failed (exit 7)")
        }
    }
}

@Suite struct AbbaRulesTests {
    @Test(arguments: [
        (rounds: 2, refused: true), (rounds: 5, refused: true), (rounds: 6, refused: false),
        (rounds: 30, refused: false),
    ])
    func roundsThatCanNeverReachSignificanceAreRefusedWithTheReason(rounds: Int, refused: Bool) {
        let problem = AbbaSession.roundsProblem(rounds)
        #expect((problem != nil) == refused)
        if let problem { #expect(problem.contains("can never reach significance") && problem.contains("at least 6")) }
    }
}
