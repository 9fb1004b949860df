import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Where a stored comparison's noise comes from: processes, machines, the clock.
@Suite struct ReplicationTests {
    typealias V = Build

    static func environment(cpu: String = "AMD EPYC", kernel: String = "6.1") -> Environment {
        Environment(
            commit: "c", branch: "main", dirty: false, swiftVersion: "6.3.1", buildConfiguration: "release",
            machine: MachineFingerprint(
                cpuModel: cpu, cores: 2, kernel: kernel, operatingSystem: "Debian 12", governor: nil,
                memoryBytes: 24 << 30),
            allocator: "jemalloc")
    }

    /// A wall-clock series and an exact malloc count in one test.
    static func tests(wall: [Double], mallocs: Double, processes: [Int]?) -> [TestResult] {
        let wallSeries = Build.series(.wallClock, values: wall.map { $0 * 1_000 }, processes: processes)
        let mallocSeries = Build.series(.mallocs, values: wall.map { _ in mallocs }, processes: processes)
        let m = MeasurementResult(
            name: "m", arms: ["main"], order: [], series: [wallSeries, mallocSeries], unavailable: [])
        return [TestResult(id: "S/t()", suite: "S", measurements: [m])]
    }

    /// Eight processes a side, the current side on another CPU and kernel: time 100 → 230, mallocs 10 → 12.
    static func onAnotherMachine() throws -> Comparison {
        let eight = Array(0..<8)
        return try Comparison(
            baseline: Self.tests(wall: V.noisy(100, seed: 1, count: 8), mallocs: 10, processes: eight),
            current: Self.tests(wall: V.noisy(230, seed: 2, count: 8), mallocs: 12, processes: eight),
            baselineEnvironment: Self.environment(),
            currentEnvironment: Self.environment(cpu: "Intel Xeon", kernel: "6.8"))
    }

    @Test func anotherMachineJudgesCountsButNotTime() throws {
        let comparison = try Self.onAnotherMachine()
        #expect(comparison.machineDifferences == ["CPU model", "kernel"])
        let wall = try #require(comparison.rows.first { $0.metric == .wallClock })
        #expect(wall.verdict == .notJudged)
        #expect(wall.reason == .otherMachine)
        #expect(comparison.rows.first { $0.metric == .mallocs }?.verdict == .regressed)  // 10 → 12, exact
        let report = MarkdownReport(title: "T", command: "perfkit compare main", comparison: comparison).render()
        let top = report.split(separator: "\n").prefix(12).joined(separator: "\n")
        #expect(top.contains("different machine") && top.contains("CPU model, kernel") && top.contains("perfkit abba"))
        let eight = Array(0..<8)
        let allowed = try Comparison(
            baseline: Self.tests(wall: V.noisy(100, seed: 1, count: 8), mallocs: 10, processes: eight),
            current: Self.tests(wall: V.noisy(230, seed: 2, count: 8), mallocs: 12, processes: eight),
            baselineEnvironment: Self.environment(), currentEnvironment: Self.environment(cpu: "Intel Xeon"),
            allowOtherMachine: true)
        #expect(allowed.rows.first { $0.metric == .wallClock }?.verdict == .regressed)
    }

