import PerfKitCore

/// package-benchmark's limits written as PerfKit budgets.
///
/// The traits to put on each benchmark's `@Test`, so a team moving over keeps its limits in the tests where PerfKit's
/// budgets live.
extension PackageBenchmarkThresholds {
    /// One benchmark's limits as budget traits.
    public struct Budgets: Sendable, Equatable {
        /// `<Target>` of the file name.
        public var target: String
        /// `<Benchmark>`: the name of the `measure("…")` the budgets are for.
        public var benchmark: String
        /// The threshold file.
        public var file: String
        /// Swift source of each trait, for example `.budget(.mallocs, max: 603)`.
        public var traits: [String]
    }

    /// The limits of every benchmark as budget traits, in file order.
    ///
    /// A time limit becomes a p90 ceiling (`.budget(.wallClock, p90: .nanoseconds(N))`), as package-benchmark checks
    /// it; a count or a size becomes a ceiling on every sample (`max:`), which a count's identical samples make the
    /// same check.
    public var budgets: [Budgets] {
        var result: [Budgets] = []
        for limit in limits {
            let value = Format.trim(limit.limit)
            let trait =
                limit.metric.unit == .nanoseconds
                ? ".budget(.\(limit.metric.name), p90: .nanoseconds(\(Int(limit.limit.rounded()))))"
                : ".budget(.\(limit.metric.name), max: \(value))"
            if let last = result.last, last.file == limit.file {
                result[result.count - 1].traits.append(trait)
            } else {
                result.append(
                    Budgets(target: limit.target, benchmark: limit.benchmark, file: limit.file, traits: [trait]))
            }
        }
        return result
    }
}
