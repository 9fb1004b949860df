import Foundation

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

/// Number formatting shared by summaries and reports.
public enum Format {
    /// A whole number with its thousands grouped (`16,000`, `-339,207`); any other value as `%g`.
    public static func grouped(_ n: Double) -> String {
        guard n == n.rounded(), abs(n) < 1e15 else { return String(format: "%g", n) }
        let digits = String(Int64(abs(n)))
        var out = ""
        for (i, c) in digits.reversed().enumerated() {
            if i > 0, i % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + String(out.reversed())
    }

    /// A duration given in nanoseconds, in the most readable unit (ns, µs, ms, s).
    public static func duration(_ ns: Double) -> String {
        let magnitude = abs(ns)
        if magnitude >= 1e9 { return trim(ns / 1e9) + " s" }
        if magnitude >= 1e6 { return trim(ns / 1e6) + " ms" }
        if magnitude >= 1e3 { return trim(ns / 1e3) + " µs" }
        return trim(ns) + " ns"
    }

    /// A byte count in B, KiB, MiB or GiB.
    public static func bytes(_ b: Double) -> String {
        let magnitude = abs(b)
        if magnitude >= 1_073_741_824 { return trim(b / Double(1 << 30)) + " GiB" }
        if magnitude >= 1_048_576 { return trim(b / Double(1 << 20)) + " MiB" }
        if magnitude >= 1_024 { return trim(b / Double(1 << 10)) + " KiB" }
        return trim(b) + " B"
    }

    /// A value in its unit, readable.
    public static func value(_ v: Double, _ unit: MetricUnit) -> String {
        switch unit {
        case .nanoseconds: duration(v)
        case .bytes: bytes(v)
        default: trim(v) + (unit == .count ? "" : " \(unit)")
        }
    }

    /// A p-value for people: `< 0.001` below a thousandth, else three significant digits;
    /// "undefined" when it is not a number.
    public static func pValue(_ p: Double) -> String {
        guard p.isFinite else { return "undefined" }
        return p < 0.001 ? "< 0.001" : String(format: "%.3g", p)
    }

    /// Up to three decimals (fewer from 10 upwards), no trailing zeros; "undefined" for NaN or infinity.
    public static func trim(_ x: Double) -> String {
        guard x.isFinite else { return "undefined" }
        if x == x.rounded() && abs(x) < 1e12 { return String(Int64(x)) }
        let digits = abs(x) >= 100 ? 1 : (abs(x) >= 10 ? 2 : 3)
        var text = String(format: "%.\(digits)f", x)
        while text.contains(".") && (text.hasSuffix("0") || text.hasSuffix(".")) { text.removeLast() }
        return text
    }
}
