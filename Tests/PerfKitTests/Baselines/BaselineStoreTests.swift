import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

@Suite struct BaselineStoreTests {
    let folder = TemporaryFolder("perfkit-baselines")
    func temporaryRoot() -> String { folder.path + "/" + UUID().uuidString }

    @Test func debugResultsAreRefusedUnlessForced() throws {
        let store = BaselineStore(root: temporaryRoot())
        #expect(throws: FileError.self) { try store.save(Build.run(build: "debug", values: [1, 2, 3]), as: "main") }
        #expect(store.list().isEmpty)
        try store.save(Build.run(build: "debug", values: [1, 2, 3]), as: "main", force: true)
        #expect(store.list() == ["main"])
    }

    /// A save keeps its lock files out of `git add Baselines`: it writes `Baselines/.gitignore`
    /// when there is none, and leaves a user's own as it is.
    @Test func aSaveIgnoresItsLockFilesInGit() throws {
        let root = temporaryRoot()
        let store = BaselineStore(root: root)
        try store.save(Build.run(build: "release", values: [1, 2, 3]), as: "main")
        #expect(FileManager.default.contents(atPath: root + "/.gitignore") == Data(BaselineStore.ignoredLocks.utf8))
        try Data("mine\n".utf8).write(to: URL(fileURLWithPath: root + "/.gitignore"))
        try store.save(Build.run(build: "release", values: [1, 2, 3]), as: "second")
        #expect(FileManager.default.contents(atPath: root + "/.gitignore") == Data("mine\n".utf8))
    }

    @Test func saveRoundTripsAndPoliciesDecideWhatChanges() throws {
        let store = BaselineStore(root: temporaryRoot())
        try store.save(Build.run(build: "release", values: [1, 2, 3]), as: "main")
        #expect(try store.load("main").tests[0].measurements[0].series[0].values == [1, 2, 3])
        #expect(try store.save(Build.run(build: "release", values: [7, 8, 9]), as: "main", policy: .never).isEmpty)
        #expect(try store.save(Build.run(build: "release", values: [7, 8, 9]), as: "main", policy: .missing).isEmpty)
        #expect(try store.load("main").tests[0].measurements[0].series[0].values == [1, 2, 3])
        #expect(
            try store.save(Build.run(build: "release", values: [4, 5, 6], id: "S/u()"), as: "main", policy: .missing)
                == ["S/u()"])
        #expect(try store.load("main").tests.map(\.id) == ["S/t()", "S/u()"])
        try store.delete("main")
        #expect(store.list().isEmpty)
    }

    @Test func aFailedSaveLeavesTheOldBaselineAsItWas() throws {
        let root = temporaryRoot()
        let store = BaselineStore(root: root)
        try store.save(Build.run(build: "release", values: [1, 2, 3]), as: "main")
        let files = try FileManager.default.contentsOfDirectory(atPath: root + "/main").sorted()
        let before = try files.map { try String(contentsOfFile: root + "/main/" + $0, encoding: .utf8) }
        #expect(throws: FileError.self) {
            try store.save(Build.run(build: "release", values: [4, .nan, 6], id: "S/u()"), as: "main")
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
                        Build.run(build: "release", values: [Double(k), 1, 2], id: "S/t\(k)()"), as: "main",
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
    struct VerdictCase: CustomTestStringConvertible, Sendable {
        var name: String
        var baseline: [Double]
        var current: [Double]
        var expected: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        VerdictCase(
            name: "clear regression", baseline: Build.noisy(100, seed: 1), current: Build.noisy(120, seed: 2),
            expected: "regressed"
        ),
        VerdictCase(
            name: "clear improvement", baseline: Build.noisy(100, seed: 3), current: Build.noisy(80, seed: 4),
            expected: "improved"),
        VerdictCase(
            name: "identical", baseline: Build.noisy(100, seed: 5), current: Build.noisy(100, seed: 5),
            expected: "within noise"),
        VerdictCase(
            name: "noisy but equal", baseline: Build.noisy(100, seed: 6, spread: 0.02),
            current: Build.noisy(100, seed: 7, spread: 0.02), expected: "within noise"),
        VerdictCase(name: "too few samples", baseline: [100, 101], current: [150, 151], expected: "inconclusive"),
        VerdictCase(
            name: "too noisy to resolve the band", baseline: Build.noisy(100, seed: 8, spread: 0.6, count: 5),
            current: Build.noisy(104, seed: 9, spread: 0.6, count: 5),
            expected: "inconclusive"),
    ])
    func twoGateVerdicts(_ c: VerdictCase) throws {
        let comparison = try Comparison(
            baseline: Build.processTests(c.baseline), current: Build.processTests(c.current))
        #expect(comparison.rows.map(\.verdict.description) == [c.expected])
    }

    @Test func anInconclusiveVerdictSaysWhy() throws {
        let noisy = try Comparison(
            baseline: Build.processTests(Build.noisy(100, seed: 8, spread: 0.6, count: 5)),
            current: Build.processTests(Build.noisy(104, seed: 9, spread: 0.6, count: 5)))
        #expect(noisy.rows[0].reason == .tooNoisy)
        let atTheEdge = try Comparison(
            baseline: Build.processTests(Build.noisy(100, seed: 10)),
            current: Build.processTests(Build.noisy(105, seed: 11)))
        #expect(atTheEdge.rows[0].verdict == .inconclusive)
        #expect(atTheEdge.rows[0].reason == .aboutTheBandsSize)
    }

    @Test func deterministicMetricsCompareExactly() throws {
        let same = try Comparison(
            baseline: Build.processTests([10, 10], metric: .mallocs),
            current: Build.processTests([10, 10], metric: .mallocs))
        #expect(same.rows[0].verdict == .unchanged)
        let one = try Comparison(
            baseline: Build.processTests([10, 10], metric: .mallocs),
            current: Build.processTests([11, 11], metric: .mallocs))
        #expect(one.rows[0].verdict == .regressed)
        let fewer = try Comparison(
            baseline: Build.processTests([10, 10], metric: .mallocs),
            current: Build.processTests([9, 9], metric: .mallocs))
        #expect(fewer.rows[0].verdict == .improved)
    }

    @Test func addedAndRemovedTestsAreListed() throws {
        let comparison = try Comparison(
            baseline: Build.processTests([1, 2, 3], id: "S/old()"),
            current: Build.processTests([1, 2, 3], id: "S/new()"))
        #expect(Set(comparison.rows.map { "\($0.test) \($0.verdict)" }) == ["S/old() removed", "S/new() added"])
    }

    @Test func mismatchedUnitsAreRejected() throws {
        let bytes = Metric("wallClock", unit: .bytes)
        #expect(throws: ComparisonError.self) {
            try Comparison(
                baseline: Build.processTests([1, 2, 3]), current: Build.processTests([1, 2, 3], metric: bytes))
        }
    }
}