    @Test func aNoisyStoredComparisonSaysWhatChangeItCouldHaveSeen() throws {
        // Eight processes a side whose medians spread by ±20% (as this VM's do): a 10% change is
        // inconclusive, and the row says how large a change these processes could have detected.
        let eight = Array(0..<8)
        let spread = [0.8, 1.2, 0.9, 1.1, 0.85, 1.15, 0.95, 1.05]
        let comparison = try Comparison(
            baseline: Self.tests(wall: spread.map { 100 * $0 }, mallocs: 10, processes: eight),
            current: Self.tests(wall: spread.reversed().map { 110 * $0 }, mallocs: 10, processes: eight),
            bands: NoiseBands().withCrossRunDefault)
        let wall = try #require(comparison.rows.first { $0.metric == .wallClock })
        #expect(wall.verdict == .inconclusive)
        #expect(wall.replicatedOver == .processes)
        #expect(comparison.rows.first { $0.metric == .mallocs }?.replicatedOver == nil)
        let detectable = try #require(wall.detectableChange)
        #expect(detectable > 0.25 && detectable < 0.6)
        let headline = ReportHeadline(comparison, direction: "current against main").lines.joined(separator: "\n")
        #expect(
            headline.contains(
                "The smallest change the inconclusive timing rows could have called (80% power): about "
                    + "±\(Int((detectable * 100).rounded()))%."
            ))
    }

    @Test func oneProcessPerSideLeavesTimingUnjudged() throws {
        let comparison = try Comparison(
            baseline: Self.tests(wall: V.noisy(100, seed: 1), mallocs: 10, processes: nil),
            current: Self.tests(wall: V.noisy(150, seed: 2), mallocs: 10, processes: nil))
        let wall = try #require(comparison.rows.first { $0.metric == .wallClock })
        #expect(wall.verdict == .notJudged)
        #expect(wall.reason == .onePerSide)
        #expect(comparison.rows.first { $0.metric == .mallocs }?.verdict == .unchanged)
    }

    @Test func perProcessMediansAreTheUnitOfAStoredComparison() throws {
        // Three processes a side, four samples each: the comparison sees three medians a side.
        var wall = SampleSeries(metric: .wallClock, arm: "main", phase: .warm)
        for (k, v) in [10.0, 11, 12, 100, 20, 21, 22, 23, 30, 31, 32, 33].enumerated() {
            wall.append(v, round: k % 4, position: 0, index: k % 4)
        }
        wall.processes = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
        #expect(wall.processCount == 3)
        #expect(wall.processMedians() == [11.5, 21.5, 31.5])
        let merged = [TestResult].merging(processes: [
            Self.tests(wall: [1, 2], mallocs: 3, processes: nil), Self.tests(wall: [4, 5], mallocs: 3, processes: nil),
        ])
        let series = try #require(merged.first?.measurements.first?.series.first { $0.metric == .wallClock })
        #expect(series.values == [1_000, 2_000, 4_000, 5_000])
        #expect(series.processes == [0, 0, 1, 1])
    }

    @Test func threadCPUBesideAWallClockIsNotASecondDecision() throws {
        func tests(_ center: Double, seed: UInt64) -> [TestResult] {
            var result = V.processTests(V.noisy(center, seed: seed), metric: .wallClock)
            var cpu = result[0].measurements[0].series[0]
            cpu.metric = .threadCPU
            result[0].measurements[0].series.append(cpu)
            return result
        }
        let comparison = try Comparison(baseline: tests(100, seed: 1), current: tests(130, seed: 2))
        #expect(comparison.rows.first { $0.metric == .wallClock }?.verdict == .regressed)
        let cpu = try #require(comparison.rows.first { $0.metric == .threadCPU })
        #expect(cpu.verdict == .notJudged && cpu.reason == .supportingCPU)
        #expect(comparison.count(.regressed) == 1)
    }

    @Test func samplesAtTheClocksResolutionAreShownNotJudged() throws {
        // 100 ns → 200 ns
        let fast = try Comparison(
            baseline: V.processTests(V.noisy(0.1, seed: 1)), current: V.processTests(V.noisy(0.2, seed: 2)))
        #expect(fast.rows[0].verdict == .notJudged)
        #expect(fast.rows[0].reason == .clockResolution)
    }

    @Test func aBatchedFastBodyIsJudgedPerCall() throws {
        // The same 100 ns → 200 ns per call, each sample timed over 1,000 calls (100 µs a sample).
        func batched(_ tests: [TestResult]) -> [TestResult] {
            var t = tests
            let count = t[0].measurements[0].series[0].values.count
            t[0].measurements[0].series[0].callsPerSample = Array(repeating: 1_000, count: count)
            return t
        }
        let comparison = try Comparison(
            baseline: batched(V.processTests(V.noisy(0.1, seed: 1))),
            current: batched(V.processTests(V.noisy(0.2, seed: 2))))
        #expect(comparison.rows[0].verdict == .regressed)
    }

    @Test func eachSideIsJudgedByItsOwnSampleDuration() throws {
        // A batched 90 ns body (550 calls a sample: 50 µs) against a 130 µs one timed one call a sample:
        // both samples are far above the clock's resolution, so the row is judged, whatever the per-call figure.
        var fast = V.processTests(V.noisy(0.09, seed: 1))
        fast[0].measurements[0].series[0].callsPerSample = Array(
            repeating: 550, count: fast[0].measurements[0].series[0].values.count)
        let slow = V.processTests(V.noisy(130, seed: 2))
        let comparison = try Comparison(baseline: fast, current: slow)
        #expect(comparison.rows[0].verdict == .regressed)
        // Unbatched, the same 90 ns samples are at the clock's resolution.
        let unbatched = try Comparison(baseline: V.processTests(V.noisy(0.09, seed: 1)), current: slow)
        #expect(unbatched.rows[0].verdict == .notJudged && unbatched.rows[0].reason == .clockResolution)
    }

    @Test func aVersionOneRunFileIsStillRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("perfkit-v1-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = Build.run(build: "release", values: [1, 2, 3])
        var text = String(decoding: try StoredFile.encode(run, for: "v1.json"), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"schemaVersion\" : 2", with: "\"schemaVersion\" : 1")
        try text.write(toFile: directory + "/v1.json", atomically: true, encoding: .utf8)
        let read = try RunFile.read(from: directory + "/v1.json")
        #expect(read.tests == run.tests)
        #expect(read.tests[0].measurements[0].series[0].processCount == 1)
    }
}
