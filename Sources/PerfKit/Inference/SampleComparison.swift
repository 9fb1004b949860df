import Foundation
import PerfKitCore

/// The decision of `perfkit stats A B`.
///
/// Two independent samples compared by the ratio of their medians (or, when the first median is zero or negative, the
/// difference of the medians) with a 95% bootstrap CI and a two-sided Mann–Whitney test.
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
            notes.append(
                "the first median is zero or negative, so the ratio is undefined; the difference of medians is "
                    + "compared instead"
            )
        }
        guard estimate.value.isFinite, estimate.lower.isFinite, estimate.upper.isFinite else { throw .overflow }
        if let size = estimate.bootstrapSubsample {
            notes.append(
                "the CI was bootstrapped from seeded subsamples of \(size) values per side (wider than "
                    + "a full bootstrap)"
            )
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

/// The decision of `perfkit stats A B --paired`.
///
/// Two samples paired by position (for example the rounds of an ABBA session), compared on one scale, the log ratios
/// B[i] / A[i]: Wilcoxon signed-rank test and Hodges–Lehmann estimate with its exact signed-rank 95% CI, reported as a
/// ratio.
public struct PairedSampleComparison: Sendable, Codable, Equatable {
    /// The Hodges–Lehmann ratio (exp of the centre of the log ratios) with its 95% CI.
    public var ratio: Estimate
    /// The two-sided Wilcoxon signed-rank p of the log ratios.
    public var wilcoxonP: Double
    /// How the Wilcoxon p was computed (`exact`, `permutation`, `normal`).
    public var method: Wilcoxon.Method
    /// Pairs used.
    public var pairs: Int
    /// `increase`, `decrease` or `no difference`: a direction only when p < 0.05 and the CI excludes 1.
    public var verdict: String

    /// Compares `second[i]` against `first[i]`.
    /// - Parameters:
    ///   - first: Positive, finite values, one per pair.
    ///   - second: Positive, finite values of the same count.
    /// - Throws: ``StatisticsError`` for mismatched lengths, fewer than two pairs, or values that are not positive and
    ///   finite.
    /// - Complexity: O(n² log n) for the Walsh averages.
    public init(_ first: [Double], _ second: [Double]) throws(StatisticsError) {
        guard first.count == second.count else { throw .mismatchedLengths(first.count, second.count) }
        try StatisticsError.validate(first)
        try StatisticsError.validate(second)
        guard first.count >= 2 else { throw .tooFew(count: first.count, needed: 2) }
        // a log ratio needs positive values
        if let bad = (first + second).first(where: { $0 <= 0 }) { throw .outOfRange(bad) }
        let logs = zip(first, second).map { Foundation.log($1 / $0) }
        let centre = HodgesLehmann.interval(logs)
        ratio = Estimate(
            value: Foundation.exp(centre.value), lower: Foundation.exp(centre.lower),
            upper: Foundation.exp(centre.upper))
        let test = try Wilcoxon([Double](repeating: 0, count: logs.count), logs)
        wilcoxonP = test.pValue
        method = test.method
        pairs = logs.count
        if wilcoxonP < 0.05 && ratio.lower > 1 {
            verdict = "increase"
        } else if wilcoxonP < 0.05 && ratio.upper < 1 {
            verdict = "decrease"
        } else {
            verdict = "no difference"
        }
    }
}
