import Foundation
import PerfKit
import PerfKitTesting
import Testing

/// Counting runs of async bodies: their child tasks, actors, tasks and Dispatch hand-offs counted with them, the same
/// in every run.
extension CountingRunTests {
    /// Async bodies are counted whole, on the thread async bodies run on (``AsyncRunner``).
    ///
    /// A task group's children, an actor's calls and a stream's producer task are in the count, and two counting runs
    /// agree, with the Jemalloc trait: exactly for the fan-out's, the actor's, the leaking cycle's and the plain async
    /// body's instructions and releases; within the count tolerance for the stream (5 instructions in 1 of 6 samples,
    /// seen once). Without it the heap is named unpinned. The Dispatch hand-off's thread is not counted, and its count
    /// follows when that thread resumes the body: it is left out here, as the docs say.
    @Test func asyncBodiesAreCountedWholeAndRepeat() throws {
        try Self.withCountingSetup { setup in
            var runs: [[String: [Double]]] = []
            for _ in 0..<2 {
                let tests = try Self.count(
                    "ConcurrentFixtureTests/(taskGroupFanOut|actorPingPong|streamPipeline|leakingCycle)|"
                        + "CountingRunTests/asyncWork", setup: setup)
                var values: [String: [Double]] = [:]
                for measurement in tests.flatMap(\.measurements) {
                    #expect(measurement.unavailable.isEmpty, "\(measurement.name): \(measurement.unavailable)")
                    for series in measurement.series {
                        values["\(measurement.name) \(series.metric.name)"] = series.values
                    }
                    // Without the Jemalloc trait the measured thread's heap cannot be pinned, and every
                    // count says so: glibc's malloc moved the fan-out by 0.08% and a ping-pong's releases
                    // by 1 between two runs in a fresh clone's CI, so no repeat is claimed there.
                    for series in measurement.series where series.metric == .instructions && !Jemalloc.isLinked {
                        #expect(series.heapUnpinned != nil, "\(measurement.name)")
                    }
                }
                runs.append(values)
            }
            let (first, second) = (runs[0], runs[1])
            for name in ["fan-out", "ping-pong", "pipeline", "leaking-cycle", "async"] {
                let (a, b) = (first["\(name) instructions"] ?? [], second["\(name) instructions"] ?? [])
                #expect(!a.isEmpty && !b.isEmpty, "\(name): \(first.keys.sorted())")
                #expect(first["\(name) retains"]?.isEmpty == false, "\(name)")
                // Unpinned, a test is counted in as many processes as its shift check asks for.
                guard Jemalloc.isLinked else { continue }
                #expect(a.count == b.count, "\(name)")
                // The pipeline's producer is an unstructured task: with no task-local bound in the body's task, it
                // copies nothing and counts the same every run (it moved by multiples of 41 before).
                #expect(a == b, "\(name): \(a) \(b)")
                #expect(first["\(name) releases"] == second["\(name) releases"], "\(name)")
            }
            // The children's work is in the count: 8 children building 200 elements each.
            let fanOut = try #require(first["fan-out instructions"]?.min())
            #expect(fanOut > 8 * 200 * 3, "\(fanOut)")
        }
    }

    /// Work a body hands to a Dispatch queue and waits for is counted with it.
    ///
    /// The preloaded shim carries the counted region into the queued block (``ConcurrentFixtures/dispatchHandOff(_:)``:
    /// 500 steps of ``countedWork(_:)`` on the queue's thread). Two counting runs agree exactly, the process's first
    /// sample too: the warm-up's worker is let go back to waiting first (``AsyncRunner``), else that sample's wake-up
    /// path moved it by 96 of 36,609 instructions. So does a queue that resumes the body at once: the shim holds the
    /// block until the body's thread sleeps (``perfkit_doorbell_make``), where it moved by up to 1.5%; a block the
    /// body does not wait for is let go when the region starts waiting for its blocks, and is counted the same too.
    @Test func workHandedToADispatchQueueIsCountedWithTheBody() throws {
        try Self.withCountingSetup { setup in
            var runs: [[String: [Double]]] = []
            for _ in 0..<2 {
                let tests = try Self.count(
                    #"ConcurrentFixtureTests/dispatch(HandOff(AtOnce)?|FireAndForget)\(\)"#, setup: setup)
                var values: [String: [Double]] = [:]
                for measurement in tests.flatMap(\.measurements) {
                    values[measurement.name] = measurement.series.first { $0.metric == .instructions }?.values
                }
                runs.append(values)
            }
            let loop = try #require(
                try Self.count("CountingRunTests/countedLoop", setup: setup).first?.measurements.first?.series.first {
                    $0.metric == .instructions
                })
            for name in ["dispatch-hand-off", "dispatch-at-once", "dispatch-fire-and-forget"] {
                let (first, second) = (runs[0][name] ?? [], runs[1][name] ?? [])
                // 500 steps on the queue's thread: at least a quarter of the 2,000-step loop's count.
                #expect(
                    !first.isEmpty && first.allSatisfy { $0 > loop.values.min()! / 4 },
                    "\(name): \(first) against \(loop.values)")
                if Jemalloc.isLinked { #expect(first == second, "\(name)") }
            }
        }
    }

    @Test func aBodyWithAThreadOfItsOwnIsCountedWithItAndSaysSo() throws {
        try Self.withCountingSetup { setup in
            // 3,000 steps on the thread: more than the 2,000 steps of countedLoop's longer body.
            var lines: [String] = []
            let threaded = try Self.count("CountingRunTests/threadedLoop", setup: setup, progress: { lines.append($0) })
            let series = try #require(threaded.first?.measurements.first?.series.first { $0.metric == .instructions })
            let loop = try #require(
                try Self.count("CountingRunTests/countedLoop", setup: setup).first?.measurements.first?.series.first {
                    $0.metric == .instructions
                })
            #expect(series.threadsStarted == Array(repeating: 1, count: series.values.count))
            #expect(series.values.allSatisfy { $0 > loop.values.min()! })
            #expect(lines.contains { $0.contains("1 count series have bodies that start threads") })
        }
    }
}
