import PerfKitCore
import Testing

/// A limit on a metric of a measured test.
///
/// Deterministic metrics (allocation counts, custom counters) are judged exactly, in every mode.
/// Statistical metrics (time) are judged only in a release measuring run; otherwise the budget
/// becomes a warning that says why it was not judged.
public struct Budget: Sendable {
    /// One limit: a statistic (`p95`, `max`, …) and its ceiling in the metric's unit.
    public struct Limit: Sendable, Equatable {
        /// The percentile the limit applies to; 100 means the maximum.
        public var percentile: Double
        /// The ceiling.
        public var value: Double
        /// A soft limit (a target) is reported as a warning when missed, never as a failure.
        public var isTarget: Bool

        var label: String { percentile == 100 ? "max" : "p\(Format.trim(percentile))" }
    }

    /// The metric judged.
    public var metric: Metric
    /// The limits.
    public var limits: [Limit]
    /// Which of the three UI clocks the budget stands for, if any (for reports).
    public var clock: String?
    /// Where the budget was declared.
    public var sourceLocation: SourceLocation
    /// The build the budget was measured to hold in (`"release"`, `"debug"`), or nil for any.
    ///
    /// A count differs between debug and release (inlining, specialisation): a limit carried over from release
    /// figures is judged in release only, and a debug run says "not judged in debug" as a warning.
    public var build: String? = nil

    /// A plain description, for example `p95 ≤ 10 ms, max ≤ 20 ms (direct interaction)`.
    public var text: String {
        let parts = limits.map { "\($0.isTarget ? "target " : "")\($0.label) ≤ \(Format.value($0.value, metric.unit))" }
        return parts.joined(separator: ", ") + (clock.map { " (\($0))" } ?? "")
    }
}

extension Duration {
    /// The duration in nanoseconds.
    var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}
