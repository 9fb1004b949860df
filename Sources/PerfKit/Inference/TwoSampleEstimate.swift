import PerfKitCore

/// A point estimate with a bootstrap confidence interval.
public struct Estimate: Sendable, Codable, Equatable {
    /// The point estimate on the full samples.
    public var value: Double
    /// Lower bound of the confidence interval.
    public var lower: Double
    /// Upper bound of the confidence interval.
    public var upper: Double
    /// The size of the seeded subsample each side was bootstrapped from, when a side was larger.
    ///
    /// When a side held more than ``TwoSampleEstimate/maximumBootstrapSize`` values, the size of
    /// the seeded subsample each side was bootstrapped from (the interval is then wider than a
    /// full bootstrap's, never narrower); nil for a full bootstrap.
    public var bootstrapSubsample: Int? = nil

    private enum CodingKeys: String, CodingKey { case value, lower, upper, bootstrapSubsample }

    /// Creates an estimate.
    public init(value: Double, lower: Double, upper: Double, bootstrapSubsample: Int? = nil) {
        self.value = value
        self.lower = lower
        self.upper = upper
        self.bootstrapSubsample = bootstrapSubsample
    }

    /// Reads an estimate; a null bound (undefined when written) reads back as NaN.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        value = try c.decodeIfPresent(Double.self, forKey: .value) ?? .nan
        lower = try c.decodeIfPresent(Double.self, forKey: .lower) ?? .nan
        upper = try c.decodeIfPresent(Double.self, forKey: .upper) ?? .nan
        bootstrapSubsample = try c.decodeIfPresent(Int.self, forKey: .bootstrapSubsample)
    }

    /// Writes an estimate; a non-finite figure is written as null, so no file ever holds `inf` or `nan`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        for (key, number) in [(CodingKeys.value, value), (.lower, lower), (.upper, upper)] {
            if number.isFinite { try c.encode(number, forKey: key) } else { try c.encodeNil(forKey: key) }
        }
        try c.encodeIfPresent(bootstrapSubsample, forKey: .bootstrapSubsample)
    }
}

/// Two-sample effect sizes with seeded percentile-bootstrap 95% confidence intervals.
public enum TwoSampleEstimate {
    /// Default number of bootstrap resamples.
    public static let defaultResamples = 2_000
    /// Largest side bootstrapped in full.
    ///
    /// Larger sides are bootstrapped from a seeded subsample of this size, so the cost stays near B · 2 · 10,000
    /// whatever the input (10M + 2.5M values took minutes before).
    public static let maximumBootstrapSize = 10_000

    /// A seeded subsample of `values` of at most ``maximumBootstrapSize``, drawn without replacement.
    static func capped(_ values: [Double], _ generator: inout SeededGenerator) -> [Double] {
        guard values.count > maximumBootstrapSize else { return values }
        var indices = Array(0..<values.count)
        for i in 0..<maximumBootstrapSize {
            indices.swapAt(i, i + generator.index(below: values.count - i))
        }
        return indices[0..<maximumBootstrapSize].map { values[$0] }
    }

    /// Ratio of medians, current over baseline, with a bootstrap CI.
    /// - Parameters:
    ///   - baseline: Baseline sample (finite values, median not zero).
    ///   - current: Current sample.
    ///   - resamples: Bootstrap resamples.
    ///   - confidence: Confidence level, for example 0.95.
    ///   - seed: Seed of the resampling generator.
    /// - Returns: The ratio and its interval; 1 means no change.
    /// - Throws: ``StatisticsError`` for empty or non-finite input.
    /// - Complexity: O(n + m + B · (n' + m')) with selection-based medians, n' = min(n, 10,000).
    public static func ratioOfMedians(
        baseline: [Double], current: [Double], resamples: Int = defaultResamples,
        confidence: Double = 0.95, seed: UInt64 = 0x5EED
    ) throws(StatisticsError) -> Estimate {
        try StatisticsError.validate(baseline)
        try StatisticsError.validate(current)
        let base = try Quantile.median(baseline)
        let point = ratio(try Quantile.median(current), base)
        return bootstrapMedians(
            baseline, current, point: point, resamples: resamples, confidence: confidence, seed: seed
        ) { ratio($1, $0) }
    }

    /// Difference of medians, current − baseline, with a bootstrap CI: the estimate used when a
    /// ratio is undefined (a baseline median of zero or below).
    /// - Parameters:
    ///   - baseline: Baseline sample (finite values).
    ///   - current: Current sample.
    ///   - resamples: Bootstrap resamples.
    ///   - confidence: Confidence level, for example 0.95.
    ///   - seed: Seed of the resampling generator.
    /// - Returns: The difference in the samples' unit and its interval; 0 means no change.
    /// - Throws: ``StatisticsError`` for empty or non-finite input.
    /// - Complexity: O(n + m + B · (n' + m')), n' = min(n, 10,000).
    public static func differenceOfMedians(
        baseline: [Double], current: [Double], resamples: Int = defaultResamples,
        confidence: Double = 0.95, seed: UInt64 = 0x5EED
    ) throws(StatisticsError) -> Estimate {
        try StatisticsError.validate(baseline)
        try StatisticsError.validate(current)
        let point = try Quantile.median(current) - Quantile.median(baseline)
        return bootstrapMedians(
            baseline, current, point: point, resamples: resamples, confidence: confidence, seed: seed
        ) { $1 - $0 }
    }

    /// The percentile bootstrap of `combine` over the medians of resamples of the two sides.
    ///
    /// The percentile bootstrap of `combine(median of a resample of baseline, median of a
    /// resample of current)`, each side capped at ``maximumBootstrapSize`` values.
    static func bootstrapMedians(
        _ baseline: [Double], _ current: [Double], point: Double, resamples: Int, confidence: Double, seed: UInt64,
        combine: (Double, Double) -> Double
    ) -> Estimate {
        var generator = SeededGenerator(seed: seed)
        let smallBaseline = capped(baseline, &generator)
        let smallCurrent = capped(current, &generator)
        var estimates = [Double](repeating: 0, count: resamples)
        var scratchA = [Double](repeating: 0, count: smallBaseline.count)
        var scratchB = [Double](repeating: 0, count: smallCurrent.count)
        for r in 0..<resamples {
            let a = resampleMedian(smallBaseline, into: &scratchA, &generator)
            let b = resampleMedian(smallCurrent, into: &scratchB, &generator)
            estimates[r] = combine(a, b)
        }
        var estimate = interval(point: point, resampled: &estimates, confidence: confidence)
        if smallBaseline.count < baseline.count || smallCurrent.count < current.count {
            estimate.bootstrapSubsample = maximumBootstrapSize
        }
        return estimate
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

    private static func resampleMedian(
        _ values: [Double], into scratch: inout [Double], _ generator: inout SeededGenerator
    ) -> Double {
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
