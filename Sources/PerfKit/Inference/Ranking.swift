import PerfKitCore

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
    /// The quantile: the z with P(Z ≤ z) = p, by bisection to full double precision.
    /// - Parameter p: A probability in (0, 1).
    /// - Returns: The quantile (±∞ at 0 and 1).
    /// - Complexity: O(1): at most 200 bisection steps.
    public static func quantile(_ p: Double) -> Double {
        if p <= 0 { return -.infinity }
        if p >= 1 { return .infinity }
        var low = -40.0, high = 40.0
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if cdf(mid) < p { low = mid } else { high = mid }
            if high - low <= 1e-15 * Swift.max(1, abs(mid)) { break }
        }
        return (low + high) / 2
    }
}
