/// The decision of `perfkit stats A B`: two independent samples compared by the ratio of their
/// medians (or, when the first median is zero or negative, the difference of the medians) with a
/// 95% bootstrap CI and a two-sided Mann–Whitney test.
public struct SampleComparison: Sendable, Codable, Equatable {
    /// What was estimated: `ratioOfMedians` (second over first) or `differenceOfMedians` (second − first).
    public var statistic: String
    /// The estimate with its 95% CI.
    public var estimate: Estimate
    /// Two-sided Mann–Whitney p-value.
    public var mannWhitneyP: Double
    /// `increase`, `decrease` or `no difference`: a direction only when p < 0.05 and the CI excludes no change.
    public var verdict: String
    /// Why the statistic is not the ratio, or that the CI came from a subsample; nil when neither.
    public var note: String?

    /// Compares `second` against `first`.
    /// - Parameters:
    ///   - first: The reference sample (finite values).
    ///   - second: The sample compared with it.
    /// - Throws: ``StatisticsError`` for empty or non-finite input.
    /// - Complexity: O((n + m) log(n + m)) for the test, plus a bootstrap capped at 10,000 values a side.
    public init(_ first: [Double], _ second: [Double]) throws(StatisticsError) {
        let ratioDefined = try Quantile.median(first) > 0
        var notes: [String] = []
        if ratioDefined {
            statistic = "ratioOfMedians"
            estimate = try TwoSampleEstimate.ratioOfMedians(baseline: first, current: second)
        } else {
            statistic = "differenceOfMedians"
            estimate = try TwoSampleEstimate.differenceOfMedians(baseline: first, current: second)
            notes.append("the first median is zero or negative, so the ratio is undefined; the difference of medians is compared instead")
        }
        if let size = estimate.bootstrapSubsample {
            notes.append("the CI was bootstrapped from seeded subsamples of \(size) values per side (wider than a full bootstrap)")
        }
        note = notes.isEmpty ? nil : notes.joined(separator: "; ")
        mannWhitneyP = try MannWhitney(first, second).pValue
        let noChange = ratioDefined ? 1.0 : 0.0
        if mannWhitneyP < 0.05 && estimate.lower > noChange {
            verdict = "increase"
        } else if mannWhitneyP < 0.05 && estimate.upper < noChange {
            verdict = "decrease"
        } else {
            verdict = "no difference"
        }
    }
}
