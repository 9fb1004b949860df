import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Simulated counts: the callgrind reader, the count verdicts, and a real counting run of this
/// bundle under valgrind.
@Suite struct SimulatedCountTests {
    static func tests(_ values: [Double], metric: Metric = .instructions) -> [TestResult] {
        let series = Build.series(metric, values: values)
        return [
            TestResult(
                id: "S/t()", suite: "S",
                measurements: [
                    MeasurementResult(name: "m", arms: ["main"], order: [], series: [series], unavailable: [])
                ])
        ]
    }

    static func counted(_ cpu: String = "amd64-avx2", swift: String = "6.3.1") -> Environment {
        var environment = Environment(
            commit: "c", branch: "b", dirty: false, swiftVersion: swift, buildConfiguration: "release",
            machine: MachineFingerprint(
                cpuModel: "cpu", cores: 2, kernel: "k", operatingSystem: "os", governor: nil, memoryBytes: 1 << 34),
            allocator: "jemalloc")
        environment.valgrind = "valgrind-3.19.0"
        environment.valgrindCPU = cpu
        environment.countingSetup = .pinned(checks: .bundleElsewhere)
        return environment
    }

    static func row(_ baseline: [Double], _ current: [Double], current environment: Environment = counted()) throws
        -> ComparisonRow
    {
        try Comparison(
            baseline: tests(baseline), current: tests(current), baselineEnvironment: counted(),
            currentEnvironment: environment
        ).rows[0]
    }

    @Test func identicalCountsAreUnchanged() throws {
        #expect(try Self.row([1000, 1000, 1000], [1000, 1000, 1000]).verdict == .unchanged)
        #expect(try Self.row([100_000, 100_000], [101_500, 101_500]).verdict == .regressed)
    }

