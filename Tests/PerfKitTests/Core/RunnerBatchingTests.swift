import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// A fast subject whose state counts calls.
///
/// Three cells created a call (a running total), its call count as a level, and two 16-byte arrays allocated a call.
private struct FastSubject: MeasurableSubject {
    static let created = Metric("cellsCreated", unit: .count, isDeterministic: true)
    static let calls = Metric("callsSoFar", unit: .count, isDeterministic: true)
    var phases: [Phase] { Phase.allPhases }
    var allowsBatching = true
    func makeState() -> [Int] { [] }
    func run(_ state: inout [Int]) -> Int {
        state.append(3)
        return state.count
    }
    func evict(_ state: inout [Int]) {}
    func counters(_ state: [Int]) -> [CounterReading] {
        [
            CounterReading(Self.created, Double(state.count * 3), accumulation: .runningTotal),
            CounterReading(Self.calls, Double(state.count)),
        ]
    }
}

/// A fast subject that allocates one buffer of a fixed size a call and keeps nothing.
private struct AllocatingSubject: MeasurableSubject {
    var phases: [Phase] { Phase.allPhases }
    var allowsBatching = true
    func makeState() -> Int { 0 }
    func run(_ state: inout Int) -> Int {
        let buffer = [UInt8](repeating: 1, count: 200)
        return buffer.count &+ state
    }
    func evict(_ state: inout Int) {}
}

@Suite struct RunnerBatchingTests {
    /// A 20 ms target, which a body of a few nanoseconds cannot reach in one call.
    ///
    /// A 20 ms target: a body of a few nanoseconds cannot reach it in one call unless the thread is
    /// preempted for 20 ms, so "more than one call" holds on a loaded machine too (at 50 µs, one
    /// preemption during the first call made it one call: the test failed under a mutation check's load).
    let configuration = RunConfiguration(
        samples: 4, warmupCalls: 1, metrics: [.wallClock, .threadCPU], exactCountRounds: 0,
        batchTargetNanoseconds: 20_000_000)

