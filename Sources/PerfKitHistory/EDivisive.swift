import Foundation
import PerfKit

/// E-divisive means (Matteson and James, 2014, with α = 1), a change-point method for performance history.
///
/// E-divisive means (Matteson and James, 2014, with α = 1), the change-point method Apache Otava
/// (formerly Hunter) and MongoDB use on performance history: a split maximising the energy
/// distance between the values before and after it, kept only when a permutation test finds it
/// significant; splitting repeats inside the pieces until a test fails.
///
/// False alarms: the search stops at the first split that is not significant, so on a series with
/// no change the chance of reporting any change point is at most ``alpha`` (the permutation
/// p-value is exact up to its resolution, 1 / (``permutations`` + 1)).
public struct EDivisive: Sendable {
    /// Significance of each split: the false-alarm rate of a series without change.
    public var alpha: Double = 0.01
    /// Permutations per test (p-values resolve to 1/500).
    public var permutations: Int = 499
    /// The fewest values on either side of a split.
    public var minimumSegment: Int = 3
    /// Seed of the permutations, so a history gives the same answer every time and in every store.
    public var seed: UInt64 = 0x45_44_49_56

    /// A detector with the defaults.
    public init() {}

    /// A split found significant.
    public struct Split: Sendable, Equatable {
        /// The index of the first value after the change.
        public var index: Int
        /// The permutation p-value of the test that accepted it.
        public var p: Double
    }

    /// The change points of `values` (use logs for ratio-scale data such as time).
    /// - Parameter values: The series in history order.
    /// - Returns: The splits, sorted by index.
    /// - Complexity: O(permutations · n²) per accepted split.
    public func splits(_ values: [Double]) -> [Split] {
        var generator = SeededGenerator(seed: seed)
        var bounds = [0, values.count]
        var found: [Split] = []
        while true {
            guard let best = bestSplit(values, bounds: bounds) else { break }
            // The permutation distribution of the best statistic: each piece shuffled within itself.
            var exceed = 0
            var shuffled = values
            // Once more permutations exceed than a significant p allows, the answer is "no split" whatever the rest
            // would give: stop there (a sequential Monte Carlo test; the decision is the full test's).
            let allowed = Int((alpha * Double(permutations + 1)).rounded(.down)) - 1
            for _ in 0..<permutations where exceed <= allowed {
                for (low, high) in zip(bounds, bounds.dropFirst()) { shuffled[low..<high].shuffle(using: &generator) }
                if let candidate = bestSplit(shuffled, bounds: bounds), candidate.statistic >= best.statistic {
                    exceed += 1
                }
            }
            let p = Double(exceed + 1) / Double(permutations + 1)
            guard p <= alpha else { break }
            found.append(Split(index: best.index, p: p))
            bounds.append(best.index)
            bounds.sort()
        }
        return found.sorted { $0.index < $1.index }
    }

    /// The best split over every piece between consecutive `bounds`.
    /// - Complexity: O(n²): moving the split one value right moves that value's distances from one
    ///   side's sum to the other, so every split of a piece is scored in one sweep.
    func bestSplit(_ values: [Double], bounds: [Int]) -> (index: Int, statistic: Double)? {
        var best: (index: Int, statistic: Double)?
        for (low, high) in zip(bounds, bounds.dropFirst()) where high - low >= 2 * minimumSegment {
            // Split at low + 1: x = [low], y = the rest.
            var withinX = 0.0, withinY = 0.0, between = 0.0
            for j in (low + 1)..<high { between += abs(values[low] - values[j]) }
            for i in (low + 1)..<high { for j in (i + 1)..<high { withinY += abs(values[i] - values[j]) } }
            for tau in (low + 1)..<(high - minimumSegment + 1) {
                if tau > low + 1 {
                    let t = tau - 1  // moves from y to x
                    var toLeft = 0.0, toRight = 0.0
                    for i in low..<t { toLeft += abs(values[i] - values[t]) }
                    for j in (t + 1)..<high { toRight += abs(values[t] - values[j]) }
                    withinX += toLeft
                    withinY -= toRight
                    between += toRight - toLeft
                }
                guard tau >= low + minimumSegment else { continue }
                let q = Self.scaledEnergy(
                    m: Double(tau - low), n: Double(high - tau), between: between, withinX: withinX, withinY: withinY)
                if best == nil || q > best!.statistic { best = (tau, q) }
            }
        }
        return best
    }

    /// The scaled energy distance between two pieces of a series.
    ///
    /// The scaled energy distance Q = mn/(m+n) · (2·mean|x−y| − mean|x−x′| − mean|y−y′|), from the
    /// sums of distances between and within the two pieces (m and n values): its one copy.
    static func scaledEnergy(m: Double, n: Double, between: Double, withinX: Double, withinY: Double) -> Double {
        let e =
            2 * between / (m * n) - (m > 1 ? withinX / (m * (m - 1) / 2) : 0)
            - (n > 1 ? withinY / (n * (n - 1) / 2) : 0)
        return m * n / (m + n) * e
    }
}
