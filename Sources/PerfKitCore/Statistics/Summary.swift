/// Descriptive statistics of one sample: location, spread, percentiles and Tukey outliers.
///
/// Outliers are classified and counted, never dropped: every figure uses every value.
public struct Summary: Sendable, Codable, Equatable {
    /// Number of values.
    public var count: Int
    /// Smallest value.
    public var min: Double
    /// Largest value.
    public var max: Double
    /// Arithmetic mean (scaled sums, finite for values near the largest double).
    public var mean: Double
    /// Sample standard deviation (divisor n − 1; 0 for a single value).
    public var standardDeviation: Double
    /// The 50th percentile.
    public var median: Double
    /// Median absolute deviation from the median, unscaled.
    public var medianAbsoluteDeviation: Double
    /// Interquartile range, p75 − p25.
    public var interquartileRange: Double
    /// The 25th percentile (linear interpolation, numpy's default).
    public var p25: Double
    /// The 75th percentile.
    public var p75: Double
    /// The 90th percentile.
    public var p90: Double
    /// The 95th percentile.
    public var p95: Double
    /// The 99th percentile.
    public var p99: Double
    /// Tukey outlier counts (fences at 1.5 and 3 IQR beyond the quartiles).
    public var outliers: OutlierCounts
    /// Extra percentiles requested by the caller, keyed by p.
    public var extraPercentiles: [Double: Double]

    /// Coefficient of variation, standard deviation over mean (0 when the mean is 0).
    public var coefficientOfVariation: Double { mean == 0 ? 0 : standardDeviation / abs(mean) }

    /// Summarises a sample.
    /// - Parameters:
    ///   - values: Finite values, at least one.
    ///   - percentiles: Extra percentiles in `0...100` to compute (numpy's default definition).
    /// - Throws: ``StatisticsError`` for empty input, NaN, infinities or a percentile out of range.
    /// - Complexity: O(n log n) for the sort; the MAD uses O(n) selection.
    public init(_ values: [Double], percentiles: [Double] = []) throws(StatisticsError) {
        try StatisticsError.validate(values)
        if let bad = percentiles.first(where: { !(0...100).contains($0) }) { throw .outOfRange(bad) }
        let sorted = values.sorted()
        count = sorted.count
        // Scaled sums: dividing by the largest magnitude first keeps values near ±1e308 from
        // overflowing the sum and the squares (the scale is multiplied back in at the end).
        let scale = Swift.max(abs(sorted[0]), abs(sorted[sorted.count - 1]))
        var sum = 0.0
        if scale > 0 { for value in sorted { sum += value / scale } }
        let scaledMean = sum / Double(count)
        var squares = 0.0
        if scale > 0 {
            for value in sorted {
                let d = value / scale - scaledMean
                squares += d * d
            }
        }
        mean = scaledMean * scale
        standardDeviation = count > 1 ? scale * (squares / Double(count - 1)).squareRoot() : 0
        min = sorted[0]
        max = sorted[count - 1]
        var extra: [Double: Double] = [:]
        var deviations = [Double](repeating: 0, count: count)
        var median = 0.0
        (p25, p75, p90, p95, p99) = sorted.withUnsafeBufferPointer { buffer in
            median = Quantile.percentile(sorted: buffer, 50)
            for p in percentiles { extra[p] = Quantile.percentile(sorted: buffer, p) }
            return (
                Quantile.percentile(sorted: buffer, 25), Quantile.percentile(sorted: buffer, 75),
                Quantile.percentile(sorted: buffer, 90), Quantile.percentile(sorted: buffer, 95),
                Quantile.percentile(sorted: buffer, 99)
            )
        }
        self.median = median
        extraPercentiles = extra
        for index in 0..<count { deviations[index] = abs(sorted[index] - median) }
        medianAbsoluteDeviation = deviations.withUnsafeMutableBufferPointer { Quantile.medianBySelection($0) }
        interquartileRange = p75 - p25
        outliers = OutlierCounts(sorted: sorted, p25: p25, p75: p75)
    }

    /// The percentile `p` if it was computed (25, 50, 75, 90, 95, 99 or an extra one).
    /// - Parameter p: Percentile in `0...100`.
    /// - Returns: The value, or `nil` when it was not computed.
    public func percentile(_ p: Double) -> Double? {
        switch p {
        case 25: p25
        case 50: median
        case 75: p75
        case 90: p90
        case 95: p95
        case 99: p99
        default: extraPercentiles[p]
        }
    }
}

/// Tukey's classification of a sample's values relative to its quartiles.
public struct OutlierCounts: Sendable, Codable, Equatable {
    /// Values below q1 − 3·IQR.
    public var lowSevere: Int
    /// Values in [q1 − 3·IQR, q1 − 1.5·IQR).
    public var lowMild: Int
    /// Values in (q3 + 1.5·IQR, q3 + 3·IQR].
    public var highMild: Int
    /// Values above q3 + 3·IQR.
    public var highSevere: Int

    /// Every outlier, mild and severe.
    public var total: Int { lowSevere + lowMild + highMild + highSevere }

    /// Classifies a sorted sample.
    /// - Complexity: O(log n) with binary searches.
    public init(sorted: [Double], p25: Double, p75: Double) {
        let iqr = p75 - p25
        func countBelow(_ bound: Double) -> Int {  // values < bound
            var low = 0, high = sorted.count
            while low < high {
                let mid = (low + high) / 2
                if sorted[mid] < bound { low = mid + 1 } else { high = mid }
            }
            return low
        }
        func countAbove(_ bound: Double) -> Int {  // values > bound
            var low = 0, high = sorted.count
            while low < high {
                let mid = (low + high) / 2
                if sorted[mid] <= bound { low = mid + 1 } else { high = mid }
            }
            return sorted.count - low
        }
        lowSevere = countBelow(p25 - 3 * iqr)
        lowMild = countBelow(p25 - 1.5 * iqr) - lowSevere
        highSevere = countAbove(p75 + 3 * iqr)
        highMild = countAbove(p75 + 1.5 * iqr) - highSevere
    }
}
