import Foundation
import PerfKitCore

/// A short text summary of a run file for the end of `perfkit run`.
public enum RunSummary {
    /// One line per test and measurement: arms, phases, the median of the wall time (or, for a
    /// measurement without one, of its first metric, named), budget outcomes.
    /// - Parameter run: The run.
    /// - Returns: Plain text.
    public static func text(_ run: RunFile) -> String {
        var lines = [
            "\(run.tests.count) measured tests, \(run.mode) mode, \(run.environment.buildConfiguration) build, "
                + "\(run.environment.machine.summary)"
        ]
        for test in run.tests {
            for measurement in test.measurements {
                let metric =
                    measurement.series.contains { $0.metric == .wallClock }
                    ? .wallClock : measurement.series.first?.metric
                var parts: [String] = []
                for phase in measurement.phases {
                    for arm in measurement.arms {
                        guard let metric, let series = measurement.series(metric, arm: arm, phase: phase),
                            let s = try? Summary(series.values)
                        else { continue }
                        let name = metric == .wallClock ? "" : " \(metric.name)"
                        parts.append("\(arm)/\(phase)\(name) \(Format.value(s.median, metric.unit))")
                    }
                }
                lines.append("  \(test.id) \(measurement.name): " + parts.joined(separator: ", "))
            }
            let failed = test.budgets.filter { $0.status == .failed }
            if !failed.isEmpty {
                lines.append(
                    "    budgets failed: " + failed.map { "\($0.metric) \($0.detail)" }.joined(separator: "; "))
            }
        }
        return lines.joined(separator: "\n")
    }
}
