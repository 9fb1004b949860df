import Dispatch
import Foundation
import PerfKit
import PerfKitTesting
import Testing

/// A leak is what stays per call once the body's caches are filled, not what is alive when one call's window closes.
///
/// Bodies that return what they make, or replace a global each call, keep nothing per call and read 0; a retain cycle
/// made each call reads its two objects; nothing reads below 0.
@Suite struct LeakDefinitionTests {
    /// The leaked allocations of a synchronous body, measured in this process.
    static func syncLeak(_ body: @escaping @Sendable () -> some Any) throws -> [Double]? {
        let result = try Runner(configuration: RunConfiguration(samples: 2, warmupCalls: 1, exactCountRounds: 3))
            .measure("leak", arms: [Arm("main", ClosureSubject { body() })])
        #expect(!result.unavailable.contains { $0.reason.contains("fell") }, "\(result.unavailable)")
        return result.series.first { $0.metric == .leakedAllocations }?.values
    }

    @Test func returnedValuesAreNotLeaks() throws {
        guard Jemalloc.isLinked else { return }
        #expect(try Self.syncLeak { LeakFixtures.threeObjects() } == [0])
        #expect(try Self.syncLeak { LeakFixtures.mappedArray() } == [0])
        #expect(try Self.syncLeak { LeakFixtures.string() } == [0])
        #expect(try Self.syncLeak { LeakFixtures.data() } == [0])
        #expect(try Self.syncLeak { LeakFixtures.dispatchData() } == [0])
    }

    @Test func aGlobalReplacedEachCallIsNotALeak() throws {
        guard Jemalloc.isLinked else { return }
        #expect(try Self.syncLeak { LeakFixtures.replaceGlobal() } == [0])
    }

    @Test func aCycleMadeEachCallReadsItsTwoObjects() throws {
        guard Jemalloc.isLinked else { return }
        #expect(try Self.syncLeak { ConcurrentFixtures.leakSyncCycle() } == [2])
    }

    @Test func anAsyncBodysReturnedObjectIsNotALeak() async throws {
        guard Jemalloc.isLinked else { return }
        let result = try await AsyncMeasureTests.run { await LeakFixtures.asyncObject() }
        #expect(AsyncMeasureTests.values(result, .leakedAllocations) == [0], "\(result.unavailable)")
    }

    /// Live allocations that fall across calls are a measurement error, named, never a negative leak.
    @Test func aFallIsNamedNotNegative() {
        guard Jemalloc.isLinked else { return }
        var kept: [LeakFixtures.Node] = (0..<64).map { _ in LeakFixtures.Node() }
        let growth = ExactAllocationCounter.leakedPerCall(calls: 2) {
            // Made before the window, freed inside it: never counted as the window's.
            if !kept.isEmpty { kept.removeLast(16) }
        }
        #expect(growth == .perCall(0))
        var made: [LeakFixtures.Node] = []
        var calls = 0
        let falling = ExactAllocationCounter.leakedPerCall(calls: 2) {
            calls += 1
            if calls <= 2 { made.append(contentsOf: (0..<4).map { _ in LeakFixtures.Node() }) } else { made = [] }
        }
        if case .fell = falling {} else { Issue.record("expected a fall, read \(falling)") }
    }
}

/// Bodies that keep nothing per call.
enum LeakFixtures {
    final class Node: @unchecked Sendable { var payload = 0 }

    /// The global a body replaces each call; only the measuring test touches it.
    nonisolated(unsafe) static var global: Node?

    @inline(never) static func threeObjects() -> (Node, Node, Node) { (Node(), Node(), Node()) }
    @inline(never) static func mappedArray() -> [Node] { [1, 2, 3].map { _ in Node() } }
    @inline(never) static func string() -> String { String(repeating: "perfkit ", count: 8) }
    @inline(never) static func data() -> Data { Data(repeating: 7, count: 256) }
    @inline(never) static func dispatchData() -> DispatchData {
        var data = DispatchData.empty
        for _ in 0..<3 { [UInt8](repeating: 1, count: 64).withUnsafeBytes { data.append($0) } }
        return data
    }
    @inline(never) static func replaceGlobal() -> Int {
        global = Node()
        return global!.payload
    }
    @inline(never) static func asyncObject() async -> Node {
        await Task.yield()
        return Node()
    }
}
