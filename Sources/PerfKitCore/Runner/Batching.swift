import Foundation

/// How the runner times fast bodies: several calls per sample, so a sample is long enough for the
/// clocks to resolve it.
///
/// A monotonic clock read costs 20–30 ns here and a thread-CPU read about 0.4 µs, so a 40 ns body
/// timed one call per sample is mostly clock. Before the timed pass of the warm phase the runner
/// calibrates `k`, the calls per sample, so one sample lasts at least ``targetSampleNanoseconds``
/// (about 2,000 clock reads), as criterion.rs and Google Benchmark do; every additive metric of
/// the sample (time, CPU, bytes, context switches) is then divided by `k`, so values are always
/// per call. Cold and eviction samples stay one call (their state is fresh or evicted before each
/// sample), as do subjects whose ``MeasurableSubject/allowsBatching`` is false, and the exact-count
/// and memory passes.
public enum Batching {
    /// The shortest batched sample the calibration aims for.
    ///
    /// 50 µs, about 2,000 × a clock read, so the two reads bracketing a sample are under 0.1% of it and the thread-CPU
    /// reads under 1%.
    public static let targetSampleNanoseconds: Double = 50_000
    /// The most calls one sample may hold.
    public static let maximumCalls = 1 << 20

    /// The calls per sample for a body whose timed batches took `elapsed` nanoseconds for `calls` calls.
    ///
    /// `nil` when `calls` already reach the target, else the next batch size to try (aiming at 1.2 × the target,
    /// growing at least 2× and at most 10× a step).
    /// - Parameters:
    ///   - calls: Calls in the batch just timed.
    ///   - elapsed: Its duration in nanoseconds.
    ///   - target: The sample duration to reach.
    /// - Returns: `nil` when done, else the next batch size.
    package static func nextCalls(after calls: Int, took elapsed: UInt64, target: Double = targetSampleNanoseconds)
        -> Int?
    {
        if Double(elapsed) >= target || calls >= maximumCalls { return nil }
        let perCall = max(Double(elapsed) / Double(calls), 0.1)
        let predicted = (target * 1.2 / perCall).rounded(.up)
        let next = Swift.max(
            calls * 2, Swift.min(calls * 10, predicted >= Double(maximumCalls) ? maximumCalls : Int(predicted)))
        return Swift.min(maximumCalls, next)
    }

    /// Calibrates the calls per sample of `body`: times batches of 1, then more calls, until one
    /// batch lasts at least `target`.
    /// - Parameters:
    ///   - target: The sample duration to reach, in nanoseconds.
    ///   - body: One call of the measured work.
    /// - Returns: The calls per sample (1 when one call already reaches the target).
    /// - Throws: Whatever `body` throws.
    package static func calibrate(target: Double = targetSampleNanoseconds, _ body: () throws -> Void) rethrows -> Int {
        var calls = 1
        while true {
            let start = SystemClock.monotonicNanoseconds()
            for _ in 0..<calls { try body() }
            let elapsed = SystemClock.monotonicNanoseconds() &- start
            guard let next = nextCalls(after: calls, took: elapsed, target: target) else { return calls }
            calls = next
        }
    }
}
