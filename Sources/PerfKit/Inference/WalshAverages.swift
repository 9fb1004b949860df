import PerfKitCore

/// The Walsh averages (xᵢ + xⱼ) / 2, i ≤ j, of a sample, held implicitly.
///
/// The n(n + 1)/2 values are never stored, and any order statistic is found exactly.
///
/// The k-th smallest average is the smallest double t with at least k averages ≤ t. For one t
/// the count takes one pass of two pointers over the sorted sample (the averages of row i are
/// ascending in j), and t is found by bisection over the 2⁶⁴ doubles in their order, so the
/// result is the exact average, bit for bit, that a full sort would put at k. 20,000 values
/// used to need 1.6 GB this way (200 million stored averages); now they need 160 KB.
struct WalshAverages {
    /// The sample, ascending.
    private let sorted: [Double]
    /// How many averages there are: n(n + 1)/2.
    let count: Int

    /// - Parameter x: Finite values, at least one.
    /// - Complexity: O(n log n) for the sort.
    init(_ x: [Double]) {
        sorted = x.sorted()
        count = x.count * (x.count + 1) / 2
    }

    /// The average of two values, without overflow for values near ±1e308.
    static func average(_ a: Double, _ b: Double) -> Double { Quantile.midpoint(a, b) }

    /// The median of the averages (numpy's definition: the mean of the two middle ones when the count is even).
    /// - Complexity: O(n) per bisection step, 64 steps, twice.
    var median: Double {
        count % 2 == 1 ? element((count + 1) / 2) : Quantile.midpoint(element(count / 2), element(count / 2 + 1))
    }

    /// The k-th smallest average, from 1.
    /// - Parameter k: In `1...count`.
    /// - Returns: That average exactly.
    /// - Complexity: O(64 n).
    func element(_ k: Int) -> Double {
        precondition((1...count).contains(k))
        var low = Self.key(Self.average(sorted[0], sorted[0]))  // the smallest average
        var high = Self.key(Self.average(sorted[sorted.count - 1], sorted[sorted.count - 1]))  // the largest
        // Invariant: fewer than k averages are < value(low)... narrowed to the first key with count ≥ k.
        while low < high {
            let middle = low + (high - low) / 2
            if countAtMost(Self.value(middle)) >= k { high = middle } else { low = middle + 1 }
        }
        return Self.value(low)
    }

    /// How many averages are ≤ t: for each i, the averages (xᵢ + xⱼ)/2 with j ≥ i that are ≤ t
    /// form a prefix of j, whose end only moves left as i grows.
    private func countAtMost(_ t: Double) -> Int {
        let n = sorted.count
        var total = 0
        var j = n - 1
        for i in 0..<n {
            while j >= i && Self.average(sorted[i], sorted[j]) > t { j -= 1 }
            if j < i { break }
            total += j - i + 1
        }
        return total
    }

    /// Maps doubles to unsigned integers in the same order (negative values reversed below positive ones).
    private static func key(_ value: Double) -> UInt64 {
        let bits = value.bitPattern
        return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
    }

    private static func value(_ key: UInt64) -> Double {
        Double(bitPattern: key & (1 << 63) != 0 ? key & ~(1 << 63) : ~key)
    }
}
