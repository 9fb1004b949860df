import PerfKitCore
import Testing

/// A budget attached to a measured test; the performance trait judges it after the test body.
///
/// A budget on a test without `.performance()` (on the test or its suite) would never be judged,
/// so the budget's own scope records a failure that says what to add.
public struct BudgetTrait: TestTrait, TestScoping {
    /// The budget.
    public var budget: Budget

    /// Runs the test, then fails it if no performance trait will judge this budget.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await function()
        if let message = Self.unjudgedMessage(budget, traits: test.traits) {
            Issue.record(Comment(rawValue: message), sourceLocation: budget.sourceLocation)
        }
    }

    /// Why `budget` would never be judged among `traits`, or nil when a performance trait is there.
    package static func unjudgedMessage(_ budget: Budget, traits: [any Trait]) -> String? {
        guard !traits.contains(where: { $0 is PerformanceTrait }) else { return nil }
        return
            "\(budget.metric.name) budget \(budget.text) is never judged: the test has no .performance() trait; add "
            + ".performance() to the test or its suite"
    }
}

/// The three clocks a UI team works with.
public struct BudgetPreset: Sendable {
    var limits: [Budget.Limit]
    var clock: String

    /// Frame work at 120 Hz: p99 of the work within one 8.33 ms frame.
    public static let frameWork = BudgetPreset(
        limits: [.init(percentile: 99, value: 8_333_333, isTarget: false)], clock: "frame work, 120 Hz")
    /// Direct interaction (a drag, a tap that moves something): p95 under 10 ms, max 20 ms.
    public static let directInteraction = BudgetPreset(
        limits: [
            .init(percentile: 95, value: 10_000_000, isTarget: false),
            .init(percentile: 100, value: 20_000_000, isTarget: false),
        ],
        clock: "direct interaction")
    /// Other local actions (open a detail, switch view): target p95 within 50 ms, ceiling 100 ms.
    public static let localAction = BudgetPreset(
        limits: [
            .init(percentile: 95, value: 50_000_000, isTarget: true),
            .init(percentile: 100, value: 100_000_000, isTarget: false),
        ],
        clock: "local action")
}

extension Trait where Self == BudgetTrait {
    /// A time budget on a statistical metric (for example `.wallClock`).
    /// - Parameters:
    ///   - metric: The metric, in nanoseconds.
    ///   - p50: Ceiling of the median.
    ///   - p90: Ceiling of the 90th percentile (package-benchmark's threshold percentile).
    ///   - p95: Ceiling of the 95th percentile.
    ///   - p99: Ceiling of the 99th percentile.
    ///   - max: Ceiling of every sample.
    ///   - sourceLocation: Where the budget is written, for the issue a failed budget records.
    /// - Returns: The budget trait.
    public static func budget(
        _ metric: Metric, p50: Duration? = nil, p90: Duration? = nil, p95: Duration? = nil, p99: Duration? = nil,
        max: Duration? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Self {
        let limits: [Budget.Limit] = [(50.0, p50), (90, p90), (95, p95), (99, p99), (100, max)].compactMap { p, d in
            d.map { Budget.Limit(percentile: p, value: $0.nanoseconds, isTarget: false) }
        }
        return BudgetTrait(budget: Budget(metric: metric, limits: limits, clock: nil, sourceLocation: sourceLocation))
    }

    /// A ceiling on every sample of a metric, for example `.budget(.mallocs, max: 0)` or a custom counter.
    ///
    /// Deterministic metrics are judged exactly in every mode.
    /// - Parameters:
    ///   - metric: The metric.
    ///   - max: The largest allowed value, in the metric's unit.
    ///   - sourceLocation: Where the budget is written, for the issue a failed budget records.
    /// - Returns: The budget trait.
    public static func budget(_ metric: Metric, max: Double, sourceLocation: SourceLocation = #_sourceLocation) -> Self
    {
        BudgetTrait(
            budget: Budget(
                metric: metric, limits: [.init(percentile: 100, value: max, isTarget: false)], clock: nil,
                sourceLocation: sourceLocation))
    }

    /// A ceiling judged only in the build it was measured in; elsewhere not judged, with a warning that says so.
    ///
    /// For example `.budget(.mallocs, max: 603, build: .release)`, what `perfkit check --as-budgets` writes for
    /// package-benchmark's release figures.
    /// - Parameters:
    ///   - metric: The metric.
    ///   - max: The largest allowed value, in the metric's unit.
    ///   - build: The build configuration it is judged in.
    ///   - sourceLocation: Where the budget is written, for the issue a failed budget records.
    /// - Returns: The budget trait.
    public static func budget(
        _ metric: Metric, max: Double, build: BuildConfiguration, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Self {
        var budget = Budget(
            metric: metric, limits: [.init(percentile: 100, value: max, isTarget: false)], clock: nil,
            sourceLocation: sourceLocation)
        budget.build = build.rawValue
        return BudgetTrait(budget: budget)
    }

    /// One of the three UI clocks on wall-clock time: `.budget(.directInteraction)`.
    /// - Parameters:
    ///   - preset: The clock.
    ///   - sourceLocation: Where the budget is written, for the issue a failed budget records.
    /// - Returns: The budget trait.
    public static func budget(_ preset: BudgetPreset, sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        BudgetTrait(
            budget: Budget(
                metric: .wallClock, limits: preset.limits, clock: preset.clock, sourceLocation: sourceLocation))
    }
}

/// The build a budget was measured to hold in.
public enum BuildConfiguration: String, Sendable {
    /// `swift build -c release`, as `perfkit run` builds.
    case release
    /// A plain `swift test`.
    case debug
}