    @Test func countsThatRepeatAreComparedExactlyAndOthersAgainstTheirVariation() throws {
        // One sample's one-time cost moves the mean, not the median, and is the variation a change must clear.
        #expect(try Self.row([1000, 1000, 1400], [1000, 1000, 1000]).verdict == .withinNoise)
        #expect(try Self.row([1000, 1000, 1400], [1000, 1000, 1300]).verdict == .withinNoise)
        #expect(try Self.row([1000, 1000, 1400], [1500, 1500, 1500]).verdict == .regressed)
        // +300 instructions in every sample of a 1,000,000-instruction body: a change, with its size.
        let small = try Self.row([1_000_000, 1_000_000, 1_000_000], [1_000_300, 1_000_300, 1_000_300])
        #expect(small.verdict == .regressed)
        #expect(small.difference?.value == 300 && small.reason == nil)
        // +48 on a 4-million-instruction body.
        let tiny = try Self.row([4_000_000, 4_000_000], [4_000_048, 4_000_048])
        #expect(tiny.verdict == .regressed)
        #expect(tiny.difference?.value == 48 && tiny.reason == nil)
        // +0.1%, 1,000 instructions: a change the tolerance and the floor both let through
        #expect(
            try Self.row([1_000_000, 1_000_000, 1_000_000], [1_001_000, 1_001_000, 1_001_000]).verdict == .regressed)
        // +1.5%, 1,500 instructions
        #expect(try Self.row([100_000, 100_000, 100_000], [101_500, 101_500, 101_500]).verdict == .regressed)
        #expect(try Self.row([100_000, 100_000, 100_000], [99_900, 99_900, 99_900]).verdict == .improved)
        #expect(try Self.row([200_000, 200_000, 200_000], [198_000, 198_000, 198_000]).verdict == .improved)
        // A tiny body: 83 instructions fewer.
        #expect(try Self.row([1_683, 1_683, 1_683], [1_600, 1_600, 1_600]).verdict == .improved)
    }

    @Test func countsFromAnotherToolchainAreNotJudgedButAnotherCPUIs() throws {
        let toolchain = try Self.row([10_000, 10_000], [20_000, 20_000], current: Self.counted(swift: "6.4"))
        #expect(toolchain.verdict == .notJudged)
        #expect(toolchain.reason == .countsFromAnotherSetup)
        #expect(Self.counted(swift: "6.4").countingDifferences(from: Self.counted()) == ["toolchain"])
        var otherMachine = Self.counted("amd64-sse3")
        otherMachine.machine.cpuModel = "another CPU"
        let cpu = try Self.row([10_000, 10_000], [20_000, 20_000], current: otherMachine)
        #expect(cpu.verdict == .regressed)  // timing would not be judged across machines; counts are
        #expect(cpu.reason == nil)
    }

    @Test func aCountsOnlyRunLeavesTheBaselinesTimingNotMeasured() throws {
        let baseline = Self.tests([5, 6, 7], metric: .wallClock)
        let comparison = try Comparison(baseline: baseline, current: Self.tests([1000, 1000]), currentCountsOnly: true)
        let timing = try #require(comparison.rows.first { $0.metric == .wallClock })
        #expect(timing.verdict == .notJudged)
        #expect(comparison.rows.first { $0.metric == .instructions }?.verdict == .added)
    }

    @Test func aRunWithoutCountsAgainstABaselineWithCountsSaysSoNeverRemoved() throws {
        let comparison = try Comparison(
            baseline: Self.tests([1000, 1000]), current: Self.tests([5, 6, 7], metric: .wallClock))
        let counts = try #require(comparison.rows.first { $0.metric == .instructions })
        #expect(counts.verdict == .notJudged)
        #expect(counts.reason == .notMeasured)
    }

    @Test func aCallgrindDumpGivesInclusiveCostsAndAllocationSites() {
        let dump = CallgrindDump(
            parsing: """
                events: Ir
                fl=(1) a.swift
                fn=(1) $s3App5outeryyF
                3 10
                cfn=(2) $s3App5inneryyF
                calls=2 0
                4 100
                cfn=(3) swift_allocObject
                calls=5 0
                5 50
                fn=(2)
                1 100
                totals: 260
                """)
        #expect(dump.totals == 260)
        #expect(dump.inclusive["$s3App5outeryyF"] == 160)
        #expect(dump.inclusive["$s3App5inneryyF"] == 100)
        #expect(dump.allocationCalls == ["$s3App5outeryyF": 5])
        let profile = CallgrindDump.profile([dump, dump], demangle: ["$s3App5inneryyF": "App.inner()"])
        #expect(profile.inclusive.first == CountProfile.Entry(function: "$s3App5outeryyF", value: 160))
        #expect(profile.inclusive.contains(CountProfile.Entry(function: "App.inner()", value: 100)))
        let changes = CountProfile.changes(profile.inclusive, [CountProfile.Entry(function: "App.inner()", value: 130)])
        #expect(changes.first?.function == "$s3App5outeryyF" && changes.first?.delta == -160)
        // The folded stacks under the body: its own 10, the inner call's 100, the allocations' 50 at the body.
        let stacks = Dictionary(uniqueKeysWithValues: (profile.stacks ?? []).map { ($0.function, $0.value) })
        #expect(stacks["$s3App5outeryyF;App.inner()"] == 100)
        #expect(stacks.values.reduce(0, +) == 160)
    }

    /// The share of a sample in the runtime's shared lookups is its largest lookup's inclusive cost over the total.
    ///
    /// What decides whether a test gets a second, heap-shifted counting process.
    @Test func theRuntimeLookupShareIsTheLargestLookupOverTheTotal() {
        let dump = CallgrindDump(
            parsing: """
                events: Ir
                fn=(1) $s3App4bodyyyF
                2 900
                cfn=(2) swift_conformsToProtocol2
                calls=3 0
                3 60
                cfn=(3) $ss10AnyKeyPathC4hash4intoys6HasherVz_tF
                calls=1 0
                4 40
                fn=(2)
                1 60
                fn=(3)
                1 40
                totals: 1000
                """)
        #expect(dump.runtimeLookupShare == 0.06)
        #expect(dump.runtimeLookupShare > CountingRun.runtimeLookupThreshold)
        let plain = CallgrindDump(parsing: "events: Ir\nfn=(1) $s3App4bodyyyF\n2 1000\ntotals: 1000\n")
        #expect(plain.runtimeLookupShare == 0)
    }

    /// A function's calls to itself are not added to its inclusive cost: its own lines hold every level already.
    ///
    /// A body of 1,000 whose recursive `descend` costs 600 at the top (three levels of 200, each listed as a call of
    /// the level below) reads 600, not 1,000.
    @Test func aRecursiveFunctionIsCountedOnceNotAtEveryLevel() {
        let dump = CallgrindDump(
            parsing: """
                events: Ir
                fn=(1) body
                1 400
                cfn=(2) descend
                calls=1 0
                2 600
                fn=(2)
                1 600
                cfn=(2)
                calls=2 0
                2 400
                totals: 1000
                """)
        #expect(dump.inclusive["descend"] == 600)
        #expect(dump.inclusive["body"] == 1_000)
    }

    /// Frames that enclose the body like the harness does are left out, so "where it went" names the code.
    ///
    /// The concurrency runtime's job frames (seen in a user package: `__swift_run_job(void*)` topped the list) and
    /// PerfKitCore's (the runner and the counter, which moved there from PerfKit: `closure #1 in closure #1 in static
    /// SimulatedCounter.count<A>(label:_:)` was listed beside the body's own functions).
    @Test(arguments: [
        "__swift_run_job(void*)", "$s11PerfKitCore16SimulatedCounterO5count5label_xSS_xyKXEtKlFZxyKXEfU_xyKXEfU_",
    ])
    func harnessFramesAreLeftOutOfTheProfile(frame: String) {
        let dump = CallgrindDump(
            parsing: """
                events: Ir
                fl=(1) a.swift
                fn=(1) \(frame)
                1 1
                cfn=(2) $s6Parser8parseSumySiSSF
                calls=1 0
                2 300
                fn=(2)
                1 300
                totals: 400
                """)
        let profile = CallgrindDump.profile([dump], demangle: [:])
        #expect(profile.inclusive.map(\.function) == ["$s6Parser8parseSumySiSSF"])
    }

    /// A series' profile counts a function once when it recurses through a copy of itself.
    ///
    /// Swift-collections' trie descent is two symbols that read as one (`…_n` and its merged copy `…_nTm`, whose deeper
    /// level callgrind names `…_nTm'2`). Body 1,000: the descent's levels cost 300 + 200 + 100 of their own.
    @Test func aFunctionRecursingThroughACopyOfItselfIsCountedOnce() {
        let dump = CallgrindDump(
            parsing: """
                events: Ir
                fn=(1) $s5Graph4bodyyyF
                1 400
                cfn=(2) descend_n
                calls=1 0
                2 600
                fn=(2)
                1 300
                cfn=(3) descend_nTm
                calls=1 0
                2 300
                fn=(3)
                1 200
                cfn=(4) descend_nTm'2
                calls=1 0
                2 100
                fn=(4)
                1 100
                totals: 1000
                """)
        let profile = CallgrindDump.profile(
            [dump], demangle: ["descend_n": "specialized descend()", "descend_nTm": "specialized descend()"])
        let inclusive = Dictionary(uniqueKeysWithValues: profile.inclusive.map { ($0.function, $0.value) })
        #expect(inclusive["specialized descend()"] == 600)
        #expect(inclusive["$s5Graph4bodyyyF"] == 1_000)
    }

    @Test func whereItWentNamesTheInnermostOfFramesThatCarryOneChange() {
        let before = [
            CountProfile.Entry(function: "_dispatch_async_redirect_invoke", value: 305_000),
            CountProfile.Entry(function: "closure #1 in ParserBenchmarks.sum()", value: 304_700),
            CountProfile.Entry(function: "parseSum(_:)", value: 304_600),
            CountProfile.Entry(function: "other()", value: 900),
        ]
        let after = [
            CountProfile.Entry(function: "_dispatch_async_redirect_invoke", value: 386_451.7),
            CountProfile.Entry(function: "closure #1 in ParserBenchmarks.sum()", value: 386_150),
            CountProfile.Entry(function: "parseSum(_:)", value: 386_050),
            CountProfile.Entry(function: "other()", value: 1_000),
        ]
        let kept = WhereItWent.innermost(CountProfile.changes(before, after, limit: 20), limit: 5)
        #expect(kept.map(\.function) == ["parseSum(_:)", "other()"])
        #expect(kept.map(\.delta) == [81_450, 100])
    }

    @Test func theDumpTotalsLineIsRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("callgrind.out.\(UUID().uuidString)")
            .path
        try Data("events: Ir\nsummary: 17\ntotals: 42\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(SimulatedCounter.totals(ofDump: path) == 42)
    }

    @Test func countsFromAnotherCountingSetupAreNotJudged() throws {
        var older = Self.counted()
        older.countingSetup = try JSONDecoder().decode(
            CountingSetup.self, from: Data(#""callgrind Ir, one process per run""#.utf8))
        let row = try Self.row([10_000, 10_000], [10_000, 10_000], current: older)
        #expect(row.verdict == .notJudged)
        #expect(row.reason == .countsFromAnotherSetup)
        #expect(older.countingDifferences(from: Self.counted()) == ["counting setup (recorded setup)"])
        #expect(Self.counted().countingDifferences(from: Self.counted()).isEmpty)
        var unrecorded = Self.counted()
        unrecorded.countingSetup = nil
        #expect(unrecorded.countingDifferences(from: Self.counted()) == ["counting setup (not recorded on one side)"])
    }

    /// A setup is compared field by field, and a comparison names the fields that differ.
    ///
    /// The samples taken are recorded as run but do not make another setup.
    @Test func countingSetupsDifferFieldByField() {
        var other = CountingSetup.pinned(checks: .bundleElsewhere)
        other.samplesPerArmAndPhase += 1
        other.uncounted.remove(.harnessFrames)
        #expect(other.differences(from: .pinned(checks: .bundleElsewhere)) == ["uncounted work"])
        #expect(
            CountingSetup.unpinned(checks: .heapShifted).differences(from: .pinned(checks: .heapShifted))
                == ["heap"])
    }

    /// A run file before schema 7 recorded the setup as a sentence: read back as the setup it describes.
    ///
    /// So a baseline saved then is compared with today's counts; written back as fields.
    /// A setup is stored by identifiers, so a report's rewording never makes another setup; schema 7's phrases read
    /// back as the setup they describe, and phrases no setup has are kept as a sentence (another setup).
    @Test func aSetupIsStoredByIdentifiersAndSchemaSevenPhrasesReadBack() throws {
        let setup = CountingSetup.pinned(checks: .bundleElsewhere)
        let stored = try JSONSerialization.jsonObject(with: JSONEncoder().encode(setup)) as? [String: Any]
        #expect(stored?["heap"] as? String == "pinned" && stored?["checks"] as? String == "bundleElsewhere")
        #expect(stored?["processSettings"] as? [String] == CountingSetup.ProcessSetting.allCases.map(\.rawValue))
        let schemaSeven = """
            {"checks": "checks with the bundle loaded at another address", "counter": "callgrind Ir",
             "heap": "the heap not pinned", "processes": "one process per test and one with the heap shifted",
             "processSettings": ["Swift Testing's backtrace of each thrown error off", "jemalloc decay off",
               "symbols bound at start-up", "ASLR off", "deterministic hashing"],
             "samplesPerArmAndPhase": 2, "uncounted": [
               "the runtime's cache probes uncounted (finds, and the metadata cache's getOrInsert)",
               "the harness's own frames around the body uncounted"]}
            """
        let read = try JSONDecoder().decode(CountingSetup.self, from: Data(schemaSeven.utf8))
        #expect(read == .unpinned(checks: .bundleElsewhere))
        let unknown = try JSONDecoder().decode(
            CountingSetup.self, from: Data(schemaSeven.replacingOccurrences(of: "ASLR off", with: "ASLR on").utf8))
        #expect(unknown.recordedSentence?.contains("ASLR on") == true)
        #expect(unknown.differences(from: read) == ["recorded setup"])
        let again = try JSONDecoder().decode(CountingSetup.self, from: JSONEncoder().encode(unknown))
        #expect(again == unknown)
    }

    @Test func anOlderSetupSentenceReadsAsTheSetupItDescribes() throws {
        let sentence =
            "callgrind Ir, one process per test, 2 samples per arm and phase, the test on a measured thread over "
            + "pinned jemalloc arenas (one per test case; other threads' caches off, its stack at a fixed address, a "
            + "runtime metadata page of its own from the test's start), the runtime's cache probes uncounted (finds, "
            + "and the metadata cache's getOrInsert), the harness's own frames around the body uncounted, Swift "
            + "Testing's backtrace of each thrown error off, jemalloc decay off, symbols bound at start-up, ASLR off, "
            + "deterministic hashing, checks with the bundle loaded at another address"
        let read = try JSONDecoder().decode(CountingSetup.self, from: JSONEncoder().encode(sentence))
        #expect(read == .pinned(checks: .bundleElsewhere))
        #expect(read.recordedSentence == nil && read.sentence == sentence)
        let again = try JSONDecoder().decode(CountingSetup.self, from: JSONEncoder().encode(read))
        #expect(again == read)
    }

    @Test func countingPassFoldersHaveOneLength() {
        let names = [(0, 0), (7, 7), (4_321, 0), (99_999, 7)].map { CountingProcess.folderName($0.0, $0.1) }
        #expect(Set(names.map(\.count)) == [names[0].count])
        #expect(names[2] == "/pass-04321-0")
    }

    @Test func theCostliestTestsAreCountedFirstAsEarlierResultsSay() {
        func test(_ id: String, _ values: [Double], case function: String? = nil) -> TestResult {
            var result = Build.processTests(values, metric: .instructions, id: id)[0]
            result.testCase = function.map {
                TestCase(function: $0, arguments: [TestCase.Argument(name: "n", value: id)])
            }
            return result
        }
        let ids = ["S/a()", "S/b()", "S/c(n:)", "S/d()"]
        let processes = ids.enumerated().map { CountingProcess(test: $0, id: $1, pad: 0, folder: "/p\($0)") }
        let costs = [
            test("S/a()", [10]), test("S/b()", [400, 600]), test("S/c(n:) n = 1", [400], case: "S/c(n:)"),
            test("S/c(n:) n = 2", [700], case: "S/c(n:)"),
        ]
        // d has no earlier result, so it may be the longest: first; c's two cases together (1,100) before b (1,000).
        #expect(CountingRun.longestFirst(processes, costs: costs).map(\.id) == ["S/d()", "S/c(n:)", "S/b()", "S/a()"])
        #expect(CountingRun.longestFirst(processes, costs: []).map(\.id) == ids)
    }
}
