/// Why a statistic cannot be computed from its input.
public enum StatisticsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sample is empty.
    case empty
    /// The sample holds a NaN or an infinity at the given index.
    case notFinite(index: Int, value: Double)
    /// The sample is too small for the statistic (`needed` values at least).
    case tooFew(count: Int, needed: Int)
    /// Paired samples have different lengths.
    case mismatchedLengths(Int, Int)
    /// A probability outside 0...1 or a percentile outside 0...100.
    case outOfRange(Double)
    /// Finite values whose statistic is not finite (a difference of ±1e308 overflows).
    case overflow

    /// A one-line reason.
    public var description: String {
        switch self {
        case .empty: "empty sample"
        case .notFinite(let index, let value): "sample value \(index + 1) is not finite (\(value))"
        case .tooFew(let count, let needed): "too few values (\(count); need at least \(needed))"
        case .mismatchedLengths(let a, let b): "paired samples differ in length (\(a) and \(b))"
        case .outOfRange(let value): "value \(value) is out of range"
        case .overflow: "the values are too large to compare: their difference overflows a Double"
        }
    }

    /// Throws when `values` is empty or holds a non-finite number.
    /// - Complexity: O(n).
    package static func validate(_ values: [Double], minimumCount: Int = 1) throws(StatisticsError) {
        if values.isEmpty { throw .empty }
        if let index = values.firstIndex(where: { !$0.isFinite }) {
            throw .notFinite(index: index, value: values[index])
        }
        if values.count < minimumCount { throw .tooFew(count: values.count, needed: minimumCount) }
    }
}
