import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

@Suite struct BaselineStoreTests {
    static func run(build: String, values: [Double], id: String = "S/t()") -> RunFile {
        var series = SampleSeries(metric: .wallClock, arm: "main", phase: .warm)
        for (i, v) in values.enumerated() { series.append(v, round: i, position: 0, iteration: i) }
        let environment = Environment(
            commit: "c", branch: "b", dirty: false, swiftVersion: "6.3.1", buildConfiguration: build,
            machine: MachineFingerprint(
                cpuModel: "cpu", cores: 2, kernel: "k", operatingSystem: "os", governor: nil, memoryBytes: 1 << 34),
            allocator: "jemalloc")
        return RunFile(
            date: Date(timeIntervalSince1970: 0), mode: "measure", environment: environment,
            tests: [
                TestResult(
                    id: id, suite: "S",
                    measurements: [
                        MeasurementResult(name: "m", arms: ["main"], order: [], series: [series], unavailable: [])
                    ])
            ])
    }

    let folder = TemporaryFolder("perfkit-baselines")
    func temporaryRoot() -> String { folder.path + "/" + UUID().uuidString }

    @Test func debugResultsAreRefusedUnlessForced() throws {
        let store = BaselineStore(root: temporaryRoot())
        #expect(throws: FileError.self) { try store.save(Self.run(build: "debug", values: [1, 2, 3]), as: "main") }
        #expect(store.list().isEmpty)
        try store.save(Self.run(build: "debug", values: [1, 2, 3]), as: "main", force: true)
        #expect(store.list() == ["main"])
    }

    @Test func saveRoundTripsAndPoliciesDecideWhatChanges() throws {
        let store = BaselineStore(root: temporaryRoot())
        try store.save(Self.run(build: "release", values: [1, 2, 3]), as: "main")
        #expect(try store.load("main").tests[0].measurements[0].series[0].values == [1, 2, 3])
        #expect(try store.save(Self.run(build: "release", values: [7, 8, 9]), as: "main", policy: .never).isEmpty)
        #expect(try store.save(Self.run(build: "release", values: [7, 8, 9]), as: "main", policy: .missing).isEmpty)
        #expect(try store.load("main").tests[0].measurements[0].series[0].values == [1, 2, 3])
        #expect(
            try store.save(Self.run(build: "release", values: [4, 5, 6], id: "S/u()"), as: "main", policy: .missing)
                == ["S/u()"])
        #expect(try store.load("main").tests.map(\.id) == ["S/t()", "S/u()"])
        try store.delete("main")
        #expect(store.list().isEmpty)
    }

    @Test func aFailedSaveLeavesTheOldBaselineAsItWas() throws {
        let root = temporaryRoot()
        let store = BaselineStore(root: root)
        try store.save(Self.run(build: "release", values: [1, 2, 3]), as: "main")
        let files = try FileManager.default.contentsOfDirectory(atPath: root + "/main").sorted()
        let before = try files.map { try String(contentsOfFile: root + "/main/" + $0, encoding: .utf8) }
        #expect(throws: FileError.self) {
            try store.save(Self.run(build: "release", values: [4, .nan, 6], id: "S/u()"), as: "main")
        }
        // no temporary files left
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/main").sorted() == files)
        #expect(try files.map { try String(contentsOfFile: root + "/main/" + $0, encoding: .utf8) } == before)
        #expect(try store.load("main").tests.map(\.id) == ["S/t()"])
    }

    @Test func concurrentSavesNeverCorruptTheBaseline() async throws {
        let store = BaselineStore(root: temporaryRoot())
        await withTaskGroup(of: Void.self) { group in
            for k in 0..<8 {
                group.addTask {
                    _ = try? store.save(
                        Self.run(build: "release", values: [Double(k), 1, 2], id: "S/t\(k)()"), as: "main",
                        policy: .missing)
                }
            }
        }
        // Saves are serialized: each read the others' results and added its own test.
        let loaded = try store.load("main")
        #expect(loaded.tests.map(\.id).sorted() == (0..<8).map { "S/t\($0)()" })
        #expect(loaded.tests.allSatisfy { $0.measurements[0].series[0].values.count == 3 })
    }
}

