import Foundation
import PerfKit
import PerfKitTestSupport
import PerfKitTesting
import Testing

private final class Node {
    var value: Int
    init(_ value: Int) { self.value = value }
}

@inline(never) private func makeNodes(_ count: Int) -> Int {
    var total = 0
    for i in 0..<count {
        let node = Node(i)
        blackHole(node)
        total &+= node.value
    }
    return total
}

private struct Policy: MeasurableSubject {
    var cost: Int
    var phases: [Phase] { Phase.allPhases }
    func makeState() -> Int { 0 }
    func run(_ state: inout Int) -> Int {
        state += 1
        return makeNodes(cost)
    }
}

/// Measured tests bind their thread to a private allocator arena while counting; run them one at a time.
@Suite(.serialized) struct MeasuredTestTests {
    static let debugOrSmoke = PerformanceMode(
        kind: .smoke, buildConfiguration: "debug", resultsDirectory: nil, sampleOverride: nil)
    static let measuringRelease = PerformanceMode(
        kind: .measure, buildConfiguration: "release", resultsDirectory: nil, sampleOverride: nil)

    @Test(.performance(samples: 50))
    func plainSwiftTestRunsInSmokeMode() throws {
        let result = try measure("nodes") { makeNodes(10) }
        let wall = try #require(result.series(.wallClock, arm: "main", phase: .warm))
        #expect(wall.values.count == PerformanceMode.smokeRounds)
        if Jemalloc.isLinked {
            #expect(result.series(.mallocs, arm: "main", phase: .warm)?.values == [10])
        }
    }

    /// The budgets below are handed to the scope directly, not attached to these tests as traits,
    /// so the failures they cause can be expected here.
    static func budget(_ trait: BudgetTrait) -> [Budget] { [trait.budget] }

    @Test(.enabled(if: Jemalloc.isLinked))
    func deterministicBudgetFailsWhenExceeded() async throws {
        try await withKnownIssue("10 allocations against a budget of 0") {
            try await PerformanceTrait.performance(samples: 3).measureScope(
                testID: "S/t()", suite: "S", budgets: Self.budget(.budget(.mallocs, max: 0))
            ) {
                try measure("nodes") { makeNodes(10) }
            }
        } matching: { issue in
            // Only the budget's own failure counts, not any issue the body might record.
            issue.description.contains("mallocs budget max ≤ 0") && issue.description.contains("10 exceeds 0")
        }
    }

    @Test(.enabled(if: Jemalloc.isLinked))
    func deterministicBudgetPassesWhenMetExactly() async throws {
        try await PerformanceTrait.performance(samples: 3).measureScope(
            testID: "S/t()", suite: "S", budgets: Self.budget(.budget(.mallocs, max: 10))
        ) {
            try measure("nodes") { makeNodes(10) }
        }
    }

