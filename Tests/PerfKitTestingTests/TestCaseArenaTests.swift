import Foundation
import PerfKit
import PerfKitTesting
import Synchronization
import Testing

/// Each test case of a counting process starts on an arena of its own (``PinnedHeap/startTestCase()``).
///
/// What an earlier case of a parameterized test left on the measured thread's heap, or what the harness's threads free
/// of it later, never moves where a later case's objects sit.
///
/// Found on a package shaped like a real one (Documentation/Evidence.md):
/// an `OrderedDictionary` benchmark over four sizes counted its second case's first sample 1,481
/// instructions (0.07%) apart in two counting runs of one binary, in swift-collections' probing.
@Suite(.serialized) struct TestCaseArenaTests {
    /// What the first case leaves on the heap, for the process's life.
    static let leftovers = Mutex<[CountedNode]>([])

    /// A parameterized fixture.
    ///
    /// Case 0 leaves as many objects on the measured thread's heap as the process's heap pad says (0, 5,000 or 11,000:
    /// each process of ``CountingRunTests/shifts`` leaves another amount); case 1 then counts work that follows where
    /// its own objects sit.
    @Test(.performance(samples: 3), arguments: [0, 1]) func casesAfterLeftovers(index: Int) throws {
        guard index == 1 else {
            let pad = getenv(SimulatedCounter.heapPadVariable).flatMap { Int(String(cString: $0)) } ?? 0
            let kept = (0..<(pad * 1_000)).map(CountedNode.init)
            Self.leftovers.withLock { $0 += kept }
            try measure("leftovers") { countedWork(100) }
            return
        }
        let nodes = (0..<500).map(CountedNode.init)
        let table = UnsafeMutableBufferPointer<UInt>.allocate(capacity: 1_031)
        defer { table.deallocate() }
        try measure("after-leftovers") { identityTable(nodes, table) }
    }

    /// The second case counts the same in every process, whatever the first case left.
    ///
    /// With one arena for both cases, its objects followed the first case's and its probes differed.
    @Test func aLaterCaseCountsTheSameWhateverAnEarlierCaseLeftOnTheHeap() throws {
        guard Jemalloc.isLinked else { return }
        try CountingRunTests.withCountingSetup { setup in
            let tests = try CountingRunTests.count(
                "TestCaseArenaTests/casesAfterLeftovers", setup: setup, heapPads: CountingRunTests.shifts)
            let series = try #require(
                tests.flatMap(\.measurements).first { $0.name == "after-leftovers" }?.series.first {
                    $0.metric == .instructions
                })
            #expect(series.processCount == CountingRunTests.shifts.count)
            CountingRunTests.expectEveryProcessCountsTheSame(series.values)
        }
    }
}