    @Test func aFastWarmBodyIsTimedManyCallsPerSampleAndRecordedPerCall() throws {
        let result = try Runner(configuration: configuration).measure("fast", arms: [Arm("main", FastSubject())])
        let wall = try #require(result.series(.wallClock, arm: "main", phase: .warm))
        let calls = try #require(wall.callsPerSample)
        #expect(calls.count == 4)
        #expect(
            calls.allSatisfy { $0 == calls[0] } && calls[0] > 1, "calibrated once per arm and phase, more than one call"
        )
        // A batched arm's counters are not read over its timed samples (their calls follow the clock)
        // but in the untimed pass, one call a sample, even with no exact-count rounds.
        #expect(result.series(FastSubject.created, arm: "main", phase: .warm)?.values == [3, 3, 3])
        var none = configuration
        none.counterRounds = 0
        let unread = try Runner(configuration: none).measure("fast", arms: [Arm("main", FastSubject())])
        #expect(unread.series(FastSubject.created, arm: "main", phase: .warm) == nil)
    }

    /// The counters of a batchable arm come from the untimed pass, one call a sample.
    ///
    /// The counters of a batchable arm come from the untimed pass, one call a sample, so they do not
    /// move with the batch size the clock picked (the warm scroll's moved 12% with load before);
    /// which pass reads them does not depend on the clock either.
    @Test func aBatchedArmsCountersAreReadOneCallASampleInTheUntimedPass() throws {
        var untimed = configuration
        untimed.counterRounds = 3
        let result = try Runner(configuration: untimed).measure("fast", arms: [Arm("main", FastSubject())])
        // A running total is recorded per call (3 cells), never per sample (3 × k) or cumulatively.
        let created = try #require(result.series(FastSubject.created, arm: "main", phase: .warm))
        #expect(created.values == [3, 3, 3])
        #expect(created.callsPerSample == nil)
        // A level is recorded as read after the sample: one call further each time.
        let level = try #require(result.series(FastSubject.calls, arm: "main", phase: .warm)?.values)
        #expect(zip(level, level.dropFirst()).allSatisfy { $1 - $0 == 1 })
    }

    /// A batched sample's bytes are divided by its calls like its time.
    ///
    /// A warm value (k calls) equals a cold one (one call), exactly (found by the mutation check: values per sample, k
    /// times too large, went unnoticed because no test read an additive metric of a batched sample).
    @Test func aBatchedSampleRecordsBytesPerCall() throws {
        var configuration = configuration
        configuration.metrics = [.wallClock, .bytesAllocated]
        let result = try Runner(configuration: configuration).measure("alloc", arms: [Arm("main", AllocatingSubject())])
        // Without jemalloc (the trait off) bytes are unavailable: nothing to check.
        guard !result.unavailable.contains(where: { $0.metric == Metric.bytesAllocated.name }) else { return }
        let warm = try #require(result.series(.bytesAllocated, arm: "main", phase: .warm))
        let cold = try #require(result.series(.bytesAllocated, arm: "main", phase: .cold))
        #expect(try #require(warm.callsPerSample).allSatisfy { $0 > 1 })
        #expect(cold.callsPerSample == nil)
        #expect(Set(warm.values) == Set(cold.values), "warm \(warm.values), cold \(cold.values)")
        #expect(Set(warm.values).count == 1)
    }

    @Test(arguments: [Phase.cold, Phase.eviction])
    func coldAndEvictionSamplesStayOneCall(phase: Phase) throws {
        let result = try Runner(configuration: configuration).measure("fast", arms: [Arm("main", FastSubject())])
        let wall = try #require(result.series(.wallClock, arm: "main", phase: phase))
        #expect(wall.callsPerSample == nil)
        #expect(wall.minimumCallsPerSample == 1)
    }

    @Test func aSubjectThatCannotRepeatIsTimedOneCallPerSample() throws {
        var subject = FastSubject()
        subject.allowsBatching = false
        let result = try Runner(configuration: configuration).measure("fast", arms: [Arm("main", subject)])
        #expect(result.series(.wallClock, arm: "main", phase: .warm)?.callsPerSample == nil)
        // one warm-up run, then one call a sample
        #expect(result.series(FastSubject.calls, arm: "main", phase: .warm)?.values == [2, 3, 4, 5])
    }

    @Test(arguments: [
        (calls: 1, elapsed: UInt64(50_000), next: Int?.none),  // one call already reaches the target
        (calls: 1, elapsed: UInt64(40), next: 10),  // grows at most 10× a step
        (calls: 1_000, elapsed: UInt64(40_000), next: 2_000),  // at least 2× a step
        (calls: 100, elapsed: UInt64(20_000), next: 300),  // aims at 1.2 × target: 60,000 / 200 ns
        (calls: 1 << 20, elapsed: UInt64(1), next: Int?.none),  // the cap stops it
    ])
    func calibrationGrowsTowardTheTarget(calls: Int, elapsed: UInt64, next: Int?) {
        #expect(Batching.nextCalls(after: calls, took: elapsed) == next)
    }

    @Test func calibrationReachesTheTargetOnARealBody() {
        var sink = 0
        let calls = Batching.calibrate(target: 20_000_000) { sink &+= 1 }
        blackHole(sink)
        #expect(calls > 1)
        #expect(calls <= Batching.maximumCalls)
    }

    @Test func callsPerSampleSurviveMergingAndAreValidatedOnLoad() throws {
        var batched = SampleSeries(metric: .wallClock, arm: "main", phase: .warm)
        batched.append(40, round: 0, position: 0, index: 0, calls: 1_250)
        let single = Build.series(.wallClock, values: [41])
        #expect(single.callsPerSample == nil, "a one-call series writes no calls, so its JSON is unchanged")
        let m = { (s: SampleSeries) in
            MeasurementResult(name: "m", arms: ["main"], order: [[0]], series: [s], unavailable: [])
        }
        let merged = [TestResult].merging(processes: [
            [TestResult(id: "S/t()", suite: "S", measurements: [m(batched)], budgets: [])],
            [TestResult(id: "S/t()", suite: "S", measurements: [m(single)], budgets: [])],
        ])
        let series = merged[0].measurements[0].series[0]
        #expect(series.callsPerSample == [1_250, 1])
        #expect(series.minimumCallsPerSample == 1)
    }
}

@Suite struct BatchingCheckTests {
    /// Structure only: the check's figures are times, judged by `perfkit doctor --batching` in a release build.
    @Test func theCheckComparesTheRunnerWithAPlainLoopAndPairsTheChangedBody() throws {
        // 20 ms: see RunnerBatchingTests
        let check = try BatchingCheck.run(rounds: 4, loopCalls: 10_000, loops: 1, batchTarget: 20_000_000)
        #expect(check.steps == 33 && check.changedSteps == 34)
        #expect(check.callsPerSample > 1)
        #expect(check.measuredPerCall.isFinite && check.loopPerCall.isFinite && check.changedLoopPerCall.isFinite)
        #expect(check.row.metric == .wallClock && check.row.phase == .warm)
        #expect(check.row.change != nil, "four ABBA rounds give a paired estimate")
    }
}
