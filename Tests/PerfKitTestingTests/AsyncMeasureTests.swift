import Foundation
import PerfKit
import PerfKitTesting
import Testing

/// Async bodies measured in this process (``AsyncRunner``).
///
/// Every job of the body on one thread, so its allocations are counted exactly, call after call, and what it leaves
/// behind is named. The runtime's global jobs are not redirected here (tests run in parallel under `swift test`).
@Suite struct AsyncMeasureTests {
    static func run(_ body: () async throws -> some Any) async throws -> MeasurementResult {
        let configuration = RunConfiguration(samples: 3, warmupCalls: 2, exactCountRounds: 3)
        return try await AsyncRunner(configuration: configuration, redirectsGlobalJobs: false).measure("x", body)
    }

    static func values(_ result: MeasurementResult, _ metric: Metric) -> [Double]? {
        result.series.first { $0.metric == metric }?.values
    }

    /// A task group's children, and the actor a body awaits, run on the body's thread.
    ///
    /// Their allocations are in the count, identical in every call (this debug build's figures), and nothing is left
    /// behind.
    @Test func childTasksAndActorCallsAreCountedExactly() async throws {
        guard Jemalloc.isLinked else { return }
        let fanOut = try await Self.run { await ConcurrentFixtures.fanOut() }
        let mallocs = try #require(Self.values(fanOut, .mallocs))
        // 8 children: each child task and its array at least.
        #expect(mallocs.allSatisfy { $0 == mallocs[0] && $0 >= 16 }, "\(mallocs)")
        #expect(Self.values(fanOut, .leakedAllocations) == [0])
        let pingPong = try await Self.run { await ConcurrentFixtures.pingPong(PingCounter()) }
        let pings = try #require(Self.values(pingPong, .mallocs))
        #expect(pings.allSatisfy { $0 == pings[0] }, "\(pings)")
        #expect(Self.values(pingPong, .leakedAllocations) == [0])
    }

