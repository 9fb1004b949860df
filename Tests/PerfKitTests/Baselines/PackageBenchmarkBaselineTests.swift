import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// package-benchmark's stored baselines (`.benchmarkBaselines/<Target>/<name>/results.json`) read as p90 limits.
///
/// The files are written here in the shape package-benchmark 1.31 writes (Documentation/Thresholds.md; a real file was
/// read side by side, Evidence.md).
@Suite struct PackageBenchmarkBaselineTests {
    let folder = TemporaryFolder("perfkit-pb-baseline")

    /// One result: `metric` with a histogram of 3 significant digits holding `values`.
    static func result(_ metric: String, _ values: [Int], prefersLarger: Bool = false) -> [String: Any] {
        var counts = [Int](repeating: 0, count: 4_096)
        for value in values {
            // Below 2,048 a value is its own index; 2,048…4,095 sit in pairs from index 2,048.
            counts[value < 2_048 ? value : 2_048 + (value >> 1) - 1_024] += 1
        }
        let histogram: [String: Any] = [
            "counts": counts, "_totalCount": values.count, "unitMagnitude": 0, "subBucketHalfCountMagnitude": 10,
            "maxValue": values.max() ?? 0, "minNonZeroValue": values.filter { $0 > 0 }.min() ?? Int(Int64.max),
            "lowestDiscernibleValue": 1, "highestTrackableValue": 4_095, "numberOfSignificantValueDigits": 3,
            "bucketCount": 2, "subBucketMask": 2_047, "leadingZeroCountBase": 53, "autoResize": true,
        ]
        return [
            "metric": [metric: [String: Any]()], "timeUnits": "nanoseconds", "scalingFactor": 1,
            "warmupIterations": 1, "tags": [String: Any](),
            "statistics": [
                "prefersLarger": prefersLarger, "timeUnits": 1, "histogram": histogram,
                "_cachedPercentiles": [Int](), "_cacheUnits": 1, "_cachedPercentilesHistogramCount": 0,
            ] as [String: Any],
        ]
    }

    /// Writes a baseline file of `results` (identifier, results) and returns its path.
    func baseline(_ results: [([String: String], [[String: Any]])]) throws -> String {
        let file: [String: Any] = [
            "baselineName": "first",
            "machine": [
                "hostname": "h", "processors": 2, "processorType": "x86_64", "memory": 24, "kernelVersion": "6",
            ],
            "results": results.flatMap { [$0.0 as Any, $0.1 as Any] },
        ]
        let path = folder.path + "/" + UUID().uuidString + "-results.json"
        try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func eachBenchmarksP90IsReadFromItsHistogram() throws {
        let path = try baseline([
            (
                ["target": "AsyncBench", "name": "fanOut"],
                [
                    Self.result("mallocCountTotal", Array(repeating: 42, count: 9) + [43]),
                    Self.result("wallClock", [1_000, 2_000, 3_000, 3_000, 3_000, 3_000, 3_000, 3_000, 3_000, 3_001]),
                    Self.result("throughput", [5], prefersLarger: true),
                ]
            ),
            (["target": "AsyncBench", "name": "leak"], [Self.result("memoryLeaked", [2, 2, 2])]),
        ])
        let thresholds = try PackageBenchmarkThresholds(baselineFile: path)
        #expect(thresholds.limits.map(\.benchmark) == ["fanOut", "fanOut", "leak"])
        #expect(thresholds.limits.map(\.metric) == [.mallocs, .wallClock, .leakedAllocations])
        // 9 of 10 at 42: the 90th percentile is 42. 3,000 and 3,001 share a bucket of two, whose
        // highest value (3,001) is within the recorded maximum.
        #expect(thresholds.limits.map(\.limit) == [42, 3_001, 2])
        #expect(thresholds.unreadMetrics == ["throughput"])
    }

    /// A baseline package-benchmark 1.31 wrote on this machine for a task-group fan-out.
    ///
    /// A baseline package-benchmark 1.31 (commit edf948e) wrote on this machine for a task-group
    /// fan-out (`Fixtures/package-benchmark-results.json`, 200 samples). Its own `swift package
    /// benchmark baseline read first` printed p90s of 61 mallocs, 34 retains, 124 releases and
    /// 12 µs; its percentile cache in the file is empty, so PerfKit's figures come from the histograms.
    @Test func aRealBaselineReadsAsPackageBenchmarkReadsIt() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/package-benchmark-results.json").path
        let thresholds = try PackageBenchmarkThresholds(baselineFile: path)
        #expect(thresholds.limits.map(\.benchmark) == ["fanOut", "fanOut", "fanOut", "fanOut"])
        #expect(thresholds.limits.map(\.metric) == [.wallClock, .retains, .releases, .mallocs])
        #expect(thresholds.limits.map(\.limit) == [12_119, 34, 124, 61])
        #expect(thresholds.unreadMetrics.isEmpty)
    }

