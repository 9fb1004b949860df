#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ranks with ties averaged, and the standard normal distribution.
enum Ranking {
    /// Ranks `values` from 1, giving tied values the mean of their ranks.
    /// - Returns: The ranks in input order and Σ(t³ − t) over tie groups.
    /// - Complexity: O(n log n).
    static func averageRanks(_ values: [Double]) -> (ranks: [Double], tieSum: Double) {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var tieSum = 0.0
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count && values[order[end + 1]] == values[order[start]] { end += 1 }
            let rank = Double(start + end + 2) / 2
            for k in start...end { ranks[order[k]] = rank }
            let t = Double(end - start + 1)
            tieSum += t * t * t - t
            start = end + 1
        }
        return (ranks, tieSum)
    }
}

/// The standard normal distribution.
public enum Normal {
    /// Survival function P(Z > z), accurate in the tails (uses `erfc`).
    public static func survival(_ z: Double) -> Double { 0.5 * erfc(z / 2.0.squareRoot()) }
    /// Cumulative distribution P(Z ≤ z).
    public static func cdf(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
}
