import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// The verbs a CI calls, each with its exit status and its output's shape.
@Suite struct VerbTests {
    let directory: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("perfkit-verbs-\(UUID().uuidString)")
            .path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// A run with one clear regression (S/slow: 100 → 130) and one unchanged series.
    func writeRuns() throws {
        var before = Build.run(build: "release", values: [1], id: "S/slow()")
        before.tests =
            Build.processTests(Build.noisy(100, seed: 1), id: "S/slow()")
            + Build.processTests(Build.noisy(50, seed: 2), id: "S/\"quoted, name\"()")
        var after = before
        after.tests =
            Build.processTests(Build.noisy(130, seed: 3), id: "S/slow()")
            + Build.processTests(Build.noisy(50, seed: 2), id: "S/\"quoted, name\"()")
        try before.write(to: directory + "/before.json")
        try after.write(to: directory + "/after.json")
    }

    @Test func compareExitsOneOnARegressionOnlyWithFailOn() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeRuns()
        #expect(
            try PerfkitProcess.run(["baseline", "save", "main", "--from", "before.json"], in: directory).status == 0)
        let lenient = try PerfkitProcess.run(["compare", "main", "--current", "after.json"], in: directory)
        #expect(lenient.status == 0)
        let strict = try PerfkitProcess.run(
            ["compare", "main", "--current", "after.json", "--fail-on", "regression", "--csv", "pr.csv"], in: directory)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("- Component cost: 1 regressed"))
        let same = try PerfkitProcess.run(
            ["compare", "main", "--current", "before.json", "--fail-on", "regression"], in: directory)
        #expect(same.status == 0)
        // CSV escaping: a test name with a quote and a comma stays one field.
        let csv = try String(contentsOfFile: directory + "/pr.csv", encoding: .utf8)
        #expect(csv.contains(#""S/""quoted, name""()""#))
        #expect(csv.split(separator: "\n").allSatisfy { !$0.isEmpty })
    }

    @Test func baselineListShowAndTheFailedPolicy() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeRuns()
        #expect(try PerfkitProcess.run(["baseline", "list"], in: directory).stdout == "")
        _ = try PerfkitProcess.run(["baseline", "save", "main", "--from", "before.json"], in: directory)
        _ = try PerfkitProcess.run(["baseline", "save", "other", "--from", "before.json"], in: directory)
        #expect(try PerfkitProcess.run(["baseline", "list"], in: directory).stdout == "main\nother\n")
        let show = try PerfkitProcess.run(["baseline", "show", "main"], in: directory)
        #expect(show.status == 0)
        #expect(show.stdout.hasPrefix("main: 2 tests"))
        // The stored figures, in the table `perfkit run` ends with: one row per measurement, arm and phase.
        #expect(show.stdout.contains("  S/slow() m"))
        #expect(show.stdout.contains("main/warm"))
        // `failed` replaces only tests whose budgets failed (and adds missing ones).
        var failing = try RunFile.read(from: directory + "/after.json")
        failing.tests[1].budgets = [
            BudgetOutcome(
                measurement: "m", arm: "main", phase: .warm, metric: "wallClock", budget: "max ≤ 1 ns", status: .failed,
                detail: "")
        ]
        try failing.write(to: directory + "/failing.json")
        let saved = try PerfkitProcess.run(
            ["baseline", "save", "main", "--from", "failing.json", "--policy", "failed"], in: directory)
        #expect(saved.stdout.hasPrefix("saved 1 tests"))
        let loaded = try BaselineStore(root: directory + "/Baselines").load("main")
        let slow = try #require(loaded.tests.first { $0.id == "S/slow()" })
        // not replaced: its budgets passed
        #expect(slow.measurements[0].series[0].values == Build.noisy(100, seed: 1).map { $0 * 1_000 })
    }

    @Test(arguments: ["github-smaller", "github-bigger", "bencher"])
    func exportWritesValidJSON(format: String) throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeRuns()
        let result = try PerfkitProcess.run(["export", "after.json", "--format", format], in: directory)
        #expect(result.status == 0)
        #expect((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) != nil)
    }

    @Test func doctorReportsTheAllocatorAndEveryProbe() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try PerfkitProcess.run(["doctor"], in: directory)
        #expect(result.status == 0)
        #expect(result.stdout.contains(Jemalloc.isLinked ? "jemalloc" : "unavailable"))
        #expect(result.stdout.contains("empty measured region"))
    }
}
