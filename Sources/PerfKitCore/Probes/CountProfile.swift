/// Where a simulated count series' instructions went: per function, the instructions executed in
/// it and everything it called (inclusive), and the calls it made into the allocator, averaged
/// over the series' samples. Read from the series' callgrind dumps at the end of a counting run
/// (``CallgrindDump``), so a comparison can say which functions changed.
public struct CountProfile: Sendable, Codable, Equatable {
    /// One function's figure, per call of the measured body.
    public struct Entry: Sendable, Codable, Equatable {
        /// The function's name, demangled when it is a Swift name.
        public var function: String
        /// Instructions (inclusive) or calls into the allocator, per call of the body.
        public var value: Double
        /// An entry.
        public init(function: String, value: Double) {
            self.function = function
            self.value = value
        }
    }

    /// The functions with the most inclusive instructions, largest first (at most ``limit``).
    public var inclusive: [Entry]
    /// Functions that call the allocator (`malloc`, `swift_allocObject`, …) directly, with their
    /// calls per body call, most first (at most ``limit``).
    public var allocationCalls: [Entry]
    /// The samples (dumps) averaged.
    public var samples: Int

    /// How many functions each list keeps.
    public static let limit = 60

    /// A profile.
    public init(inclusive: [Entry], allocationCalls: [Entry], samples: Int) {
        self.inclusive = inclusive
        self.allocationCalls = allocationCalls
        self.samples = samples
    }

    /// One function's figure on both sides of a comparison.
    public struct Change: Sendable, Equatable {
        /// The function.
        public var function: String
        /// Its figure in the baseline (0 when absent from the baseline's list).
        public var baseline: Double
        /// Its figure in the current side (0 when absent).
        public var current: Double
        /// current − baseline.
        public var delta: Double { current - baseline }
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