    @Test func aBudgetWithoutAPerformanceTraitFailsSayingWhatToAdd() throws {
        let budget = BudgetTrait.budget(.mallocs, max: 0).budget
        #expect(
            BudgetTrait.unjudgedMessage(budget, traits: [BudgetTrait.budget(.mallocs, max: 0)])?.contains(
                "add .performance() to the test or its suite") == true
        )
        #expect(
            BudgetTrait.unjudgedMessage(
                budget, traits: [PerformanceTrait.performance(), BudgetTrait.budget(.mallocs, max: 0)]) == nil)
    }

    @Test func aBudgetOnAMetricNoMeasurementRecordsFails() async throws {
        try await withKnownIssue("residentMemory is not recorded by default") {
            try await PerformanceTrait.performance(samples: 3).measureScope(
                testID: "S/t()", suite: "S", budgets: Self.budget(.budget(.residentMemory, max: 1))
            ) {
                try measure("nodes") { makeNodes(10) }
            }
        } matching: { issue in
            issue.description.contains("no measurement records residentMemory; add it to .performance(metrics:)")
        }
    }

    @Test func aPerformanceTestThatMeasuresNothingFails() async throws {
        try await withKnownIssue("a time budget and no measure call") {
            try await PerformanceTrait.performance(samples: 3).measureScope(
                testID: "S/empty()", suite: "S", budgets: Self.budget(.budget(.directInteraction))
            ) {}
        } matching: { issue in
            issue.description.contains("called no measure(…)")
        }
    }

    @Test func deterministicBudgetIsJudgedExactlyAtItsBoundary() {
        let series = Build.series(.mallocs, values: [10])
        let result = MeasurementResult(name: "m", arms: ["main"], order: [[0]], series: [series], unavailable: [])
        for (limit, expected) in [(9.0, BudgetStatus.failed), (10.0, .passed), (11.0, .passed)] {
            let budget = BudgetTrait.budget(.mallocs, max: limit).budget
            #expect(budget.judge([result], mode: Self.debugOrSmoke).map(\.outcome.status) == [expected])
        }
    }

    @Test(arguments: [(index: 0, judged: 1), (index: 3, judged: 0)])
    func onlyTheFirstProcessOfASplitRunCountsAndJudgesExactAllocations(index: Int, judged: Int) {
        let mode = PerformanceMode(
            kind: .measure, buildConfiguration: "release", resultsDirectory: nil, sampleOverride: nil,
            processes: 8, processIndex: index)
        #expect(mode.leavesExactCountsToAnotherProcess == (index > 0))
        // The other processes skip the exact pass, so they record no mallocs: no judgement there
        // (the first process's stands for the run), never a failure for a metric never recorded.
        let empty = MeasurementResult(name: "m", arms: ["main"], order: [[0]], series: [], unavailable: [])
        let judgements = BudgetTrait.budget(.mallocs, max: 0).budget.judge([empty], mode: mode)
        #expect(judgements.count == judged)
        if judged == 1 { #expect(judgements[0].outcome.status == .failed) }
        // A time budget is still judged in every process.
        #expect(BudgetTrait.budget(.wallClock, p95: .milliseconds(1)).budget.judge([empty], mode: mode).count == 1)
    }

    /// package-benchmark's limits are p90s: a time budget takes one (`perfkit check --as-budgets`).
    @Test func aTimeBudgetTakesAP90() {
        let budget = BudgetTrait.budget(.wallClock, p90: .nanoseconds(1_500)).budget
        #expect(budget.limits.map(\.percentile) == [90])
        #expect(budget.limits.map(\.value) == [1_500])
    }

    /// `--samples` is a total as a test's own samples are, split once the same way.
    ///
    /// A counting process takes `--count-samples` per arm and phase and never reads `--samples`.
    @Test func forcedSamplesAreATotalSplitLikeATestsOwn() {
        let declared = RunConfiguration(samples: 30)
        func mode(forced: Int?, processes: Int) -> PerformanceMode {
            PerformanceMode(
                kind: .measure, buildConfiguration: "release", resultsDirectory: nil, sampleOverride: forced,
                processes: processes)
        }
        #expect(mode(forced: nil, processes: 8).configuration(from: declared).samples == 4)
        #expect(mode(forced: 30, processes: 8).configuration(from: RunConfiguration(samples: 100)).samples == 4)
        #expect(mode(forced: 3, processes: 8).configuration(from: declared).samples == 2)
        #expect(mode(forced: 1, processes: 1).configuration(from: declared).samples == 1)
        #expect(mode(forced: 7, processes: 1).configuration(from: declared).samples == 7)
        let counting = PerformanceMode(
            kind: .measure, buildConfiguration: "release", resultsDirectory: nil, sampleOverride: 30,
            countSampleOverride: 5)
        #expect(counting.countSampleOverride == 5 && counting.sampleOverride == 30)
    }

    @Test(arguments: [(elsewhere: false, exactRounds: 3), (elsewhere: true, exactRounds: 0)])
    func anAbbaProcessAfterTheFirstBlockSkipsExactCountsButKeepsItsRounds(elsewhere: Bool, exactRounds: Int) {
        let mode = PerformanceMode(
            kind: .measure, buildConfiguration: "release", resultsDirectory: nil, sampleOverride: nil,
            exactCountsElsewhere: elsewhere)
        let configuration = mode.configuration(from: RunConfiguration(samples: 40, exactCountRounds: 3))
        #expect(configuration.samples == 40)
        #expect(configuration.exactCountRounds == exactRounds)
        #expect(mode.leavesExactCountsToAnotherProcess == elsewhere)
        // Its exact-count budgets are judged in the processes that counted, not failed here.
        let empty = MeasurementResult(name: "m", arms: ["main"], order: [[0]], series: [], unavailable: [])
        #expect(BudgetTrait.budget(.mallocs, max: 0).budget.judge([empty], mode: mode).count == (elsewhere ? 0 : 1))
    }

    @Test func aBudgetOnAnUnavailableMetricIsNotJudgedNeverPassedOnZero() {
        let result = MeasurementResult(
            name: "m", arms: ["main"], order: [], series: [],
            unavailable: [UnavailableMetric(metric: "mallocs", reason: "built without the Jemalloc trait")])
        let judgements = BudgetTrait.budget(.mallocs, max: 0).budget.judge([result], mode: Self.measuringRelease)
        #expect(judgements.map(\.outcome.status) == [.notJudged])
        #expect(judgements[0].message.contains("built without the Jemalloc trait"))
    }

    @Test func timeBudgetIsNotJudgedInDebugOrSmokeMode() {
        let series = Build.series(.wallClock, values: Array(repeating: 50_000_000, count: 5))
        let result = MeasurementResult(name: "m", arms: ["main"], order: [], series: [series], unavailable: [])
        let budget = BudgetTrait.budget(.directInteraction).budget
        let notJudged = budget.judge([result], mode: Self.debugOrSmoke)
        #expect(notJudged.map(\.outcome.status) == [.notJudged])
        #expect(notJudged[0].message.contains("smoke mode"))
        let debugMeasure = PerformanceMode(
            kind: .measure, buildConfiguration: "debug", resultsDirectory: nil, sampleOverride: nil)
        #expect(budget.judge([result], mode: debugMeasure)[0].message.contains("debug build"))
        #expect(budget.judge([result], mode: Self.measuringRelease).map(\.outcome.status) == [.failed])
    }

    @Test func localActionTargetIsAWarningAndCeilingAFailure() {
        let series = Build.series(.wallClock, values: Array(repeating: 60_000_000, count: 20))
        let result = MeasurementResult(name: "m", arms: ["main"], order: [], series: [series], unavailable: [])
        let judgements = BudgetTrait.budget(.localAction).budget.judge([result], mode: Self.measuringRelease)
        #expect(judgements.map(\.outcome.status) == [.targetMissed])
        // The trait records a warning for it (it recorded nothing before BudgetStatus was typed).
        var recorded: [(String, Issue.Severity)] = []
        PerformanceTrait.recordIssue(for: judgements[0], at: #_sourceLocation) { comment, severity, _ in
            recorded.append((comment.rawValue, severity))
        }
        #expect(recorded.map(\.1) == [.warning])
        #expect(recorded.first?.0 == judgements[0].message)
    }

    @Test func everyBudgetStatusRecordsItsIssue() {
        let cases: [(BudgetStatus, Issue.Severity?)] = [
            (.passed, nil), (.failed, .error), (.notJudged, .warning), (.targetMissed, .warning),
        ]
        for (status, expected) in cases {
            let judgement = Budget.Judgement(
                outcome: BudgetOutcome(
                    measurement: "m", arm: "main", phase: .warm, metric: "wallClock", budget: "b", status: status,
                    detail: ""),
                message: "message")
            var severities: [Issue.Severity] = []
            PerformanceTrait.recordIssue(for: judgement, at: #_sourceLocation) { _, severity, _ in
                severities.append(severity)
            }
            #expect(severities == (expected.map { [$0] } ?? []), "\(status)")
        }
    }

    @Test(.performance(samples: 4))
    func armsAreRecordedWithBalancedPositionsAndPhasesApart() throws {
        let result = try measure(
            "policies", arms: [Arm("reference", Policy(cost: 20)), Arm("native", Policy(cost: 5))])
        #expect(result.phases == [.cold, .warm, .eviction])
        for phase in Phase.allPhases {
            let reference = try #require(result.series(.wallClock, arm: "reference", phase: phase))
            let native = try #require(result.series(.wallClock, arm: "native", phase: phase))
            #expect(reference.positions.filter { $0 == 0 }.count == native.positions.filter { $0 == 0 }.count)
            if Jemalloc.isLinked {
                #expect(result.series(.mallocs, arm: "reference", phase: phase)?.values.allSatisfy { $0 == 20 } == true)
                #expect(result.series(.mallocs, arm: "native", phase: phase)?.values.allSatisfy { $0 == 5 } == true)
            }
        }
    }

    @Test func runFileRoundTripsThroughItsSchema() throws {
        let result = try Runner(
            configuration: RunConfiguration(samples: 2, warmupCalls: 0, metrics: [.wallClock, .mallocs])
        )
        .measure("m", arms: [Arm("main", Policy(cost: 3))])
        let environment = Environment(
            commit: "abc", branch: "main", dirty: false, swiftVersion: "6.3.1", buildConfiguration: "debug",
            machine: MachineFingerprint(
                cpuModel: "cpu", cores: 2, kernel: "6", operatingSystem: "os", governor: nil, memoryBytes: 1 << 30),
            allocator: "jemalloc")
        let run = RunFile(
            date: Date(timeIntervalSince1970: 1_800_000_000), mode: "smoke", environment: environment,
            tests: [TestResult(id: "S/t()", suite: "S", measurements: [result])])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("perfkit-roundtrip-\(UUID()).json")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try run.write(to: path)
        #expect(try RunFile.read(from: path) == run)
    }
}

