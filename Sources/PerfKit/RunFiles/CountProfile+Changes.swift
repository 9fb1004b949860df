import PerfKitCore

extension CountProfile {
    /// One function's figure on both sides of a comparison.
    public struct Change: Sendable, Equatable {
        /// The function.
        public var function: String
        /// Its figure in the baseline (0 when absent from the baseline's list).
        public var baseline: Double
        /// Its figure in the current side (0 when absent).
        public var current: Double
        /// Functions present on one side only, folded into this one, their caller (inlined on one side).
        public var absorbed: [String] = []
        /// current − baseline.
        public var delta: Double { current - baseline }

        /// A function's change.
        /// - Parameters:
        ///   - function: The function.
        ///   - baseline: Its figure in the baseline.
        ///   - current: Its figure in the current side.
        public init(function: String, baseline: Double = 0, current: Double = 0) {
            self.function = function
            self.baseline = baseline
            self.current = current
        }
    }

    /// The functions whose figure changed most between two profiles, largest change first.
    /// - Parameters:
    ///   - baseline: The earlier profile's entries.
    ///   - current: The later profile's entries.
    ///   - limit: How many to return.
    /// - Returns: The changed functions.
    /// - Complexity: O(n log n) in the entries.
    public static func changes(_ baseline: [Entry], _ current: [Entry], limit: Int = 5) -> [Change] {
        var before: [String: Double] = [:]
        for entry in baseline { before[entry.function, default: 0] += entry.value }
        var after: [String: Double] = [:]
        for entry in current { after[entry.function, default: 0] += entry.value }
        var result: [Change] = []
        for name in Set(before.keys).union(after.keys) {
            let change = Change(function: name, baseline: before[name] ?? 0, current: after[name] ?? 0)
            if change.delta != 0 { result.append(change) }
        }
        result.sort { abs($0.delta) != abs($1.delta) ? abs($0.delta) > abs($1.delta) : $0.function < $1.function }
        return Array(result.prefix(limit))
    }
}