    /// A body that makes N objects in N child tasks reads N mallocs a call plus the runtime's.
    ///
    /// The figures Documentation/Concurrency.md states, measured here for 1 to 16 children.
    @Test func objectsMadeInChildTasksAreCountedWithTheRuntimesShare() async throws {
        guard Jemalloc.isLinked else { return }
        var perCall: [Int: Double] = [:]
        for children in [1, 2, 4, 8, 16] {
            let result = try await Self.run { await ConcurrentFixtures.objectsInChildren(children) }
            let mallocs = try #require(Self.values(result, .mallocs))
            #expect(mallocs.allSatisfy { $0 == mallocs[0] }, "\(children): \(mallocs)")
            #expect(Self.values(result, .leakedAllocations) == [0])
            perCall[children] = mallocs[0]
        }
        for children in [1, 2, 4, 8, 16] {
            #expect(
                perCall[children] == Double(children) * (1 + Self.runtimeMallocsPerChild) + Self.runtimeMallocsPerGroup,
                "\(children) children: \(perCall[children] ?? -1)")
        }
    }

    /// What the runtime allocates for each child task of a group, besides what the child makes.
    ///
    /// Swift 6.3.1: 7, 12, 22, 42 and 82 mallocs a call for 1, 2, 4, 8 and 16 children.
    static let runtimeMallocsPerChild = 4.0
    /// What the runtime allocates for a task group, once a call.
    static let runtimeMallocsPerGroup = 2.0

    /// A body that leaks a two-object retain cycle per call reads 2 leaked allocations a call.
    @Test func leakedAllocationsAreCountedPerCall() async throws {
        let cycle = try await Self.run { await ConcurrentFixtures.leakCycle() }
        if Jemalloc.isLinked {
            #expect(Self.values(cycle, .leakedAllocations) == [2])
            #expect(Self.values(cycle, .mallocs) == [2, 2, 2])
        } else {
            #expect(cycle.unavailable.contains { $0.metric == Metric.leakedAllocations.name })
        }
    }

    /// What needs a process to itself.
    ///
    /// Leaked descriptors (a descriptor table is the process's) and jemalloc's allocation hooks (installed only where
    /// tests run one at a time), checked in a measured process of this bundle, as `perfkit run` runs tests. There:
    /// - the cycle leaks no descriptor and 2 allocations a call, made by the node's initializer
    ///   called from the leaking body (its leak sites), whether the body is async or not;
    /// - a body that opens `/dev/null` and never closes it leaks 1 descriptor a call;
    /// - a Dispatch hand-off leaks nothing, whether the queue waits 1 ms or resumes the body at once
    ///   (the continuation libdispatch keeps in its cache is told apart by its stack), and its other
    ///   thread's allocations are counted.
    /// (Under a parallel `swift test`, other suites' pipes read 6 or −1 descriptors here.)
    @Test func whatNeedsAProcessToItselfIsCountedInOne() throws {
        guard !SimulatedCounter.isCounting, !(PerformanceMode.current.kind != .smoke) else { return }
        let outcome = try TestBundleLauncher().measure(
            MeasuredProcessRequest(
                bundle: CommandLine.arguments[0], directory: CountingRunTests.packageRoot,
                filter: "ConcurrentFixtureTests/(leaking|dispatchHandOff)", samples: 3))
        func measurement(_ name: String) -> MeasurementResult? {
            outcome.tests.flatMap(\.measurements).first { $0.name == name }
        }
        func values(_ name: String, _ metric: Metric) -> [Double]? {
            measurement(name).flatMap { Self.values($0, metric) }
        }
        #expect(values("leaking-cycle", .leakedDescriptors) == [0, 0, 0])
        #expect(values("leaking-descriptor", .leakedDescriptors) == [1, 1, 1])
        guard Jemalloc.isLinked else { return }
        #expect(values("leaking-cycle", .leakedAllocations) == [2])
        #expect(
            measurement("leaking-cycle")?.leakSites == [
                LeakSite(
                    function: "PerfKitTestingTests.CycleNode.__allocating_init() ← static "
                        + "PerfKitTestingTests.ConcurrentFixtures.leakCycle() async", perCall: 2)
            ])
        // A synchronous body's sites come from one more call of the leaking phase, in a hooked window.
        #expect(values("leaking-sync-cycle", .leakedAllocations)?.allSatisfy { $0 == 2 } == true)
        #expect(
            measurement("leaking-sync-cycle")?.leakSites?.map(\.function) == [
                "PerfKitTestingTests.CycleNode.__allocating_init() ← static "
                    + "PerfKitTestingTests.ConcurrentFixtures.leakSyncCycle()"
            ])
        for name in ["dispatch-hand-off", "dispatch-at-once"] {
            #expect(values(name, .leakedAllocations) == [0], "\(name): \(measurement(name)?.unavailable ?? [])")
            #expect(values(name, .otherThreadMallocs)?.count == 3, "\(name)")
        }
    }

    /// Work resumed from a Dispatch thread under `swift test` (tests in parallel, so no allocation hooks:
    /// ``ExactAllocationCounter/Window/hooksAllowed``).
    ///
    /// Leaked allocations are named unavailable, with the reason. Without the Jemalloc trait the reason says that
    /// instead.
    @Test func workOnAnotherThreadIsNamed() async throws {
        let queue = DispatchQueue(label: "perfkit.test.handoff")
        let result = try await Self.run { await ConcurrentFixtures.dispatchHandOff(queue) }
        #expect(Self.values(result, .wallClock)?.count == 3)
        #expect(Self.values(result, .leakedAllocations) == nil)
        let reason = try #require(result.unavailable.first { $0.metric == Metric.leakedAllocations.name })
        #expect(reason.reason.contains(Jemalloc.isLinked ? "other threads" : "Jemalloc trait"), "\(reason.reason)")
    }

    /// A synchronous body's leaks come from the same exact-count pass (``Runner``).
    @Test func aSynchronousLeakIsCountedToo() throws {
        guard Jemalloc.isLinked else { return }
        let result = try Runner(configuration: RunConfiguration(samples: 2, warmupCalls: 1, exactCountRounds: 2))
            .measure("sync-leak", arms: [Arm("main", ClosureSubject { leakSynchronously() })])
        #expect(result.series.first { $0.metric == .leakedAllocations }?.values == [2])
    }

    /// A budget can require no leaks: a leaking body fails it, with the count in the message.
    @Test func aLeakBudgetFailsWithTheCount() async throws {
        guard Jemalloc.isLinked else { return }
        let cycle = try await Self.run { await ConcurrentFixtures.leakCycle() }
        let budget = BudgetTrait.budget(.leakedAllocations, max: 0).budget
        let judgements = budget.judge([cycle], mode: PerformanceMode.current)
        #expect(judgements.map(\.outcome.status) == [.failed])
        #expect(judgements.first?.message.contains("2") == true)
    }
}

/// Makes a two-object cycle and drops it.
@inline(never) func leakSynchronously() -> Int {
    let a = CycleNode(), b = CycleNode()
    a.next = b
    b.next = a
    return 1
}
