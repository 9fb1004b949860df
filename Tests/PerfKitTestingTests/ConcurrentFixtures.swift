import Dispatch
import Foundation
import PerfKitTesting
import Testing

/// Bodies shaped like real concurrent packages, measured by ``ConcurrentFixtureTests`` and
/// checked by ``AsyncMeasureTests`` and ``CountingRunTests``.
enum ConcurrentFixtures {
    /// A task group of 8 children, each building one `[Int]` of 200 elements (`extra` more steps in
    /// the first child: the change a sensitivity check plants).
    static func fanOut(extra: Int = 0) async -> Int {
        await withTaskGroup(of: Int.self) { group in
            for child in 0..<8 {
                group.addTask { childWork(child, extra: child == 0 ? extra : 0) }
            }
            var total = 0
            for await value in group { total &+= value }
            return total
        }
    }

    /// A task group of `children` children, each making one object.
    ///
    /// `children` allocations of the body's own, plus what the runtime allocates for the group and each child task.
    static func objectsInChildren(_ children: Int) async -> Int {
        await withTaskGroup(of: Int.self) { group in
            for child in 0..<children {
                group.addTask { Counted(child).value }
            }
            var total = 0
            for await value in group { total &+= value }
            return total
        }
    }

    /// One child's work: an array of 200 and a loop over it.
    @inline(never) static func childWork(_ seed: Int, extra: Int) -> Int {
        let values = (0..<200).map { $0 &* 31 &+ seed }
        return values.reduce(0, &+) &+ countedWork(extra)
    }

    /// 100 awaited calls on an actor.
    static func pingPong(_ counter: PingCounter) async -> Int {
        var total = 0
        for i in 0..<100 { total &+= await counter.ping(i) }
        return total
    }

    /// A producer task feeding 50 values through an `AsyncStream` to the consumer (the body).
    static func pipeline() async -> Int {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
        let producer = Task {
            for i in 0..<50 { continuation.yield(i) }
            continuation.finish()
        }
        var total = 0
        for await value in stream { total &+= value }
        await producer.value
        return total
    }

    /// Work handed to a Dispatch queue and waited for.
    ///
    /// The queue waits `wait` µs first (1 ms: the body has suspended when the queue resumes it; 0: it may not have).
    static func dispatchHandOff(_ queue: DispatchQueue, wait: UInt32 = 1_000) async -> Int {
        await withCheckedContinuation { continuation in
            queue.async {
                if wait > 0 { usleep(wait) }
                continuation.resume(returning: countedWork(500))
            }
        }
    }

    /// Work queued on Dispatch that the body does not wait for.
    static func dispatchFireAndForget(_ queue: DispatchQueue) async -> Int {
        queue.async { _ = countedWork(500) }
        return 1
    }

    /// Leaks one two-object retain cycle per call.
    static func leakCycle() async -> Int {
        let a = CycleNode(), b = CycleNode()
        a.next = b
        b.next = a
        return ObjectIdentifier(a).hashValue & 1
    }

    /// Leaks one two-object retain cycle per call, synchronously.
    static func leakSyncCycle() -> Int {
        let a = CycleNode(), b = CycleNode()
        a.next = b
        b.next = a
        return ObjectIdentifier(a).hashValue & 1
    }

    /// Opens `/dev/null` and never closes it: one leaked descriptor per call.
    static func leakDescriptor() async -> Int32 {
        open("/dev/null", O_RDONLY)
    }
}

/// An actor the ping-pong body awaits.
actor PingCounter {
    private var count = 0
    /// Counts a ping and returns the running total.
    func ping(_ value: Int) -> Int {
        count &+= value
        return count
    }
}

/// One object a child task makes.
final class Counted: Sendable {
    let value: Int
    @inline(never) init(_ value: Int) { self.value = value &* 3 }
}

/// A node of a retain cycle.
final class CycleNode: @unchecked Sendable {
    // @unchecked: made and linked in one call, never shared between tasks.
    var next: CycleNode?
}

/// The concurrent fixtures as measured tests: counted in ``CountingRunTests`` (a counting run of this
/// bundle), smoke-measured under `swift test`.
@Suite struct ConcurrentFixtureTests {
    static let counter = PingCounter()
    static let queue = DispatchQueue(label: "perfkit.fixture.handoff")

    @Test(.performance(samples: 3)) func taskGroupFanOut() async throws {
        let extra = getenv(CountingRunTests.extraWorkVariable).map { Int(atoi($0)) } ?? 0
        try await measure("fan-out", async: { await ConcurrentFixtures.fanOut(extra: extra) })
    }

    @Test(.performance(samples: 3)) func actorPingPong() async throws {
        try await measure("ping-pong", async: { await ConcurrentFixtures.pingPong(Self.counter) })
    }

    @Test(.performance(samples: 3)) func streamPipeline() async throws {
        try await measure("pipeline", async: { await ConcurrentFixtures.pipeline() })
    }

    @Test(.performance(samples: 3)) func dispatchHandOff() async throws {
        try await measure("dispatch-hand-off", async: { await ConcurrentFixtures.dispatchHandOff(Self.queue) })
    }

    /// A hand-off whose queue does not wait: it may resume the body before it suspends.
    @Test(.performance(samples: 3)) func dispatchHandOffAtOnce() async throws {
        try await measure("dispatch-at-once", async: { await ConcurrentFixtures.dispatchHandOff(Self.queue, wait: 0) })
    }

    /// A block the body queues and does not wait for: counted while the region waits for its blocks.
    @Test(.performance(samples: 3)) func dispatchFireAndForget() async throws {
        try await measure(
            "dispatch-fire-and-forget", async: { await ConcurrentFixtures.dispatchFireAndForget(Self.queue) })
    }

    @Test(.performance(samples: 3)) func leakingCycle() async throws {
        try await measure("leaking-cycle", async: { await ConcurrentFixtures.leakCycle() })
    }

    @Test(.performance(samples: 3)) func leakingSyncCycle() throws {
        try measure("leaking-sync-cycle") { ConcurrentFixtures.leakSyncCycle() }
    }

    @Test(.performance(samples: 3)) func leakingDescriptor() async throws {
        try await measure("leaking-descriptor", async: { await ConcurrentFixtures.leakDescriptor() })
    }
}
