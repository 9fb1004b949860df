/// The Mann–Whitney U test for two independent samples, matching SciPy's `mannwhitneyu` defaults.
public struct MannWhitney: Sendable, Codable, Equatable {
    /// U statistic of the first sample (SciPy's `statistic`).
    public var u: Double
    /// Two-sided p-value.
    public var pValue: Double
    /// Whether the exact null distribution was used (otherwise the normal approximation).
    public var isExact: Bool

    /// Runs the two-sided test.
    ///
    /// As SciPy does by default: the exact distribution when either sample has at most 8 values
    /// and there are no ties; otherwise the normal approximation with tie correction and
    /// continuity correction.
    /// - Parameters:
    ///   - x: First sample (finite values).
    ///   - y: Second sample (finite values).
    /// - Throws: ``StatisticsError`` for empty or non-finite input.
    /// - Complexity: O((n + m) log(n + m)) for the ranks; the exact distribution is O(n·m·min(n, m)).
    public init(_ x: [Double], _ y: [Double]) throws(StatisticsError) {
        try StatisticsError.validate(x)
        try StatisticsError.validate(y)
        let n1 = Double(x.count)
        let n2 = Double(y.count)
        let (ranks, tieSum) = Ranking.averageRanks(x + y)
        var r1 = 0.0
        for i in 0..<x.count { r1 += ranks[i] }
        let u1 = r1 - n1 * (n1 + 1) / 2
        let u2 = n1 * n2 - u1
        u = u1
        let big = Swift.max(u1, u2)
        if (x.count <= 8 || y.count <= 8) && tieSum == 0 {
            isExact = true
            pValue = Swift.min(1, 2 * MannWhitney.exactSurvival(atLeast: Int(big.rounded()), x.count, y.count))
        } else {
            isExact = false
            let n = n1 + n2
            let mu = n1 * n2 / 2
            let variance = n1 * n2 / 12 * ((n + 1) - tieSum / (n * (n - 1)))
            guard variance > 0 else {
                pValue = 1
                return
            }
            let z = (big - mu - 0.5) / variance.squareRoot()
            pValue = Swift.min(1, Swift.max(0, 2 * Normal.survival(z)))
        }
    }

    /// P(U ≥ u) under the null hypothesis, from the exact count of rank arrangements.
    /// - Complexity: O(n·m·min(n, m)).
    static func exactSurvival(atLeast u: Int, _ n: Int, _ m: Int) -> Double {
        // counts[k][s]: arrangements of k values from the first sample with U-sum s, built by
        // the recurrence over the total number of values (Mann and Whitney, 1947).
        let small = Swift.min(n, m)
        let large = Swift.max(n, m)
        let maxU = small * large
        // f(i, j, s) = f(i − 1, j, s − j) + f(i, j − 1, s); iterate over j with a table in i.
        var table = [[Double]](repeating: [Double](repeating: 0, count: maxU + 1), count: small + 1)
        for i in 0...small { table[i][0] = 1 }  // j = 0: only s = 0
        for j in 1...large {
            // Update in increasing i so table[i - 1] already holds f(i − 1, j, ·).
            for i in 1...small {
                var row = table[i]  // f(i, j − 1, ·)
                let previous = table[i - 1]
                for s in stride(from: maxU, through: j, by: -1) { row[s] += previous[s - j] }
                table[i] = row
            }
        }
        let counts = table[small]
        var total = 0.0
        var tail = 0.0
        for s in 0...maxU {
            total += counts[s]
            if s >= u { tail += counts[s] }
        }
        return tail / total
    }
}