    @Test func aRunIsGatedAgainstABaselinesP90s() throws {
        let path = try baseline([(["target": "T", "name": "m"], [Self.result("mallocCountTotal", [43, 43, 43])])])
        let tests = Build.run(ids: ["S/t()"], metric: .mallocs, values: [40, 44]).tests
        let check = ThresholdCheck(try PackageBenchmarkThresholds(baselineFile: path), tests: tests)
        #expect(check.rows.map(\.status) == [.exceeded])
    }

    /// `perfkit check --thresholds results.json`.
    ///
    /// The table, exit 1 on an exceeded limit, the metrics it could not read named on standard error; a bad file exits
    /// 2 naming it.
    @Test func theCheckVerbGatesOnABaselineFile() throws {
        let path = try baseline([
            (
                ["target": "T", "name": "m"],
                [Self.result("mallocCountTotal", [43, 43, 43]), Self.result("cpuUser", [9])]
            )
        ])
        let run = folder.path + "/" + UUID().uuidString + "-run.json"
        try Build.run(ids: ["S/t()"], metric: .mallocs, values: [40, 44]).write(to: run)
        let result = try PerfkitProcess.run(["check", "--thresholds", path, "--current", run], in: folder.path)
        #expect(result.status == ExitStatus.regression, "\(result.stderr)")
        #expect(result.stdout.contains("0 passed, 1 exceeded, 0 not in this run"), "\(result.stdout)")
        #expect(result.stderr.contains("not read (no PerfKit counterpart): cpuUser"), "\(result.stderr)")
        let bad = folder.path + "/" + UUID().uuidString + "-results.json"
        try Data("[]".utf8).write(to: URL(fileURLWithPath: bad))
        let refused = try PerfkitProcess.run(["check", "--thresholds", bad, "--current", run], in: folder.path)
        #expect(refused.status == ExitStatus.badInput)
        #expect(refused.stderr.contains(bad), "\(refused.stderr)")
    }

    /// Bad input: one line naming the file and the field.
    @Test(arguments: [
        (#"{"results": {}}"#, "not package-benchmark's baseline format: field '.results'"),
        (#"{"results": []}"#, "holds no benchmark result"),
        (#"{"results": [{"target": "T"}, []]}"#, "not package-benchmark's baseline format: field '.results[0].name'"),
        (
            #"{"results": [{"target": "T", "name": "m"}, [{"metric": {"wallClock": {}}, "statistics": {}}]]}"#,
            "not package-benchmark's baseline format: field '.results[1][0].statistics.prefersLarger' is missing"
        ),
    ])
    func badFilesAreRefusedNamingTheField(text: String, problem: String) throws {
        let path = folder.path + "/" + UUID().uuidString + "-results.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try PackageBenchmarkThresholds(baselineFile: path)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.path == path)
            #expect(error.problem.hasPrefix(problem), "\(error.problem)")
            #expect(!error.description.contains("\n"))
        }
    }
}
