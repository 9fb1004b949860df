import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A save killed at any moment leaves the baseline entirely old or entirely new.
@Suite struct BaselineKillTests {
    /// A run of `suites` suites whose every sample is `version`, so a mix of two saves shows.
    static func run(version: Double, suites: Int) -> RunFile {
        var run = Build.run(build: "release", values: [version])
        let template = run.tests[0]
        run.tests = (0..<suites).map { k in
            var test = template
            test.id = "Suite\(k)/t()"
            test.suite = "Suite\(k)"
            let series = Build.series(.wallClock, values: (0..<200).map { i in version })
            test.measurements[0].series[0] = series
            return test
        }
        return run
    }

    /// The versions found in a loaded baseline: one element unless two saves were mixed.
    static func versions(_ baseline: BaselineStore.Baseline) -> Set<Double> {
        Set(baseline.tests.flatMap { $0.measurements[0].series[0].values })
    }

    @Test func aSaveKilledAtAnyMomentLeavesTheOldOrTheNewBaseline() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "perfkit-kill-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = BaselineStore(root: directory + "/Baselines")
        let suites = 60
        try store.save(Self.run(version: 1, suites: suites), as: "main")
        try Self.run(version: 2, suites: suites).write(to: directory + "/v2.json")
        try Self.run(version: 1, suites: suites).write(to: directory + "/v1.json")
        var generator = SeededGenerator(seed: 0xC0FFEE)
        for attempt in 0..<24 {
            let process = try PerfkitProcess.start(
                ["baseline", "save", "main", "--from", attempt % 2 == 0 ? "v2.json" : "v1.json"], in: directory)
            // Kill at a seeded moment spread over the save (process start, reading, staging, renaming).
            usleep(UInt32(generator.index(below: 120_000)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let loaded = try store.load("main")
            let found = Self.versions(loaded)
            #expect(found.count == 1, "attempt \(attempt): a killed save mixed versions \(found.sorted())")
            #expect(loaded.tests.count == suites)
        }
        // Staging folders of killed saves are not baselines, and the next save removes them.
        #expect(store.list() == ["main"])
        try store.save(Self.run(version: 3, suites: suites), as: "main")
        #expect(try Self.versions(store.load("main")) == [3])
        let hidden = try FileManager.default.contentsOfDirectory(atPath: directory + "/Baselines").filter {
            $0.hasPrefix(".main.staging")
        }
        #expect(hidden.isEmpty)
    }
}
