import Foundation
import PerfKitCore

/// The one-sample Hodges–Lehmann estimate and its distribution-free confidence interval.
///
/// They are the estimate and interval that go with the Wilcoxon signed-rank test (Hollander and Wolfe,
/// *Nonparametric Statistical Methods*, §3.3): both use the Walsh averages (xᵢ + xⱼ) / 2, i ≤ j.
public enum HodgesLehmann {
    /// The median of all Walsh averages.
    /// - Parameter x: Finite values, at least one.
    /// - Returns: The estimate of the centre of symmetry.
    /// - Complexity: O(n log n) time and O(n) memory: the Walsh averages are never stored
    ///   (``WalshAverages``), so millions of values fit.
    public static func estimate(_ x: [Double]) -> Double {
        WalshAverages(x).median
    }

    /// The estimate with its exact signed-rank confidence interval.
    ///
    /// The k-th smallest and k-th largest Walsh averages, where k − 1 is the largest signed-rank statistic whose
    /// lower-tail probability is at most (1 − confidence) / 2. Exact (from the null distribution of W⁺) for n ≤ 50, the
    /// normal approximation above. Under symmetry its coverage is at least `confidence` whatever the distribution, with
    /// no bootstrap.
    /// - Parameters:
    ///   - x: Finite values, at least two.
    ///   - confidence: For example 0.95.
    /// - Returns: The estimate and its interval; when n is too small for the level, the interval
    ///   is the range of the Walsh averages (and cannot exclude anything).
    /// - Complexity: O(n log n) time and O(n) memory (each order statistic of the Walsh averages
    ///   is found exactly by a search over the values, ``WalshAverages``), plus O(n³) for the exact
    ///   distribution when n ≤ 50.
    public static func interval(_ x: [Double], confidence: Double = 0.95) -> Estimate {
        let walsh = WalshAverages(x)
        let k = Swift.max(1, criticalRank(n: x.count, tail: (1 - confidence) / 2))
        return Estimate(value: walsh.median, lower: walsh.element(k), upper: walsh.element(walsh.count - k + 1))
    }

    /// The largest k such that P(W⁺ ≤ k − 1) ≤ tail under the null hypothesis (0 when even
    /// P(W⁺ = 0) exceeds the tail, so no interval at this level exists).
    /// - Complexity: O(n³) for n ≤ 50, O(1) above.
    static func criticalRank(n: Int, tail: Double) -> Int {
        guard n > 0 else { return 0 }
        if n > 50 {
            let mean = Double(n) * Double(n + 1) / 4
            let sd = (Double(n) * Double(n + 1) * Double(2 * n + 1) / 24).squareRoot()
            return Swift.max(0, Int((mean - Normal.quantile(1 - tail) * sd).rounded(.down)))
        }
        let ways = SignedRank.distribution(n)
        let total = ways.reduce(0, +)
        var cumulative = 0.0
        var k = 0
        while k < ways.count {
            cumulative += ways[k]
            if cumulative / total > tail { break }
            k += 1
        }
        return k  // P(W⁺ ≤ k − 1) ≤ tail < P(W⁺ ≤ k)
    }

    /// Every Walsh average, stored (tests compare the implicit order statistics against it).
    static func walshAverages(_ x: [Double]) -> [Double] {
        var walsh: [Double] = []
        walsh.reserveCapacity(x.count * (x.count + 1) / 2)
        for i in x.indices {
            for j in i..<x.count { walsh.append(WalshAverages.average(x[i], x[j])) }
        }
        return walsh
    }
}

/// The null distribution of the Wilcoxon signed-rank statistic W⁺ for integer ranks 1…n.
enum SignedRank {
    /// Number of sign assignments giving each W⁺ = 0…n(n+1)/2.
    /// - Complexity: O(n³).
    static func distribution(_ n: Int) -> [Double] {
        let maxSum = n * (n + 1) / 2
        var ways = [Double](repeating: 0, count: maxSum + 1)
        ways[0] = 1
        guard n > 0 else { return ways }
        for rank in 1...n {
            for s in stride(from: maxSum, through: rank, by: -1) { ways[s] += ways[s - rank] }
        }
        return ways
    }
}

extension HodgesLehmann {
    /// The two-sample Hodges–Lehmann shift with its distribution-free interval (Moses).
    ///
    /// The two-sample Hodges–Lehmann shift, median of all differences yⱼ − xᵢ, with the
    /// distribution-free interval that goes with the Mann–Whitney test (Moses): the k-th smallest
    /// and k-th largest differences, where k − 1 is the largest U with P(U ≤ k − 1) ≤ (1 − confidence) / 2.
    /// Exact for m·n ≤ 10,000, the normal approximation above. Used on log values, it estimates a
    /// ratio and its interval on the same scale as the test.
    /// - Parameters:
    ///   - x: First sample, finite values.
    ///   - y: Second sample, finite values.
    ///   - confidence: For example 0.95.
    /// - Returns: The shift y − x and its interval; when the samples are too small for the level,
    ///   the interval is the range of the differences.
    /// - Complexity: O(m·n log(m·n)).
    public static func shiftInterval(_ x: [Double], _ y: [Double], confidence: Double = 0.95) -> Estimate {
        var differences: [Double] = []
        differences.reserveCapacity(x.count * y.count)
        for a in x { for b in y { differences.append(b - a) } }
        differences.sort()
        let total = differences.count
        let tail = (1 - confidence) / 2
        var k = 0
        if total > 10_000 {
            let (m, n) = (Double(x.count), Double(y.count))
            k = Int((m * n / 2 - Normal.quantile(1 - tail) * (m * n * (m + n + 1) / 12).squareRoot()).rounded(.down))
        } else {
            // The largest k with P(U ≤ k − 1) ≤ tail, from one pass over the lower tail.
            let cumulative = MannWhitney.lowerTail(x.count, y.count, upTo: total / 2)
            while k < cumulative.count, cumulative[k] <= tail { k += 1 }
        }
        k = Swift.max(1, Swift.min(k, total / 2 + total % 2))
        return Estimate(
            value: Quantile.percentile(sorted: differences, 50), lower: differences[k - 1],
            upper: differences[total - k])
    }
}
