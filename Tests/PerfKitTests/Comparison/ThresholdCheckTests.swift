import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// package-benchmark's per-toolchain p90 threshold files, read and checked (`perfkit check`).
@Suite struct ThresholdCheckTests {
    let folder = TemporaryFolder("perfkit-thresholds")

    /// Writes `files` (name → text) into `Thresholds/<toolchain>/` and returns the root.
    func thresholds(_ files: [String: String], toolchain: String = "6.3") throws -> String {
        let root = folder.path + "/" + UUID().uuidString + "/Thresholds"
        try FileManager.default.createDirectory(atPath: root + "/" + toolchain, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: URL(fileURLWithPath: "\(root)/\(toolchain)/\(name)"))
        }
        return root
    }

    /// A run with measurement "m" of test `S/t()`: mallocs 40 and 44 (p90 43.6), leaked 0.
    static let tests = Build.run(ids: ["S/t()"], metric: .mallocs, values: [40, 44]).tests

    @Test func limitsAreMatchedByBenchmarkAndJudgedOnTheP90() throws {
        let root = try thresholds([
            "Target.m.p90.json": #"{"mallocCountTotal": 43, "retainCount": 5}"#,
            "Target.other.p90.json": #"{"mallocCountTotal": 1}"#,
        ])
        let folder = try #require(PackageBenchmarkThresholds.toolchainFolder(in: root, swiftVersion: "6.3.1"))
        #expect(folder.hasSuffix("/6.3"))
        let check = ThresholdCheck(try PackageBenchmarkThresholds(folder: folder), tests: Self.tests)
        #expect(check.rows.map(\.status) == [.exceeded, .notInRun, .notInRun])
        #expect(check.rows[0].measured.map { abs($0 - 43.6) < 1e-9 } == true)
        #expect(check.exceeded)
        #expect(check.tableLines.count == 4)
    }

    /// One threshold file given alone is read as the folder of it, not as a package-benchmark baseline.
    @Test func oneThresholdFileIsReadAsItsOwnFolder() throws {
        let root = try thresholds(["Target.m.p90.json": #"{"mallocCountTotal": 43}"#])
        let alone = try PackageBenchmarkThresholds(file: root + "/6.3/Target.m.p90.json")
        #expect(alone == (try PackageBenchmarkThresholds(folder: root + "/6.3")))
        #expect(ThresholdCheck(alone, tests: Self.tests).rows.map(\.status) == [.exceeded])
    }

    /// Limits carried into PerfKit's budgets (issue 60): the traits each benchmark's test takes.
    @Test func limitsBecomeBudgetTraits() throws {
        let root = try thresholds([
            "NIOCore.encode.p90.json": #"{"mallocCountTotal": 603, "wallClock": 1500, "retainCount": 12}"#,
            "NIOCore.leak.p90.json": #"{"memoryLeaked": 0}"#,
        ])
        let budgets = try PackageBenchmarkThresholds(folder: root + "/6.3").budgets
        #expect(budgets.map(\.benchmark) == ["encode", "leak"])
        #expect(
            budgets[0].traits == [
                ".budget(.mallocs, max: 603, build: .release)", ".budget(.retains, max: 12, build: .release)",
                ".budget(.wallClock, p90: .nanoseconds(1500))",
            ])
        #expect(budgets[1].traits == [".budget(.leakedAllocations, max: 0, build: .release)"])
    }

    @Test func aSwiftVersionLineFindsItsFolder() throws {
        let root = try thresholds(["T.m.p90.json": "{}"], toolchain: "6.3")
        #expect(PackageBenchmarkThresholds.versionNumber("Swift version 6.3.1 (swift-6.3.1-RELEASE)") == "6.3.1")
        #expect(
            PackageBenchmarkThresholds.toolchainFolder(in: root, swiftVersion: "Swift version 6.3.1 (x)")?
                .hasSuffix("/6.3") == true)
        #expect(PackageBenchmarkThresholds.toolchainFolder(in: root, swiftVersion: "6.2") == nil)
    }

    /// Bad input: one line naming the file and the field.
    @Test(arguments: [
        (#"[1, 2]"#, "not package-benchmark's threshold format"),
        (#"{"mallocCountTotal": 1e19}"#, "field 'mallocCountTotal': the limit 1e+19 is too large"),
        (#"{"mallocCountTotal": -1}"#, "field 'mallocCountTotal': the limit is negative"),
        (#"{"mallocCountTotal": "many"}"#, "field 'mallocCountTotal': the limit is not a number"),
        (#"{"mallocCountTotal": true}"#, "field 'mallocCountTotal': the limit is not a number"),
    ])
    func badFilesAreRefusedNamingTheField(text: String, problem: String) throws {
        let root = try thresholds(["T.m.p90.json": text])
        do {
            _ = try PackageBenchmarkThresholds(folder: root + "/6.3")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.path.hasSuffix("/6.3/T.m.p90.json"))
            #expect(error.problem.hasPrefix(problem), "\(error.problem)")
            #expect(!error.description.contains("\n"))
        }
    }
}
