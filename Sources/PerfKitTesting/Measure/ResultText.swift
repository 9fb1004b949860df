import PerfKitCore

/// Short human-readable summaries of test results.
package enum ResultText {
    /// A few lines per measurement: median and p95 of wall-clock time, deterministic counts, budgets.
    package static func summary(of result: TestResult, mode: PerformanceMode) -> String {
        var lines = ["\(result.id) (\(mode.name) mode, \(mode.buildConfiguration) build)"]
        for measurement in result.measurements {
            for series in measurement.series where series.metric == .wallClock || series.metric.isDeterministic {
                // No finite sample: no line for this series.
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

    /// One line for the console under `swift test`.
    ///
    /// Per measurement, the first arm's warm (else first) phase's wall median and mallocs, leaked allocations and
    /// descriptors per call, and the budgets' status; then the metrics not measured, named.
    package static func line(of result: TestResult, mode: PerformanceMode) -> String {
        var parts: [String] = []
        for measurement in result.measurements {
            guard let arm = measurement.arms.first else { continue }
            let phase = measurement.phases.contains(.warm) ? .warm : measurement.phases.first ?? .warm
            var figures: [String] = []
            let shown: [Metric] = [
                .wallClock, .mallocs, .otherThreadMallocs, .leakedAllocations, .leakedDescriptors, .instructions,
            ]
            for metric in shown {
                // No finite sample: the figure is left out of the line.
                guard let series = measurement.series(metric, arm: arm, phase: phase),
                    let s = try? Summary(series.values)
                else { continue }
                let value = metric.unit == .nanoseconds ? Format.duration(s.median) : Format.trim(s.median)
                figures.append("\(metric.name) \(value)")
            }
            let missing = measurement.unavailable.map(\.metric)
            parts.append(
                "\(measurement.name) [\(arm), \(phase)] " + figures.joined(separator: ", ")
                    + (missing.isEmpty ? "" : " (not measured: \(missing.joined(separator: ", ")))"))
        }
        return "perfkit \(mode.name): \(result.id): " + parts.joined(separator: "; ") + budgetText(result.budgets)
    }

    /// "; budgets 1 of 2 passed, 1 not judged": a budget not judged is never counted as passed.
    static func budgetText(_ budgets: [BudgetOutcome]) -> String {
        guard !budgets.isEmpty else { return "" }
        func count(_ status: BudgetStatus) -> Int { budgets.filter { $0.status == status }.count }
        let others = [BudgetStatus.failed, .notJudged, .targetMissed].compactMap { status in
            count(status) > 0 ? "\(count(status)) \(status)" : nil
        }
        return "; budgets \(count(.passed)) of \(budgets.count) passed" + others.map { ", " + $0 }.joined()
    }
}
