import PerfKit
import Testing

/// Records each request and answers with one wall-clock value per sample a process takes of the samples asked for.
private final class RecordingLauncher: MeasuredProcessLauncher {
    var requests: [MeasuredProcessRequest] = []
    var failingProcess: Int?

    func measure(_ request: MeasuredProcessRequest) throws -> MeasuredProcessOutcome {
        let index = requests.count
        requests.append(request)
        var series = SampleSeries(metric: .wallClock, arm: "main", phase: .warm)
        let processes = request.environment["PERFKIT_PROCESSES"].flatMap(Int.init) ?? 1
        for round in 0..<RunConfiguration.share(of: request.samples ?? 3, processes: processes) {
            series.append(Double(1_000 * (index + 1)), round: round, position: 0, index: round)
        }
        let test = TestResult(
            id: "S/t()", suite: "S",
            measurements: [MeasurementResult(name: "m", arms: ["main"], order: [], series: [series], unavailable: [])])
        return MeasuredProcessOutcome(tests: [test], status: index == failingProcess ? 1 : 0)
    }
}

@Suite struct MeasuredRunTests {
    @Test func samplesAreSplitOverFreshProcessesAndMergedWithProcessLabels() throws {
        let launcher = RecordingLauncher()
        let (tests, status) = try MeasuredRun.measure(
            bundle: "b.xctest", filter: "Benchmarks/", samples: 30, processes: 8, launcher: launcher)
        #expect(launcher.requests.count == 8)
        // The total goes to every process, which takes its share as it does of a test's own samples.
        #expect(launcher.requests.allSatisfy { $0.samples == 30 })
        #expect(RunConfiguration.share(of: 30, processes: 8) == 4, "30 samples over 8 processes: 4 each")
        #expect(launcher.requests.map { $0.environment["PERFKIT_PROCESS_INDEX"] } == (0..<8).map { String($0) })
        #expect(launcher.requests.allSatisfy { $0.environment["PERFKIT_PROCESSES"] == "8" })
        #expect(
            launcher.requests.map(\.forwardOutput) == [true] + Array(repeating: false, count: 7),
            "only the first process's output is shown")
        let series = try #require(tests.first?.measurements.first?.series.first)
        #expect(series.values.count == 32)
        #expect(series.processes == (0..<8).flatMap { Array(repeating: $0, count: 4) })
        #expect(series.processMedians() == (1...8).map { Double(1_000 * $0) })
        #expect(status == 0)
    }

    @Test func oneProcessGetsNoSplitEnvironmentAndATestFailureIsStatusOne() throws {
        let launcher = RecordingLauncher()
        launcher.failingProcess = 0
        let (tests, status) = try MeasuredRun.measure(
            bundle: "b.xctest", filter: "x", samples: nil, processes: 1, launcher: launcher)
        #expect(
            launcher.requests.count == 1 && launcher.requests[0].environment.isEmpty
                && launcher.requests[0].samples == nil)
        #expect(tests[0].measurements[0].series[0].processes == nil)
        #expect(status == 1)
    }
}
