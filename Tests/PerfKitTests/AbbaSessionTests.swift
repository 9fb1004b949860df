import Foundation
import PerfKit
import Testing

/// Stands in for measured processes: answers each request with a prepared result (B `effect`
/// times slower than A, a little seeded noise), records the order of requests, and can fail.
private final class FakeLauncher: MeasuredProcessLauncher {
    var requests: [MeasuredProcessRequest] = []
    var effect = 1.0
    var statusOfB: Int32 = 0
    var generator = SeededGenerator(seed: 11)

    func measure(_ request: MeasuredProcessRequest) throws -> MeasuredProcessOutcome {
        requests.append(request)
        let isB = request.directory == "b"
        let jitter = 1 + 0.002 * (Double(generator.index(below: 2_001)) / 1_000 - 1)
        let value = 100_000 * jitter * (isB ? effect : 1)
        if isB && statusOfB > 1 { throw OrchestrationError.measuredProcessFailed(description: "the measured process of b", status: statusOfB) }
        var series = SampleSeries(metric: .wallClock, arm: "main", phase: .warm)
        for i in 0..<3 { series.append(value, round: i, position: 0, iteration: i) }
        let result = TestResult(
            id: "S/t()", suite: "S", measurements: [MeasurementResult(name: "m", arms: ["main"], order: [], series: [series], unavailable: [])])
        return MeasuredProcessOutcome(tests: [result], status: isB ? statusOfB : 0)
    }
}

@Suite struct AbbaSessionTests {
    static let a = AbbaSession.Arm(revision: Revision(name: "main", directory: "a", commit: "aaa"), bundle: "a.xctest")
    static let b = AbbaSession.Arm(revision: Revision(name: ".", directory: "b", commit: "bbb"), bundle: "b.xctest", environment: ["X": "1"])

    @Test func processesRunInABBAOrderAndArePairedRoundByRound() throws {
        let launcher = FakeLauncher()
        let session = try AbbaSession.run(a: Self.a, b: Self.b, rounds: 8, filter: "Benchmarks/", iterations: nil, seed: 0, launcher: launcher)
        // Two processes a round, in the run order's sequence; B's extra environment reaches only B.
        #expect(launcher.requests.map(\.directory) == session.order.rounds.flatMap { $0.map { $0 == 0 ? "a" : "b" } })
        #expect(launcher.requests.count == 16)
        #expect(launcher.requests.filter { $0.directory == "b" }.allSatisfy { $0.environment == ["X": "1"] })
        #expect(launcher.requests.filter { $0.directory == "a" }.allSatisfy { $0.environment.isEmpty })
        #expect(session.pairing.paired.count == 1 && session.pairing.paired[0].a.count == 8)
        #expect(session.rounds.map(\.bRanSecond) == session.order.rounds.map { $0 == [0, 1] })
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
        let session = try AbbaSession.run(a: Self.a, b: Self.b, rounds: 10, filter: "x", iterations: nil, seed: 1, launcher: launcher)
        let comparison = try Comparison(paired: session.pairing, bands: NoiseBands(defaultRelative: 0.01), environmentA: nil, environmentB: nil)
        #expect(comparison.rows[0].verdict == verdict)
        #expect(ExitStatus.of(comparison, failOnRegression: true) == (verdict == .regressed ? 1 : 0))
        #expect(ExitStatus.of(comparison, failOnRegression: false) == 0)
    }

    @Test func aProcessInWhichATestFailedIsKeptAndListed() throws {
        let launcher = FakeLauncher()
        launcher.statusOfB = 1
        let session = try AbbaSession.run(a: Self.a, b: Self.b, rounds: 6, filter: "x", iterations: nil, seed: 2, launcher: launcher)
        #expect(session.failedProcesses.count == 6)
        #expect(session.failedProcesses[0].contains("B (.)") && session.failedProcesses[0].contains("exit 1"))
        #expect(session.designSection(a: Self.a.revision, b: Self.b.revision, elapsedSeconds: 1).contains("a measured test failed"))
    }

    @Test func aProcessThatEndsAbnormallyStopsTheSessionAsAChildFailure() {
        let launcher = FakeLauncher()
        launcher.statusOfB = 139
        #expect {
            try AbbaSession.run(a: Self.a, b: Self.b, rounds: 6, filter: "x", iterations: nil, seed: 3, launcher: launcher)
        } throws: { error in
            (error as? OrchestrationError)?.isChildFailure == true && String(describing: error).contains("status 139")
        }
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
            try ChildNumbers.decode(Data(output.utf8), from: "child process 'perfkit calendar memory'", requiring: ["residentMemory"])
        } throws: { error in
            let text = String(describing: error)
            return (error as? OrchestrationError)?.isChildFailure == true && text.contains("perfkit calendar memory") && text.contains(problem)
                && !text.contains("\n")
        }
    }

    @Test func aWellFormedObjectIsDecoded() throws {
        let values = try ChildNumbers.decode(Data("{\"residentMemory\": 123, \"items\": 4}".utf8), from: "child", requiring: ["residentMemory"])
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
    @Test(arguments: [(rounds: 2, refused: true), (rounds: 5, refused: true), (rounds: 6, refused: false), (rounds: 30, refused: false)])
    func roundsThatCanNeverReachSignificanceAreRefusedWithTheReason(rounds: Int, refused: Bool) {
        let problem = AbbaSession.roundsProblem(rounds)
        #expect((problem != nil) == refused)
        if let problem { #expect(problem.contains("can never reach significance") && problem.contains("at least 6")) }
    }
}
