import Foundation
import PerfKit
import PerfKitTesting
import Testing

/// Counting runs of bodies whose counts follow code or heap addresses.
///
/// They count the same in every process and run, and are counted at every placement when the bundle's addresses move
/// them.
extension CountingRunTests {
    /// Expects the samples of each of the ``shifts`` processes, in order, to equal the first process's.
    static func expectEveryProcessCountsTheSame(
        _ values: [Double], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let perProcess = values.count / shifts.count
        let first = Array(values.prefix(perProcess))
        for p in 1..<shifts.count {
            #expect(
                Array(values[(p * perProcess)..<((p + 1) * perProcess)]) == first, "\(values)",
                sourceLocation: sourceLocation)
        }
    }

    /// The heap repeats (``PinnedHeap``).
    ///
    /// A body keyed by object identities counts the same in every sample of every process, although each process shifts
    /// the harness's heap otherwise (``shifts``), and in a second run.
    @Test func aBodyThatFollowsAddressesCountsTheSameInEveryProcessAndRun() throws {
        guard Jemalloc.isLinked else { return }
        try Self.withCountingSetup { setup in
            var runs: [[Double]] = []
            for _ in 0..<2 {
                let series = try #require(
                    try Self.count("CountingRunTests/identityKeyedWork", setup: setup, heapPads: Self.shifts).first?
                        .measurements.first?.series.first { $0.metric == .instructions })
                #expect(series.processCount == Self.shifts.count)
                runs.append(series.values)
            }
            #expect(runs[0] == runs[1])
            // Warm samples of one process may differ from each other (the first call grows what later
            // ones reuse); the same sample of every process may not.
            Self.expectEveryProcessCountsTheSame(runs[0])
        }
    }

    /// The measured thread's type metadata repeat too (``PinnedHeap/startTestCase()``, and the thread's stack at a
    /// fixed address).
    ///
    /// A body keyed by key paths counts the same in every process, although each process shifts the harness's metadata
    /// (``shifts``). Without the fresh page the three processes differed by up to 3.8%; with it but the stack where
    /// glibc put it, 1 process in 3 to 6 still did; the calendar's Observation-driven playback moved 1.2% between two
    /// runs.
    @Test func aBodyKeyedByKeyPathsCountsTheSameWhereverTheHarnessMetadataSits() throws {
        guard Jemalloc.isLinked else { return }
        try Self.withCountingSetup { setup in
            let series = try #require(
                try Self.count("CountingRunTests/keyPathKeyedWork", setup: setup, heapPads: Self.shifts).first?
                    .measurements.first?.series.first { $0.metric == .instructions })
            #expect(series.processCount == Self.shifts.count)
            Self.expectEveryProcessCountsTheSame(series.values)
        }
    }

    /// A count that hashes the bundle's own addresses moves when the bundle loads at another address.
    ///
    /// A count that hashes the bundle's own addresses moves when the bundle loads at another address
    /// (through the dynamic loader, as a lookup-heavy test's second process does: ``CountingProcess/loader``),
    /// as it would in another build; one that does not stays identical. The calendar's playback (its
    /// dictionary keyed by key paths) moved 1.35% so, which the heap-shifted check could not see.
    @Test func aCountThatHashesTheBundlesAddressesMovesWhenItLoadsElsewhereAndNoOtherDoes() throws {
        guard Jemalloc.isLinked, CountingProcess.loader != nil else { return }
        try Self.withCountingSetup { setup in
            func counts(loadingElsewhere: Bool) throws -> [String: [Double]] {
                let tests = try Self.count(
                    "CountingRunTests/(bundleAddressKeyedWork|countedLoop)", setup: setup,
                    loadingElsewhere: loadingElsewhere)
                var values: [String: [Double]] = [:]
                for measurement in tests.flatMap(\.measurements) {
                    values[measurement.name] = measurement.series.first { $0.metric == .instructions }?.values
                }
                return values
            }
            let (here, elsewhere) = (try counts(loadingElsewhere: false), try counts(loadingElsewhere: true))
            #expect(Set(here.keys) == ["bundle-address-keyed", "loop-2000", "loop-4000"])
            #expect(here["bundle-address-keyed"] != elsewhere["bundle-address-keyed"], "\(here) \(elsewhere)")
            #expect(here["loop-2000"] == elsewhere["loop-2000"])
            #expect(here["loop-4000"] == elsewhere["loop-4000"])
        }
    }

    /// A counting run finds a count that follows the bundle's addresses by itself.
    ///
    /// The test's placement trial (its first round with the bundle loaded elsewhere) differs, so it is counted at
    /// ``CountingRun/placementsPerMovingTest`` placements; a plain loop's trial does not, and it keeps one process.
    @Test func aCountThatFollowsTheBundlesAddressesIsCountedAtEveryPlacementAndAPlainLoopOnce() throws {
        guard Jemalloc.isLinked, CountingProcess.loader != nil else { return }
        try Self.withCountingSetup { setup in
            var lines: [String] = []
            let run = try CountingRun.measure(
                Self.request("CountingRunTests/(bundleAddressKeyedWork|countedLoop)", setup: setup),
                progress: { lines.append($0) })
            let folder = URL(fileURLWithPath: run.dumps).deletingLastPathComponent().path
            try? FileManager.default.removeItem(atPath: folder)
            // Every process passed: each placement ran once (a placement run twice in one folder failed).
            #expect(run.status == 0)
            let tests = run.tests
            var processes: [String: Int] = [:]
            for measurement in tests.flatMap(\.measurements) {
                processes[measurement.name] = measurement.series.first { $0.metric == .instructions }?.processCount
            }
            #expect(
                processes == [
                    "bundle-address-keyed": CountingRun.placementsPerMovingTest, "loop-2000": 1, "loop-4000": 1,
                ])
            #expect(lines.contains { $0.contains("counted at \(CountingRun.placementsPerMovingTest) placements") })
        }
    }

    /// Two sides counted in two steps (`abba --counts`).
    ///
    /// The test whose first processes differ (an address-following body with 1,000 steps added on one side) gets its
    /// follow-ups on both sides and is counted at every placement; the loop, identical in every sample, keeps its one
    /// process on each side, with no trial.
    @Test func twoSidesFollowUpOnlyTheTestsWhoseFirstProcessesDiffer() throws {
        guard Jemalloc.isLinked, CountingProcess.loader != nil else { return }
        try Self.withCountingSetup { setup in
            let filter = "CountingRunTests/(bundleAddressKeyedWork|countedLoop)"
            func start(_ extra: String, costs: [TestResult] = []) throws -> CountingRun.Started {
                var request = Self.request(filter, setup: setup)
                request.environment = [Self.extraWorkVariable: extra]
                request.costs = costs
                return try CountingRun.start(request)
            }
            let a = try start("0000")
            defer { a.discard() }
            let b = try start("1000", costs: a.tests)
            defer { b.discard() }
            let following = CountingRun.testsToFollowUp(a, b)
            #expect(following == ["PerfKitTestingTests.CountingRunTests/bundleAddressKeyedWork()"])
            var lines: [String] = []
            var processes: [[String: Int]] = []
            var loops: [[Double]] = []
            for side in [a, b] {
                let run = try CountingRun.finish(side, followingUp: following, progress: { lines.append($0) })
                try? FileManager.default.removeItem(
                    atPath: URL(fileURLWithPath: run.dumps).deletingLastPathComponent().path)
                #expect(run.status == 0)
                var counted: [String: Int] = [:]
                for measurement in run.tests.flatMap(\.measurements) {
                    let series = measurement.series.first { $0.metric == .instructions }
                    counted[measurement.name] = series?.processCount
                    if measurement.name == "loop-4000" { loops.append(series?.values ?? []) }
                }
                processes.append(counted)
            }
            let expected = [
                "bundle-address-keyed": CountingRun.placementsPerMovingTest, "loop-2000": 1, "loop-4000": 1,
            ]
            #expect(processes == [expected, expected])
            #expect(loops.count == 2 && loops[0] == loops[1] && !loops[0].isEmpty)
            #expect(
                lines.filter { $0.contains("counted at \(CountingRun.placementsPerMovingTest) placements") }.count == 2)
        }
    }
}
