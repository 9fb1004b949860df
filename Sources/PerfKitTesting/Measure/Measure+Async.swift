import PerfKitCore

/// Measures an asynchronous block of code.
///
/// An async body may resume on another thread after any suspension, so per-thread metrics
/// (thread CPU, thread bytes, exact allocation counts) would silently count the wrong thread.
/// They are therefore not recorded: the result lists them as unavailable with that reason, and
/// only the wall clock and process-wide CPU are measured. In a counting run it is not run: its
/// instructions are unavailable (``asyncCountReason``). Phase: warm.
/// - Parameters:
///   - name: The measurement's name within the test.
///   - body: The measured region.
/// - Returns: The raw result, also recorded for the test.
/// - Throws: Whatever `body` throws.
@discardableResult
public func measure<Output>(_ name: String, async body: () async throws -> Output) async throws -> MeasurementResult {
    let context = PerformanceContext.current
    let configuration = context?.configuration ?? PerformanceMode.current.configuration(from: RunConfiguration())
    if SimulatedCounter.isCounting {
        let result = MeasurementResult(
            name: name, arms: ["main"], order: [], series: [],
            unavailable: [UnavailableMetric(metric: Metric.instructions.name, reason: asyncCountReason)])
        context?.append(result)
        return result
    }
    // Swift Testing's backtrace of every thrown error is the harness's cost, not the body's (``ThrowHooks``).
    ThrowHooks.suspend()
    defer { ThrowHooks.resume() }
    for _ in 0..<configuration.warmupCalls { blackHole(try await body()) }
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

/// Why an async body has no simulated count. Counted (the collection on around the awaited body,
/// which ran on the measured thread), a body that suspended counted what other threads ran during
/// its suspensions: three heap-shifted processes agreed but for 2 instructions on a quiet machine,
/// and in CI differed by up to 2,587 (0.42%) in one sample, beyond the count tolerance (2026-12-02).
public let asyncCountReason =
    "an async body is not counted: what other threads run while it is suspended would be in its count, and that "
    + "moved by up to 0.42% between processes"
