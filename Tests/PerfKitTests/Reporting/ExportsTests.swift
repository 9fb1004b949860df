import Foundation
import PerfKit
import Testing

@Suite struct ExportsTests {
    static let tests: [TestResult] = {
        var time = SampleSeries(metric: .wallClock, arm: "main", phase: .warm)
        var reused = SampleSeries(
            metric: Metric("viewsReused", unit: .count, polarity: .largerIsBetter, isDeterministic: true), arm: "main",
            phase: .warm)
        for (i, v) in [100.0, 110, 120, 130, 140].enumerated() {
            time.append(v, round: i, position: 0, index: i)
            reused.append(7, round: i, position: 0, index: i)
        }
        let measurement = MeasurementResult(
            name: "scroll", arms: ["main"], order: [], series: [time, reused], unavailable: [])
        return [TestResult(id: "S/t()", suite: "S", measurements: [measurement])]
    }()

    @Test func githubActionBenchmarkSplitsByPolarity() throws {
        let smaller = try #require(
            try JSONSerialization.jsonObject(
                with: Exports.githubActionBenchmark(Self.tests, polarity: .smallerIsBetter)) as? [[String: Any]])
        let bigger = try #require(
            try JSONSerialization.jsonObject(with: Exports.githubActionBenchmark(Self.tests, polarity: .largerIsBetter))
                as? [[String: Any]])
        #expect(smaller.count == 1 && bigger.count == 1)
        #expect(smaller[0]["name"] as? String == "S/t() scroll [main, warm] wallClock")
        #expect(smaller[0]["unit"] as? String == "ns" && smaller[0]["value"] as? Double == 120)
        #expect(bigger[0]["value"] as? Double == 7)
    }

    @Test func bencherMetricFormatHasValueAndBounds() throws {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Exports.bencher(Self.tests)) as? [String: [String: [String: Double]]]
        )
        let measures = try #require(document["S/t() scroll [main, warm]"])
        #expect(measures["wall-clock"] == ["value": 120, "lower_value": 104, "upper_value": 136])
        #expect(measures["views-reused"]?["value"] == 7)
    }

    @Test func runSummaryIsATableOfTheDecidingFiguresOrTheFirstMetricOfAMeasurement() {
        let environment = Fixtures.releaseEnvironment
        var memory = SampleSeries(metric: .residentMemory, arm: "native", phase: .warm)
        for (i, v) in [3.0, 1, 2].enumerated() { memory.append(v * 1_048_576, round: i, position: 0, index: i) }
        let memoryTest = TestResult(
            id: "M/p()", suite: "M",
            measurements: [
                MeasurementResult(name: "process", arms: ["native"], order: [], series: [memory], unavailable: [])
            ])
        let text = RunSummary.text(
            RunFile(
                date: Date(timeIntervalSince1970: 0), mode: "measure", environment: environment,
                tests: Self.tests + [memoryTest]))
        #expect(
            text.split(separator: "\n").dropFirst().map(String.init) == [
                "  test and measurement  arm/phase                    wall  instructions  mallocs  leaked  fds  "
                    + "retains  budgets",
                "  M/p() process         native/warm  residentMemory 2 MiB" + String(repeating: " ", count: 53)
                    + "–",
                "  S/t() scroll          main/warm                  120 ns             –        –       –    –  "
                    + "      –        –",
            ])
    }
}

/// A release-build environment for tests.
enum Fixtures {
    static let releaseEnvironment = Environment(
        commit: "c", branch: "b", dirty: false, swiftVersion: "6.3.1", buildConfiguration: "release",
        machine: MachineFingerprint(
            cpuModel: "cpu", cores: 2, kernel: "k", operatingSystem: "os", governor: nil, memoryBytes: 1 << 34),
        allocator: "jemalloc")
}
