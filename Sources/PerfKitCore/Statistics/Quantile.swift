/// Order statistics on sorted and unsorted samples.
public enum Quantile {
    /// The `p`-th percentile of a sorted sample with numpy's default definition.
    ///
    /// Linear interpolation between the closest ranks, at position `p / 100 * (n - 1)`.
    /// - Parameters:
    ///   - sorted: Finite values in ascending order; must not be empty.
    ///   - p: Percentile in `0...100`.
    /// - Returns: The interpolated percentile.
    /// - Complexity: O(1).
    public static func percentile(sorted: UnsafeBufferPointer<Double>, _ p: Double) -> Double {
        let n = sorted.count
        if n == 1 { return sorted[0] }
        let position = p / 100 * Double(n - 1)
        let lower = Int(position.rounded(.down))
        if lower >= n - 1 { return sorted[n - 1] }
        let fraction = position - Double(lower)
        let a = sorted[lower]
        let b = sorted[lower + 1]
        // numpy's _lerp: stable for fractions at either end.
        let difference = b - a
        if !difference.isFinite {
            // a and b near ±1e308: interpolate on half the gap, which cannot overflow.
            let half = b / 2 - a / 2
            return fraction >= 0.5 ? b - half * (2 * (1 - fraction)) : a + half * (2 * fraction)
        }
        return fraction >= 0.5 ? b - difference * (1 - fraction) : a + difference * fraction
    }

    /// The `p`-th percentile of a sorted array (numpy's default definition).
    /// - Complexity: O(1).
    public static func percentile(sorted: [Double], _ p: Double) -> Double {
        sorted.withUnsafeBufferPointer { percentile(sorted: $0, p) }
    }

    /// The `p`-th percentile of an unsorted sample (numpy's default definition).
    /// - Parameters:
    ///   - values: Finite values.
    ///   - p: Percentile in `0...100`.
    /// - Returns: The percentile.
    /// - Throws: ``StatisticsError`` for empty input, non-finite values or `p` out of range.
    /// - Complexity: O(n log n).
    public static func percentile(_ values: [Double], _ p: Double) throws(StatisticsError) -> Double {
        try StatisticsError.validate(values)
        guard (0...100).contains(p) else { throw .outOfRange(p) }
        return percentile(sorted: values.sorted(), p)
    }

    /// The median of a mutable buffer, found by selection; the buffer is reordered.
    /// - Complexity: O(n) on average.
    public static func medianBySelection(_ buffer: UnsafeMutableBufferPointer<Double>) -> Double {
        let n = buffer.count
        precondition(n > 0)
        let upper = select(buffer, n / 2)
        if n % 2 == 1 { return upper }
        // The lower middle is the largest value left of n/2 after selection.
        var lower = -Double.infinity
        for i in 0..<(n / 2) where buffer[i] > lower { lower = buffer[i] }
        return midpoint(lower, upper)
    }

    /// (a + b) / 2 without overflow for values near ±1e308.
    package static func midpoint(_ a: Double, _ b: Double) -> Double {
        let sum = a + b
        return sum.isFinite ? sum / 2 : a / 2 + b / 2
    }

    /// Reorders `buffer` so the element at `k` is the one a full sort would put there (a selection).
    ///
    /// Reorders `buffer` so the element at `k` is the one a full sort would put there, smaller
    /// ones before it and larger ones after it (Hoare's selection with median-of-three pivots).
    /// - Returns: The `k`-th smallest value.
    /// - Complexity: O(n) on average.
    static func select(_ buffer: UnsafeMutableBufferPointer<Double>, _ k: Int) -> Double {
        var low = 0
        var high = buffer.count - 1
        while high > low {
            let middle = low + (high - low) / 2
            if buffer[middle] < buffer[low] { buffer.swapAt(middle, low) }
            if buffer[high] < buffer[low] { buffer.swapAt(high, low) }
            if buffer[high] < buffer[middle] { buffer.swapAt(high, middle) }
            let pivot = buffer[middle]
            var i = low
            var j = high
            while i <= j {
                while buffer[i] < pivot { i += 1 }
                while buffer[j] > pivot { j -= 1 }
                if i <= j {
                    buffer.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { high = j } else if k >= i { low = i } else { return buffer[k] }
        }
        return buffer[k]
    }

    /// The median of an unsorted sample.
    /// - Complexity: O(n) on average.
    public static func median(_ values: [Double]) throws(StatisticsError) -> Double {
        try StatisticsError.validate(values)
        var copy = values
        return copy.withUnsafeMutableBufferPointer { medianBySelection($0) }
    }
}
