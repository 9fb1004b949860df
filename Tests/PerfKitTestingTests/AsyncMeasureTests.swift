import Foundation
import PerfKit
import PerfKitTesting
import Testing

/// Async bodies measured in this process (``AsyncRunner``): every job of the body on one thread,
/// so its allocations are counted exactly, call after call, and what it leaves behind is named.
/// The runtime's global jobs are not redirected here (tests run in parallel under `swift test`).
@Suite struct AsyncMeasureTests {
    static func run(_ body: () async throws -> some Any) async throws -> MeasurementResult {
        let configuration = RunConfiguration(samples: 3, warmupCalls: 2, exactCountRounds: 3)
        return try await AsyncRunner(configuration: configuration, redirectsGlobalJobs: false).measure("x", body)
    }

    static func values(_ result: MeasurementResult, _ metric: Metric) -> [Double]? {
        result.series.first { $0.metric == metric }?.values
    }

    /// A task group's children, and the actor a body awaits, run on the body's thread: their
    /// allocations are in the count, identical in every call (this debug build's figures), and
    /// nothing is left behind.
    @Test func childTasksAndActorCallsAreCountedExactly() async throws {
        guard Jemalloc.isLinked else { return }
        let fanOut = try await Self.run { await ConcurrentFixtures.fanOut() }
        let mallocs = try #require(Self.values(fanOut, .mallocs))
        // 8 children: each child task and its array at least.
        #expect(mallocs.allSatisfy { $0 == mallocs[0] && $0 >= 16 }, "\(mallocs)")
        #expect(Self.values(fanOut, .leakedAllocations) == [0, 0, 0])
        let pingPong = try await Self.run { await ConcurrentFixtures.pingPong(PingCounter()) }
        let pings = try #require(Self.values(pingPong, .mallocs))
        #expect(pings.allSatisfy { $0 == pings[0] }, "\(pings)")
        #expect(Self.values(pingPong, .leakedAllocations) == [0, 0, 0])
    }

    /// A body that leaks a two-object retain cycle per call reads 2 leaked allocations a call.
    @Test func leakedAllocationsAreCountedPerCall() async throws {
        let cycle = try await Self.run { await ConcurrentFixtures.leakCycle() }
        if Jemalloc.isLinked {
            #expect(Self.values(cycle, .leakedAllocations) == [2, 2, 2])
            #expect(Self.values(cycle, .mallocs) == [2, 2, 2])
        } else {
            #expect(cycle.unavailable.contains { $0.metric == Metric.leakedAllocations.name })
        }
    }

    /// Leaked descriptors are the process's (a descriptor table is not per thread), so they are
    /// exact only where nothing else opens or closes one during the call: a measured process of this
    /// bundle running one test at a time, as `perfkit run` runs tests. There, the cycle leaks no
    /// descriptor and a body that opens `/dev/null` and never closes it leaks 1 a call. (Under a
    /// parallel `swift test`, other suites' pipes read 6 or −1 here.)
    @Test func leakedDescriptorsAreCountedPerCallInAQuietProcess() throws {
        guard !SimulatedCounter.isCounting, !PerformanceMode.current.isMeasuring else { return }
        let outcome = try TestBundleLauncher().measure(
            MeasuredProcessRequest(
                bundle: CommandLine.arguments[0], directory: CountingRunTests.packageRoot,
                filter: "ConcurrentFixtureTests/leaking", samples: 3))
        func descriptors(_ name: String) -> [Double]? {
            let measurement = outcome.tests.flatMap(\.measurements).first { $0.name == name }
            return measurement.flatMap { Self.values($0, .leakedDescriptors) }
        }
        #expect(descriptors("leaking-cycle") == [0, 0, 0])
        #expect(descriptors("leaking-descriptor") == [1, 1, 1])
    }

    /// Work resumed from a Dispatch thread, whether the queue finished before the body suspended
    /// (0 µs) or after (1 ms), leaks nothing: the frees that thread makes are counted when made
    /// (jemalloc's hooks), and the continuation libdispatch keeps in the queue thread's cache (one a
    /// call, up to 1,024) is told apart by the stack that allocated it. Without the Jemalloc trait
    /// no allocation is counted, and the reason says so.
    @Test func workOnAnotherThreadLeaksNothing() async throws {
        let queue = DispatchQueue(label: "perfkit.test.handoff")
        for wait: UInt32 in [1_000, 0] {
            let result = try await Self.run { await ConcurrentFixtures.dispatchHandOff(queue, wait: wait) }
            #expect(Self.values(result, .wallClock)?.count == 3)
            guard Jemalloc.isLinked else {
                let reason = try #require(result.unavailable.first { $0.metric == Metric.leakedAllocations.name })
                #expect(reason.reason.contains("Jemalloc trait"), "\(reason.reason)")
                continue
            }
            #expect(Self.values(result, .leakedAllocations) == [0, 0, 0], "wait \(wait) µs")
            #expect(result.leakSites == nil)
            #expect(Self.values(result, .otherThreadMallocs)?.count == 3)
        }
    }

    /// A synchronous body's leaks come from the same exact-count pass (``Runner``).
    @Test func aSynchronousLeakIsCountedToo() throws {
        guard Jemalloc.isLinked else { return }
        let result = try Runner(configuration: RunConfiguration(samples: 2, warmupCalls: 1, exactCountRounds: 2))
            .measure("sync-leak", arms: [Arm("main", ClosureSubject { leakSynchronously() })])
        #expect(result.series.first { $0.metric == .leakedAllocations }?.values == [2, 2])
    }

    /// A budget can require no leaks: a leaking body fails it, with the count in the message.
    @Test func aLeakBudgetFailsWithTheCount() async throws {
        guard Jemalloc.isLinked else { return }
        let cycle = try await Self.run { await ConcurrentFixtures.leakCycle() }
        let budget = BudgetTrait.budget(.leakedAllocations, max: 0).budget
        let judgements = budget.judge([cycle], mode: PerformanceMode.current)
        #expect(judgements.map(\.outcome.status) == [.failed])
        #expect(judgements.first?.message.contains("2") == true)
        // Where the two blocks were made: the node's initializer, called from the leaking body.
        #expect(
            cycle.leakSites == [
                LeakSite(
                    function: "PerfKitTestingTests.CycleNode.__allocating_init() ← static "
                        + "PerfKitTestingTests.ConcurrentFixtures.leakCycle() async", perCall: 2)
            ])
        #expect(judgements.first?.message.contains("allocated at PerfKitTestingTests.CycleNode") == true)
    }
}

/// Makes a two-object cycle and drops it.
@inline(never) func leakSynchronously() -> Int {
    let a = CycleNode(), b = CycleNode()
    a.next = b
    b.next = a
    return 1
}
