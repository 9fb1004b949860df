/// The Wilcoxon signed-rank test for paired samples, matching SciPy's `wilcoxon` defaults
/// (zero differences dropped, two-sided).
public struct Wilcoxon: Sendable, Codable, Equatable {
    /// min(W+, W−), SciPy's two-sided statistic.
    public var statistic: Double
    /// Sum of ranks of positive differences.
    public var positiveRankSum: Double
    /// Two-sided p-value.
    public var pValue: Double
    /// Number of non-zero differences used.
    public var count: Int
    /// Whether the exact null distribution was used.
    public var isExact: Bool

    /// Tests whether the differences `y[i] − x[i]` are symmetric around zero.
    ///
    /// Exact when at most 50 non-zero differences and no ties; otherwise the normal approximation
    /// with tie correction and no continuity correction.
    /// - Parameters:
    ///   - x: First member of each pair.
    ///   - y: Second member of each pair.
    /// - Throws: ``StatisticsError`` for empty, non-finite or mismatched input.
    /// - Complexity: O(n log n) for the ranks; the exact distribution is O(n³).
    public init(_ x: [Double], _ y: [Double]) throws(StatisticsError) {
        guard x.count == y.count else { throw .mismatchedLengths(x.count, y.count) }
        try StatisticsError.validate(x)
        try StatisticsError.validate(y)
        let differences = zip(x, y).map { $1 - $0 }.filter { $0 != 0 }
        count = differences.count
        guard count > 0 else {
            statistic = 0
            positiveRankSum = 0
            pValue = 1
            isExact = false
            return
        }
        let (ranks, tieSum) = Ranking.averageRanks(differences.map(abs))
        var positive = 0.0
        for (d, r) in zip(differences, ranks) where d > 0 { positive += r }
        let n = Double(count)
        let total = n * (n + 1) / 2
        positiveRankSum = positive
        statistic = Swift.min(positive, total - positive)
        if count <= 50 && tieSum == 0 {
            isExact = true
            // Distribution of W+ over 2^n sign assignments.
            let maxSum = count * (count + 1) / 2
            var ways = [Double](repeating: 0, count: maxSum + 1)
            ways[0] = 1
            for rank in 1...count {
                for s in stride(from: maxSum, through: rank, by: -1) { ways[s] += ways[s - rank] }
            }
            let all = ways.reduce(0, +)
            let w = Int(statistic.rounded())
            var lower = 0.0
            for s in 0...w { lower += ways[s] }
            pValue = Swift.min(1, 2 * lower / all)
        } else {
            isExact = false
            let mean = n * (n + 1) / 4
            let variance = n * (n + 1) * (2 * n + 1) / 24 - tieSum / 48
            guard variance > 0 else {
                pValue = 1
                return
            }
            let z = (statistic - mean) / variance.squareRoot()
            pValue = Swift.min(1, 2 * Normal.cdf(z))
        }
    }
}
