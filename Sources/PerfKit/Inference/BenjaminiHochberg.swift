import PerfKitCore

/// Benjamini–Hochberg adjustment of many p-values, controlling the false discovery rate.
public enum BenjaminiHochberg {
    /// Adjusted p-values (q-values) in input order, as `statsmodels`' `fdr_bh`.
    /// - Parameter pValues: Raw p-values in `0...1`.
    /// - Returns: Adjusted values, each at least its raw value and at most 1.
    /// - Throws: ``StatisticsError/outOfRange(_:)`` for a value outside `0...1` or NaN.
    /// - Complexity: O(m log m).
    public static func adjust(_ pValues: [Double]) throws(StatisticsError) -> [Double] {
        if let bad = pValues.first(where: { !(0...1).contains($0) }) { throw .outOfRange(bad) }
        let m = pValues.count
        guard m > 0 else { return [] }
        let order = pValues.indices.sorted { pValues[$0] > pValues[$1] }  // largest first
        var adjusted = [Double](repeating: 1, count: m)
        var running = 1.0
        for (offset, index) in order.enumerated() {
            let rank = Double(m - offset)
            running = Swift.min(running, pValues[index] * Double(m) / rank)
            adjusted[index] = Swift.min(1, running)
        }
        return adjusted
    }
}
