import PerfKitCore

/// Measures an asynchronous block of code.
///
/// An async body may resume on another thread after any suspension, so per-thread metrics
/// (thread CPU, thread bytes, exact allocation counts) would silently count the wrong thread.
/// They are therefore not recorded: the result lists them as unavailable with that reason, and
/// only the wall clock and process-wide CPU are measured; in a counting run, its simulated
/// instructions (``SimulatedCounter/count(label:async:)``). Phase: warm.
/// - Parameters:
///   - name: The measurement's name within the test.
///   - body: The measured region.
/// - Returns: The raw result, also recorded for the test.
/// - Throws: Whatever `body` throws.
@discardableResult
public func measure<Output>(_ name: String, async body: () async throws -> Output) async throws -> MeasurementResult {
    let context = PerformanceContext.current
    let configuration = context?.configuration ?? PerformanceMode.current.configuration(from: RunConfiguration())
    for _ in 0..<configuration.warmupCalls { blackHole(try await body()) }
    if SimulatedCounter.isCounting {
        let result = try await countedSamples(name, configuration: configuration, body)
        context?.append(result)
        return result
    }
    var wall = SampleSeries(metric: .wallClock, arm: "main", phase: .warm)
    var user = SampleSeries(metric: .processUserCPU, arm: "main", phase: .warm)
    var system = SampleSeries(metric: .processSystemCPU, arm: "main", phase: .warm)
    for round in 0..<configuration.samples {
        let usage0 = ResourceUsage.current()
        let start = SystemClock.monotonicNanoseconds()
        let output = try await body()
        let end = SystemClock.monotonicNanoseconds()
        let usage1 = ResourceUsage.current()
        blackHole(output)
        wall.append(Double(end - start), round: round, position: 0, index: round)
        user.append(
            Double(usage1.userCPUNanoseconds - usage0.userCPUNanoseconds), round: round, position: 0, index: round)
        system.append(
            Double(usage1.systemCPUNanoseconds - usage0.systemCPUNanoseconds), round: round, position: 0,
            index: round)
    }
    let reason = "the body is async and may resume on another thread; per-thread counters would count the wrong thread"
    let unavailable = configuration.metrics.filter { $0.scope == .thread && $0 != .wallClock }.map(\.name).sorted()
        .map { UnavailableMetric(metric: $0, reason: reason) }
    let result = MeasurementResult(
        name: name, arms: ["main"], order: (0..<configuration.samples).map { _ in [0] },
        series: [wall, user, system], unavailable: unavailable)
    context?.append(result)
    return result
}

/// A counting run's samples of an async body: its simulated instructions, one call a sample
/// (``SimulatedCounter/count(label:async:)``), with each sample's dump number.
func countedSamples<Output>(
    _ name: String, configuration: RunConfiguration, _ body: () async throws -> Output
) async throws -> MeasurementResult {
    var instructions = SampleSeries(metric: .instructions, arm: "main", phase: .warm)
    for round in 0..<configuration.samples {
        let (output, count, dump, threads) = try await SimulatedCounter.count(label: "main|warm|\(round)", async: body)
        blackHole(output)
        guard let count else { continue }
        instructions.append(Double(count), round: round, position: 0, index: round)
        instructions.callgrindDumps = (instructions.callgrindDumps ?? []) + [dump]
        instructions.heapUnpinned = PinnedHeap.unavailableReason
        if threads != 0 || instructions.threadsStarted != nil {
            instructions.threadsStarted =
                (instructions.threadsStarted ?? Array(repeating: 0, count: instructions.values.count - 1)) + [threads]
        }
    }
    return MeasurementResult(
        name: name, arms: ["main"], order: (0..<configuration.samples).map { _ in [0] }, series: [instructions],
        unavailable: [])
}
