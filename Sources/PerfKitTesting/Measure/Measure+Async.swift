import PerfKitCore

/// Measures an asynchronous block of code.
///
/// The body runs on a thread of PerfKit's own with its child tasks and the default actors it calls
/// (``AsyncRunner``), so its wall time does not depend on thread wake-ups, and its allocations,
/// leaks and (in a counting run) instructions and retain/release calls are counted whole. Work it
/// hands to a Dispatch queue is timed but not counted. Phase: warm.
/// - Parameters:
///   - name: The measurement's name within the test.
///   - body: The measured region.
/// - Returns: The raw result, also recorded for the test.
/// - Throws: Whatever `body` throws.
@discardableResult
public func measure<Output>(_ name: String, async body: () async throws -> Output) async throws -> MeasurementResult {
    let context = PerformanceContext.current
    let mode = PerformanceMode.current
    let configuration = context?.configuration ?? mode.configuration(from: RunConfiguration())
    // `perfkit run` runs a process's tests one at a time: only there may the runtime's global jobs
    // join the body's thread (under `swift test`, another test's would too).
    let runner = AsyncRunner(configuration: configuration, redirectsGlobalJobs: mode.kind != .smoke)
    let result = try await runner.measure(name, body)
    context?.append(result)
    return result
}
