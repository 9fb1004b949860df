import PerfKit
import Testing

/// A subject whose state counts runs, so phases can be told apart by what they observe.
private struct CountingSubject: MeasurableSubject {
    static let runsSinceFresh = Metric("runsSinceFresh", unit: .count, isDeterministic: true)
    static let evictions = Metric("evictions", unit: .count, isDeterministic: true)
    struct State {
        var runs = 0
        var evictions = 0
    }
    var phases: [Phase] { Phase.allPhases }
    func makeState() -> State { State() }
    func run(_ state: inout State) -> Int {
        state.runs += 1
        return state.runs
    }
    func evict(_ state: inout State) { state.evictions += 1 }
    func counters(_ state: State) -> [CounterReading] {
        [
            CounterReading(Self.runsSinceFresh, Double(state.runs)),
            CounterReading(Self.evictions, Double(state.evictions)),
        ]
    }
}

/// Uses exact allocator counts, which bind the calling thread to a private arena.
@Suite(.serialized) struct RunnerTests {
    /// One call per sample: these tests count runs, and batching would add calls (see RunnerBatchingTests).
    let configuration = RunConfiguration(
        samples: 4, warmupCalls: 2, metrics: [.wallClock, .mallocs], exactCountRounds: 2, batchTargetNanoseconds: 0)

    @Test func phasesStartFromTheStateTheyPromise() throws {
        let result = try Runner(configuration: configuration).measure("count", arms: [Arm("main", CountingSubject())])
        #expect(result.phases == [.cold, .warm, .eviction])
        #expect(result.series(CountingSubject.runsSinceFresh, arm: "main", phase: .cold)?.values == [1, 1, 1, 1])
        #expect(result.series(CountingSubject.runsSinceFresh, arm: "main", phase: .warm)?.values == [3, 4, 5, 6])
        #expect(result.series(CountingSubject.evictions, arm: "main", phase: .eviction)?.values == [1, 2, 3, 4])
    }

    @Test func armsRunInABBAOrderWithLabelledSamples() throws {
        let result = try Runner(configuration: configuration).measure(
            "ab", arms: [Arm("reference", CountingSubject()), Arm("native", CountingSubject())])
        #expect(result.order == [[0, 1], [1, 0], [0, 1], [1, 0]])
        let reference = try #require(result.series(.wallClock, arm: "reference", phase: .warm))
        let native = try #require(result.series(.wallClock, arm: "native", phase: .warm))
        #expect(reference.positions == [0, 1, 0, 1])
        #expect(native.positions == [1, 0, 1, 0])
        #expect(reference.rounds == [0, 1, 2, 3])
        #expect(reference.sampleIndices == [0, 1, 2, 3])
    }

    @Test(.enabled(if: Jemalloc.isLinked))
    func exactCountsRunInTheirOwnPass() throws {
        let result = try Runner(configuration: configuration).measure("count", arms: [Arm("main", CountingSubject())])
        let mallocs = try #require(result.series(.mallocs, arm: "main", phase: .warm))
        #expect(mallocs.values == [0, 0])
        #expect(result.series(.wallClock, arm: "main", phase: .warm)?.values.count == 4)
    }
}

/// A subject whose counters are a running total (cells created since fresh state) and a level.
private struct GrowingSubject: MeasurableSubject {
    static let created = Metric("cellsCreated", unit: .count, isDeterministic: true)
    static let live = Metric("liveCells", unit: .count, isDeterministic: true)
    var phases: [Phase] { Phase.allPhases }
    func makeState() -> [Int] { [] }
    func run(_ state: inout [Int]) -> Int {
        state.append(contentsOf: [1, 2, 3])  // three cells a run
        return state.count
    }
    func evict(_ state: inout [Int]) { state.removeAll() }
    func counters(_ state: [Int]) -> [CounterReading] {
        [
            CounterReading(Self.created, Double(state.count), accumulation: .runningTotal),
            CounterReading(Self.live, Double(state.count)),
        ]
    }
}

@Suite struct RunnerCounterTests {
    @Test(arguments: Phase.allPhases)
    func runningTotalsAreRecordedPerRunNeverCumulatively(phase: Phase) throws {
        let configuration = RunConfiguration(
            samples: 5, warmupCalls: 2, metrics: [.wallClock], phases: [phase], exactCountRounds: 0,
            batchTargetNanoseconds: 0)
        let result = try Runner(configuration: configuration).measure("grow", arms: [Arm("main", GrowingSubject())])
        #expect(result.series(GrowingSubject.created, arm: "main", phase: phase)?.values == [3, 3, 3, 3, 3])
        let live = try #require(result.series(GrowingSubject.live, arm: "main", phase: phase)?.values)
        switch phase {
        case .cold: #expect(live == [3, 3, 3, 3, 3])  // a level, as read
        case .warm: #expect(live == [9, 12, 15, 18, 21])  // warm-up ran twice, then once per round
        default: #expect(live == [3, 3, 3, 3, 3])  // emptied before each eviction sample
        }
    }
}
