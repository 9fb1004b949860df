import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// A run written back as package-benchmark's threshold files, and read again.
@Suite struct ThresholdExportTests {
    let folder = TemporaryFolder("perfkit-threshold-export")

    /// A run of `Target.Suite/t()` with measurement "encode": mallocs 40 and 44, instructions 1,000 and 1,010.
    static func run() -> RunFile {
        var run = Build.run(ids: ["Target.Suite/t()"], metric: .mallocs, values: [40, 44])
        run.tests[0].measurements[0].name = "encode"
        run.tests[0].measurements[0].series.append(Build.series(.instructions, values: [1_000, 1_010]))
        run.environment.swiftVersion = "Swift version 6.3.1 (swift-6.3.1-RELEASE)"
        return run
    }

    @Test func aRunWrittenAsThresholdsPassesItsOwnCheck() throws {
        let export = ThresholdExport(Self.run())
        #expect(export.files.map(\.path) == ["6.3/Target.encode.p90.json"])
        // The p90 of [1,000, 1,010] is 1,009 (interpolated), of [40, 44] 43.6: rounded up.
        #expect(export.files[0].limits == ["mallocCountTotal": 44, "instructions": 1_009])
        #expect(export.files[0].text == "{\n  \"instructions\" : 1009,\n  \"mallocCountTotal\" : 44\n}\n")
        try export.write(to: folder.path)
        let found = try #require(PackageBenchmarkThresholds.toolchainFolder(in: folder.path, swiftVersion: "6.3.1"))
        let check = ThresholdCheck(try PackageBenchmarkThresholds(folder: found), tests: Self.run().tests)
        #expect(check.rows.map(\.status) == [.passed, .passed])
    }

    /// package-benchmark-shaped files → limits → files: equal.
    @Test func filesReadAndWrittenAgainAreTheSame() throws {
        let text = "{\n  \"instructions\" : 1010,\n  \"mallocCountTotal\" : 44\n}\n"
        try folder.write(["Thresholds/6.3/Target.encode.p90.json": text])
        let read = try PackageBenchmarkThresholds(folder: folder.path + "/Thresholds/6.3")
        var run = Self.run()
        // The run whose p90s are the limits.
        run.tests[0].measurements[0].series = read.limits.map { Build.series($0.metric, values: [$0.limit]) }
        let again = ThresholdExport(run)
        #expect(again.files.map(\.text) == [text])
    }

    /// A team's relative tolerance widens every limit; a name no file can carry is skipped with why.
    @Test func aToleranceWidensAndAnUnwritableNameIsNamed() throws {
        try folder.write(["T/6.3/A.b.p90.json": #"{"mallocCountTotal": 100}"#])
        let wider = try PackageBenchmarkThresholds(folder: folder.path + "/T/6.3").widened(by: 0.1)
        #expect(wider.limits.map(\.limit) == [110])
        var run = Self.run()
        run.tests[0].measurements[0].name = "a/b"
        #expect(ThresholdExport(run).skipped.count == 1)
    }

    /// Toolchain folders as teams name them, and a miss that lists what is there.
    @Test func toolchainFoldersAreFoundAsTeamsNameThem() throws {
        try folder.write([
            "X/Xcode swift 6.3/A.b.p90.json": "{}", "N/nightly-main/A.b.p90.json": "{}", "V/5.10/A.b.p90.json": "{}",
        ])
        #expect(
            PackageBenchmarkThresholds.toolchainFolder(in: folder.path + "/X", swiftVersion: "6.3.1")?.hasSuffix(
                "Xcode swift 6.3") == true)
        #expect(
            PackageBenchmarkThresholds.toolchainFolder(
                in: folder.path + "/N", swiftVersion: "Swift version 6.4-dev (LLVM …)")?.hasSuffix("nightly-main")
                == true)
        #expect(PackageBenchmarkThresholds.toolchainFolder(in: folder.path + "/V", swiftVersion: "5.10.1") != nil)
        #expect(PackageBenchmarkThresholds.toolchainFolder(in: folder.path + "/V", swiftVersion: "5.1") == nil)
        #expect(PackageBenchmarkThresholds.noToolchainFolder(in: folder.path + "/V", version: "6.3.1").contains("5.10"))
    }
}
