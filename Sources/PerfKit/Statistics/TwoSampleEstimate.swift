/// A point estimate with a bootstrap confidence interval.
public struct Estimate: Sendable, Codable, Equatable {
    /// The point estimate on the full samples.
    public var value: Double
    /// Lower bound of the confidence interval.
    public var lower: Double
    /// Upper bound of the confidence interval.
    public var upper: Double
}

/// Two-sample effect sizes with seeded percentile-bootstrap 95% confidence intervals.
public enum TwoSampleEstimate {
    /// Default number of bootstrap resamples.
    public static let defaultResamples = 2_000

    /// Ratio of medians, current over baseline, with a bootstrap CI.
    /// - Parameters:
    ///   - baseline: Baseline sample (finite values, median not zero).
    ///   - current: Current sample.
    ///   - resamples: Bootstrap resamples.
    ///   - confidence: Confidence level, for example 0.95.
    ///   - seed: Seed of the resampling generator.
    /// - Returns: The ratio and its interval; 1 means no change.
    /// - Throws: ``StatisticsError`` for empty or non-finite input.
    /// - Complexity: O(B · (n + m)) with selection-based medians.
    public static func ratioOfMedians(
        baseline: [Double], current: [Double], resamples: Int = defaultResamples,
        confidence: Double = 0.95, seed: UInt64 = 0x5EED
    ) throws(StatisticsError) -> Estimate {
        try StatisticsError.validate(baseline)
        try StatisticsError.validate(current)
        let base = try Quantile.median(baseline)
        let point = ratio(try Quantile.median(current), base)
        var generator = SeededGenerator(seed: seed)
        var ratios = [Double](repeating: 0, count: resamples)
        var scratchA = [Double](repeating: 0, count: baseline.count)
        var scratchB = [Double](repeating: 0, count: current.count)
        for r in 0..<resamples {
            let a = resampleMedian(baseline, into: &scratchA, &generator)
            let b = resampleMedian(current, into: &scratchB, &generator)
            ratios[r] = ratio(b, a)
        }
        return interval(point: point, resampled: &ratios, confidence: confidence)
    }

    /// Hodges–Lehmann shift (median of all pairwise differences current − baseline) with a bootstrap CI.
    /// - Parameters:
    ///   - baseline: Baseline sample.
    ///   - current: Current sample.
    ///   - resamples: Bootstrap resamples.
    ///   - confidence: Confidence level.
    ///   - seed: Seed of the resampling generator.
    /// - Returns: The shift in the samples' unit and its interval.
    /// - Throws: ``StatisticsError`` for empty or non-finite input.
    /// - Complexity: O(B · n · m).
    public static func hodgesLehmannShift(
        baseline: [Double], current: [Double], resamples: Int = 1_000,
        confidence: Double = 0.95, seed: UInt64 = 0x5EED
    ) throws(StatisticsError) -> Estimate {
        try StatisticsError.validate(baseline)
        try StatisticsError.validate(current)
        var differences = [Double](repeating: 0, count: baseline.count * current.count)
        let point = shift(baseline, current, &differences)
        var generator = SeededGenerator(seed: seed)
        var shifts = [Double](repeating: 0, count: resamples)
        var a = baseline
        var b = current
        for r in 0..<resamples {
            for i in a.indices { a[i] = baseline[generator.index(below: baseline.count)] }
            for i in b.indices { b[i] = current[generator.index(below: current.count)] }
            shifts[r] = shift(a, b, &differences)
        }
        return interval(point: point, resampled: &shifts, confidence: confidence)
    }

    private static func shift(_ a: [Double], _ b: [Double], _ scratch: inout [Double]) -> Double {
        var k = 0
        for x in a {
            for y in b {
                scratch[k] = y - x
                k += 1
            }
        }
        return scratch.withUnsafeMutableBufferPointer { Quantile.medianBySelection($0) }
    }

    private static func ratio(_ numerator: Double, _ denominator: Double) -> Double {
        if denominator == 0 { return numerator == 0 ? 1 : .infinity }
        return numerator / denominator
    }

    private static func resampleMedian(_ values: [Double], into scratch: inout [Double], _ generator: inout SeededGenerator) -> Double {
        let n = values.count
        for i in 0..<n { scratch[i] = values[generator.index(below: n)] }
        return scratch.withUnsafeMutableBufferPointer { Quantile.medianBySelection($0) }
    }

    static func interval(point: Double, resampled: inout [Double], confidence: Double) -> Estimate {
        resampled.sort()
        let tail = (1 - confidence) / 2 * 100
        return Estimate(
            value: point,
            lower: Quantile.percentile(sorted: resampled, tail),
            upper: Quantile.percentile(sorted: resampled, 100 - tail)
        )
    }
}