@Suite struct AsyncMeasurementTests {
    @Test(.performance(samples: 4))
    func asyncBodiesCountTheirThreadAndNameWhatTheyCannot() async throws {
        let result = try await measure(
            "sleep",
            async: {
                try await Task.sleep(for: .microseconds(50)); return 1
            })
        #expect(result.series(.wallClock, arm: "main", phase: .warm)?.values.count == PerformanceMode.smokeRounds)
        #expect(result.series(.threadCPU, arm: "main", phase: .warm) == nil)
        #expect(result.unavailable.contains { $0.metric == "threadCPU" && $0.reason.contains("Dispatch") })
        // Allocations are counted on the thread every job of the body runs on (``AsyncRunner``).
        if Jemalloc.isLinked {
            #expect(result.series(.mallocs, arm: "main", phase: .warm)?.values.isEmpty == false)
        } else {
            #expect(result.unavailable.contains { $0.metric == "mallocs" })
        }
    }
}

/// `.performance()` on a suite measures each of its tests, and budgets on those tests are judged
/// (the budget's own check sees the suite's trait).
@Suite(.serialized, .performance(samples: 4)) struct SuiteLevelPerformanceTests {
    @Test(.budget(.mallocs, max: 100))
    func aTestUnderASuiteTraitIsMeasuredAndItsBudgetJudged() throws {
        let result = try measure("nodes") { makeNodes(3) }
        #expect(result.series(.wallClock, arm: "main", phase: .warm)?.values.count == PerformanceMode.smokeRounds)
        #expect(
            PerformanceContext.current?.testID.hasSuffix(
                "SuiteLevelPerformanceTests/aTestUnderASuiteTraitIsMeasuredAndItsBudgetJudged()") == true)
    }
}

