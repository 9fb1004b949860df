import PerfKitCore

// What a test names, re-exported one by one (a test needs only `import PerfKitTesting`); the rest of PerfKitCore, the
// runner's plumbing, stays behind `import PerfKit`.
@_exported import struct PerfKitCore.Arm
@_exported import struct PerfKitCore.ClosureSubject
@_exported import protocol PerfKitCore.MeasurableSubject
@_exported import enum PerfKitCore.MeasurementPlatform
@_exported import struct PerfKitCore.MeasurementResult
@_exported import struct PerfKitCore.Metric
@_exported import struct PerfKitCore.MetricKind
@_exported import struct PerfKitCore.Phase
@_exported import struct PerfKitCore.RunConfiguration
@_exported import struct PerfKitCore.SampleSeries
@_exported import struct PerfKitCore.SeededGenerator
@_exported import struct PerfKitCore.UnavailableMetric
@_exported import func PerfKitCore.blackHole

/// Measures a block of code: the measured region of a performance test.
///
/// The body runs on the calling thread; its result is passed to ``blackHole(_:)`` so the
/// optimizer cannot remove the work. Outside a test with the performance trait it runs in
/// smoke mode.
/// - Parameters:
///   - name: The measurement's name within the test.
///   - body: The measured region.
/// - Returns: The raw result, also recorded for the test.
/// - Throws: Whatever `body` throws.
@discardableResult
public func measure<Output>(_ name: String, _ body: @escaping () throws -> Output) throws -> MeasurementResult {
    try measure(name, arms: [Arm("main", ClosureSubject(body))])
}

/// Measures a subject through the phases it supports.
/// - Parameters:
///   - name: The measurement's name within the test.
///   - subject: The subject.
/// - Returns: The raw result.
/// - Throws: Whatever the subject throws.
@discardableResult
public func measure(_ name: String, subject: some MeasurableSubject) throws -> MeasurementResult {
    try measure(name, arms: [Arm("main", subject)])
}

/// Measures two or more arms (for example a reference and a native policy) in ABBA order.
/// - Parameters:
///   - name: The measurement's name within the test.
///   - arms: The arms; each takes one sample per round, positions counterbalanced.
/// - Returns: The raw result.
/// - Throws: Whatever a subject throws.
@discardableResult
public func measure(_ name: String, arms: [Arm]) throws -> MeasurementResult {
    let context = PerformanceContext.current
    let configuration = context?.configuration ?? PerformanceMode.current.configuration(from: RunConfiguration())
    let result = try Runner(configuration: configuration).measure(name, arms: arms)
    context?.append(result)
    return result
}