@Suite struct ComparisonVerdictTests {
    /// One test whose series holds `values`, each from its own process (so a comparison works at
    /// the process level). Time metrics take the values as microseconds, well above the clock's resolution.
    static func tests(_ values: [Double], metric: Metric = .wallClock, id: String = "S/t()") -> [TestResult] {
        BaselineStoreTests.run(build: "release", values: values, id: id).tests.map { test in
            var t = test
            t.measurements[0].series[0].metric = metric
            if metric.unit == .nanoseconds { t.measurements[0].series[0].values = values.map { $0 * 1_000 } }
            t.measurements[0].series[0].processes = Array(values.indices)
            return t
        }
    }

    static func noisy(_ center: Double, seed: UInt64, spread: Double = 0.01, count: Int = 30) -> [Double] {
        var g = SeededGenerator(seed: seed)
        return (0..<count).map { _ in center * (1 + spread * (Double(g.index(below: 2_001)) / 1_000 - 1)) }
    }

    struct VerdictCase: CustomTestStringConvertible, Sendable {
        var name: String
        var baseline: [Double]
        var current: [Double]
        var expected: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        VerdictCase(
            name: "clear regression", baseline: noisy(100, seed: 1), current: noisy(120, seed: 2), expected: "regressed"
        ),
        VerdictCase(
            name: "clear improvement", baseline: noisy(100, seed: 3), current: noisy(80, seed: 4), expected: "improved"),
        VerdictCase(
            name: "identical", baseline: noisy(100, seed: 5), current: noisy(100, seed: 5), expected: "within noise"),
        VerdictCase(
            name: "noisy but equal", baseline: noisy(100, seed: 6, spread: 0.02),
            current: noisy(100, seed: 7, spread: 0.02), expected: "within noise"),
        VerdictCase(name: "too few samples", baseline: [100, 101], current: [150, 151], expected: "inconclusive"),
        VerdictCase(
            name: "too noisy to resolve the band", baseline: noisy(100, seed: 8, spread: 0.6, count: 5),
            current: noisy(104, seed: 9, spread: 0.6, count: 5),
            expected: "inconclusive"),
    ])
    func twoGateVerdicts(_ c: VerdictCase) throws {
        let comparison = try Comparison(baseline: Self.tests(c.baseline), current: Self.tests(c.current))
        #expect(comparison.rows.map(\.verdict.description) == [c.expected])
    }

    @Test func anInconclusiveVerdictSaysWhy() throws {
        let noisy = try Comparison(
            baseline: Self.tests(Self.noisy(100, seed: 8, spread: 0.6, count: 5)),
            current: Self.tests(Self.noisy(104, seed: 9, spread: 0.6, count: 5)))
        #expect(noisy.rows[0].note.contains("too noisy to tell: the CI spans about ±"))
        let atTheEdge = try Comparison(
            baseline: Self.tests(Self.noisy(100, seed: 10)), current: Self.tests(Self.noisy(105, seed: 11)))
        #expect(atTheEdge.rows[0].verdict == .inconclusive)
        #expect(atTheEdge.rows[0].note.contains("a change about as large as the ±5% band"))
    }

    @Test func deterministicMetricsCompareExactly() throws {
        let same = try Comparison(
            baseline: Self.tests([10, 10], metric: .mallocs), current: Self.tests([10, 10], metric: .mallocs))
        #expect(same.rows[0].verdict == .unchanged)
        let one = try Comparison(
            baseline: Self.tests([10, 10], metric: .mallocs), current: Self.tests([11, 11], metric: .mallocs))
        #expect(one.rows[0].verdict == .regressed)
        let fewer = try Comparison(
            baseline: Self.tests([10, 10], metric: .mallocs), current: Self.tests([9, 9], metric: .mallocs))
        #expect(fewer.rows[0].verdict == .improved)
    }

    @Test func addedAndRemovedTestsAreListed() throws {
        let comparison = try Comparison(
            baseline: Self.tests([1, 2, 3], id: "S/old()"), current: Self.tests([1, 2, 3], id: "S/new()"))
        #expect(Set(comparison.rows.map { "\($0.test) \($0.verdict)" }) == ["S/old() removed", "S/new() added"])
    }

    @Test func mismatchedUnitsAreRejected() throws {
        let bytes = Metric("wallClock", unit: .bytes)
        #expect(throws: ComparisonError.self) {
            try Comparison(baseline: Self.tests([1, 2, 3]), current: Self.tests([1, 2, 3], metric: bytes))
        }
    }
}