/// The arguments of a parameterized case are read, so each case is a series of its own.
@Suite struct TestCaseArgumentsTests {
    @Test(arguments: [100, 10_000])
    func aCasesArgumentsAreRead(n: Int) throws {
        let testCase = try #require(TestCaseArguments.read(Test.Case.current, function: "M.S/f(n:)"))
        #expect(testCase.id == "M.S/f(n:) n = \(n)")
        #expect(testCase.size == Double(n))
    }

    @Test(arguments: ["a b"], [1, 2])
    func severalArgumentsAreReadInOrder(s: String, k: Int) throws {
        let testCase = try #require(TestCaseArguments.read(Test.Case.current, function: "f(s:k:)"))
        #expect(testCase.label == "s = \"a b\", k = \(k)")
        #expect(testCase.size == Double(k))
    }

    @Test func aTestThatIsNotParameterizedHasNoCase() {
        #expect(TestCaseArguments.read(Test.Case.current, function: "f()") == nil)
    }
}

/// A count budget carried over from release figures is judged in release only.
@Suite struct BudgetBuildTests {
    @Test func aReleaseBudgetIsNotJudgedInDebug() throws {
        let result = try Runner(configuration: RunConfiguration(samples: 2, warmupCalls: 1, exactCountRounds: 1))
            .measure("nodes", arms: [Arm("main", ClosureSubject { makeNodes(3) })])
        let budget = BudgetTrait.budget(.mallocs, max: 0, build: .release).budget
        let debug = budget.judge([result], mode: MeasuredTestTests.debugOrSmoke)
        #expect(debug.map(\.outcome.status) == [.notJudged])
        #expect(debug[0].message.contains("not judged in debug"))
        guard Jemalloc.isLinked else { return }
        let release = budget.judge([result], mode: MeasuredTestTests.measuringRelease)
        #expect(release.map(\.outcome.status) == [.failed])
    }
}
