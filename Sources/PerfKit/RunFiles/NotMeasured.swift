import PerfKitCore

/// The metrics a run could not measure, with their reasons: one line per measurement and reason, the metrics that share
/// a reason together.
///
/// Said on screen (``RunSummary``) and in every report.
public enum NotMeasured {
    /// `Test/id() measurement: metricA, metricB: reason` lines, and `… fell back: …` lines for what a measurement fell
    /// back on (``Fallback``), in test order.
    public static func lines(of tests: [TestResult]) -> [String] {
        var lines: [String] = []
        for test in tests {
            for measurement in test.measurements {
                var reasons: [String] = []
                var metrics: [String: [String]] = [:]
                for missing in measurement.unavailable {
                    if metrics[missing.reason] == nil { reasons.append(missing.reason) }
                    metrics[missing.reason, default: []].append(missing.metric)
                }
                for reason in reasons {
                    lines.append(
                        "\(test.id) \(measurement.name): \(metrics[reason]!.joined(separator: ", ")): \(reason)")
                }
                for fallback in measurement.fallbacks ?? [] {
                    lines.append("\(test.id) \(measurement.name): fell back: \(fallback.sentence)")
                }
            }
        }
        return lines
    }

    /// The report's limitation lines: at most `limit` of them, then how many more the run file holds.
    public static func limitations(of tests: [TestResult], limit: Int = 20) -> [String] {
        let all = lines(of: tests)
        var shown = all.prefix(limit).map { "Not measured: \($0)." }
        if all.count > limit { shown.append("Not measured: \(all.count - limit) more, listed in the run file.") }
        return shown
    }
}
