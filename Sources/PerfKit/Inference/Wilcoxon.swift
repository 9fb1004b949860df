import PerfKitCore

/// The Wilcoxon signed-rank test for paired samples, matching SciPy's current `wilcoxon` defaults.
///
/// The defaults of SciPy 1.17: `zero_method="wilcox"`, `correction=False`, `method="auto"`, two-sided.
public struct Wilcoxon: Sendable, Codable, Equatable {
    /// How the p-value was computed, following SciPy's `method="auto"`.
    public enum Method: String, Sendable, Codable {
        /// The exact null distribution of W⁺ (no ties, no zeros, at most 50 pairs).
        case exact
        /// All 2ⁿ sign flips of the differences, zeros and tied ranks kept (ties or zeros, at most 13 pairs).
        case permutation
        /// The normal approximation with tie correction and no continuity correction.
        case normal
    }

    /// min(W⁺, W⁻), SciPy's two-sided statistic.
    public var statistic: Double
    /// Sum of ranks of positive differences, W⁺.
    public var positiveRankSum: Double
    /// Two-sided p-value.
    public var pValue: Double
    /// Number of non-zero differences ranked.
    public var count: Int
    /// How the p-value was computed.
    public var method: Method
    /// Whether the p-value comes from an exact enumeration (exact or permutation).
    public var isExact: Bool { method != .normal }

    /// Tests whether the differences `y[i] − x[i]` are symmetric around zero.
    ///
    /// Zero differences are dropped before ranking ("wilcox"). With more than 50 pairs, the
    /// normal approximation; otherwise, without ties or zeros, the exact distribution; with ties or
    /// zeros and at most 13 pairs, the exact permutation distribution over all 2ⁿ sign flips;
    /// above 13, the normal approximation. With no non-zero difference, p is 1.
    /// - Parameters:
    ///   - x: First member of each pair.
    ///   - y: Second member of each pair.
    /// - Throws: ``StatisticsError`` for empty, non-finite or mismatched input.
    /// - Complexity: O(n log n) for the ranks; O(n³) for the exact distribution; O(2ⁿ · n), n ≤ 13, for the
    ///   permutation.
    public init(_ x: [Double], _ y: [Double]) throws(StatisticsError) {
        guard x.count == y.count else { throw .mismatchedLengths(x.count, y.count) }
        try StatisticsError.validate(x)
        try StatisticsError.validate(y)
        let all = zip(x, y).map { $1 - $0 }
        let differences = all.filter { $0 != 0 }
        let zeros = all.count - differences.count
        count = differences.count
        guard count > 0 else {
            (statistic, positiveRankSum, pValue, method) = (0, 0, 1, .exact)
            return
        }
        let (ranks, tieSum) = Ranking.averageRanks(differences.map(abs))
        var positive = 0.0
        for (d, r) in zip(differences, ranks) where d > 0 { positive += r }
        let n = Double(count)
        let total = n * (n + 1) / 2
        positiveRankSum = positive
        statistic = Swift.min(positive, total - positive)
        let hasTies = tieSum > 0
        if all.count <= 50 && !hasTies && zeros == 0 {
            method = .exact
            let ways = SignedRank.distribution(count)
            let sum = ways.reduce(0, +)
            let w = Int(positive.rounded())
            let below = ways[0...w].reduce(0, +) / sum  // P(W⁺ ≤ w)
            let above = ways[w...].reduce(0, +) / sum  // P(W⁺ ≥ w)
            pValue = Swift.min(1, 2 * Swift.min(below, above))
        } else if all.count <= 13 {
            method = .permutation
            pValue = Self.permutationP(ranks: ranks, observed: positive)
        } else {
            method = .normal
            let mean = n * (n + 1) / 4
            let variance = (n * (n + 1) * (2 * n + 1) - tieSum / 2) / 24
            guard variance > 0 else {
                pValue = 1
                return
            }
            let z = (positive - mean) / variance.squareRoot()
            pValue = Swift.min(1, 2 * Normal.survival(abs(z)))
        }
    }

    /// Two-sided p of W⁺ over every sign assignment of the ranked differences.
    ///
    /// Zeros, which SciPy flips too, do not change W⁺, so they do not change the proportions.
    static func permutationP(ranks: [Double], observed: Double) -> Double {
        let n = ranks.count
        let tolerance = 1e-12 * Swift.max(1, abs(observed))
        var lessOrEqual = 0.0, greaterOrEqual = 0.0
        for mask in 0..<(1 << n) {
            var w = 0.0
            for i in 0..<n where mask & (1 << i) != 0 { w += ranks[i] }
            if w <= observed + tolerance { lessOrEqual += 1 }
            if w >= observed - tolerance { greaterOrEqual += 1 }
        }
        let all = Double(1 << n)
        return Swift.min(1, 2 * Swift.min(lessOrEqual, greaterOrEqual) / all)
    }
}
