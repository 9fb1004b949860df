import PerfKitCore

/// Short human-readable summaries of test results.
public enum ResultText {
    /// A few lines per measurement: median and p95 of wall-clock time, deterministic counts, budgets.
    public static func summary(of result: TestResult, mode: PerformanceMode) -> String {
        var lines = ["\(result.id) (\(mode.name) mode, \(mode.buildConfiguration) build)"]
        for measurement in result.measurements {
            for series in measurement.series where series.metric == .wallClock || series.metric.isDeterministic {
                guard let s = try? Summary(series.values) else { continue }
                let value =
                    series.metric.unit == .nanoseconds
                    ? "median \(Format.duration(s.median)), p95 \(Format.duration(s.p95))"
                    : "max \(Format.value(s.max, series.metric.unit))"
                lines.append(
                    "  \(measurement.name) [\(series.arm), \(series.phase)] \(series.metric.name): \(value) "
                        + "(\(s.count) samples)"
                )
            }
        }
        for budget in result.budgets {
            lines.append("  budget \(budget.metric) \(budget.budget): \(budget.status) — \(budget.detail)")
        }
        return lines.joined(separator: "\n")
    }
}
