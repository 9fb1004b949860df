import Foundation
import PerfKitCore

/// The table that ends `perfkit run`.
///
/// One row per test, measurement, arm and phase, with the figures that decide (instructions and retains per call when
/// counted; the wall median, mallocs and leaks per call otherwise) and the budgets' status; then every metric that
/// could not be measured, with its reason, so nothing is unavailable in silence.
public enum RunSummary {
    /// The columns, in order: the metric each shows the median per call of.
    static let columns: [(title: String, metric: Metric)] = [
        ("wall", .wallClock), ("instructions", .instructions), ("mallocs", .mallocs),
        ("other-thread mallocs", .otherThreadMallocs), ("leaked", .leakedAllocations), ("fds", .leakedDescriptors),
        ("retains", .retains),
    ]

    /// The summary as plain text: a heading line, the table, budget failures and unavailable metrics.
    /// - Parameter run: The run.
    /// - Returns: Plain text.
    public static func text(_ run: RunFile) -> String {
        var lines = [
            "\(run.tests.count) measured tests, \(run.mode) mode, \(run.environment.buildConfiguration) build, "
                + "\(run.environment.machine.summary)"
        ]
        lines += table(run.tests)
        lines += failedBudgets(run.tests)
        let unavailable = NotMeasured.lines(of: run.tests)
        if !unavailable.isEmpty {
            lines.append("not measured (metric: why):")
            lines += unavailable.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// The aligned table of `tests`' figures, indented two spaces: what `perfkit run` ends with and
    /// `perfkit baseline show NAME` prints.
    /// - Parameter tests: The tests.
    /// - Returns: The header line and one line per test, measurement, arm and phase.
    public static func table(_ tests: [TestResult]) -> [String] {
        // Other threads' mallocs are recorded for async bodies only: a column when a run has them.
        let columns = columns.filter { column in
            column.metric != .otherThreadMallocs
                || tests.contains { $0.measurements.contains { $0.series.contains { $0.metric == column.metric } } }
        }
        var rows: [[String]] = []
        for test in tests {
            let status = budgetStatus(test)
            for measurement in test.measurements {
                let tabled = measurement.series.contains { s in columns.contains { $0.metric == s.metric } }
                for phase in measurement.phases where tabled {
                    for arm in measurement.arms {
                        var row = ["\(test.id) \(measurement.name)", "\(arm)/\(phase)"]
                        row += columns.map { median(measurement, $0.metric, arm, phase) }
                        row.append(status)
                        rows.append(row)
                    }
                }
                rows += otherMetricRows(test, measurement, status, width: columns.count)
            }
        }
        let header = ["test and measurement", "arm/phase"] + columns.map(\.title) + ["budgets"]
        return TextTable.aligned([header] + rows, left: [0, 1]).map { "  " + $0 }
    }

    /// One line per test with a failed budget, naming each.
    static func failedBudgets(_ tests: [TestResult]) -> [String] {
        tests.compactMap { test in
            let failed = test.budgets.filter { $0.status == .failed }
            return failed.isEmpty
                ? nil
                : "  \(test.id) budgets failed: " + failed.map { "\($0.metric) \($0.detail)" }.joined(separator: "; ")
        }
    }

    /// A measurement with none of the table's metrics (memory, a subject's own counters): one row
    /// per arm and phase naming its first metric's median.
    static func otherMetricRows(
        _ test: TestResult, _ measurement: MeasurementResult, _ status: String, width: Int
    ) -> [[String]] {
        guard !measurement.series.contains(where: { s in columns.contains { $0.metric == s.metric } }),
            let metric = measurement.series.first?.metric
        else { return [] }
        var rows: [[String]] = []
        for phase in measurement.phases {
            for arm in measurement.arms {
                let value = median(measurement, metric, arm, phase)
                rows.append(
                    ["\(test.id) \(measurement.name)", "\(arm)/\(phase)", "\(metric.name) \(value)"]
                        + Array(repeating: "", count: width - 1) + [status])
            }
        }
        return rows
    }

    /// The median per call of `metric`'s series, or "–" when there is none.
    static func median(_ measurement: MeasurementResult, _ metric: Metric, _ arm: String, _ phase: Phase) -> String {
        // No finite sample: nothing to summarise for this line.
        guard let series = measurement.series(metric, arm: arm, phase: phase), let s = try? Summary(series.values)
        else { return "–" }
        return metric.unit == .count || metric.unit == .instructions
            ? Format.trim(s.median) : Format.value(s.median, metric.unit)
    }

    /// "3 passed", "1 failed", "–" when the test has no budget.
    static func budgetStatus(_ test: TestResult) -> String {
        guard !test.budgets.isEmpty else { return "–" }
        let counts = Dictionary(grouping: test.budgets, by: { $0.status.identifier }).mapValues(\.count)
        return counts.keys.sorted().map { "\(counts[$0]!) \($0)" }.joined(separator: ", ")
    }
}
