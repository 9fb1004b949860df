import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

@Suite struct SeriesIDTests {
    let id = SeriesID(
        test: "Module.LayoutBenchmarks/history(days:)", measurement: "history-7d", arm: "week", phase: .warm,
        metric: "wallClock")

    @Test func partsAreReadFromTheIdentityNeverFromAJoinedString() {
        #expect(id.suite == "Module.LayoutBenchmarks")
        #expect(id.testName == "history(days:)")
        #expect(id.shortTest == "LayoutBenchmarks/history(days:)")
        #expect(id.storageKey == "Module.LayoutBenchmarks/history(days:)|history-7d|week|warm|wallClock")
        #expect(id.with(metric: .threadCPU).metric == "threadCPU" && id.with(metric: .threadCPU).arm == "week")
        #expect(SeriesID.shortTest("NoSuite") == "NoSuite")
    }

    @Test func rowsOfEveryPipelineCarryTheSameIdentity() throws {
        let series = Build.series(.wallClock, values: (0..<4).map { i in 1_000_000 + Double(i) }, arm: "week")
        let tests = [
            TestResult(
                id: id.test, suite: id.suite,
                measurements: [
                    MeasurementResult(
                        name: id.measurement, arms: ["week"], order: [], series: [series], unavailable: [])
                ])
        ]
        let unpaired = try Comparison(baseline: tests, current: tests)
        #expect(unpaired.rows.map(\.id) == [id])
        let paired = try PairedSeries.pair(
            (0..<4).map { PairedSeries.Round(baseline: tests, current: tests, currentRanSecond: $0 % 2 == 0) })
        #expect(paired.paired.map(\.id) == [id])
    }

    /// Version 1 noise files held each entry's identity as a joined string; their bands are still read.
    @Test func aVersionOneNoiseFileStillGivesItsBands() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "perfkit-noise-\(UUID().uuidString).json"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = """
            {"schemaVersion": 1, "date": "2026-11-29T00:00:00Z", "rounds": 4, "repeats": 2,
             "machine": {"cpuModel": "cpu", "cores": 2, "kernel": "k", "operatingSystem": "os", "memoryBytes": 1},
             "bands": {"defaultRelative": 0.01, "perSeries": {"\(id.storageKey)": 0.02}, "relative": {}, "absolute": \
            {}},
             "entries": [{"series": "\(id.storageKey)", "band": 0.02, "falseAlarms": 0, "repeats": 2, \
            "resolvableChange": 0.03}]}
            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let machine = MachineFingerprint(
            cpuModel: "cpu", cores: 2, kernel: "k", operatingSystem: "os", governor: nil, memoryBytes: 1)
        let bands = try NoiseBandsFile.load(path, machine: machine)
        #expect(bands.band(for: id, metric: .wallClock) == 0.02)
        #expect(bands.band(for: id.with(metric: .threadCPU), metric: .threadCPU) == 0.01)
    }
}
