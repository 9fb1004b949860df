import PerfKitCore

/// Tidy CSV exports: a summary (one row per series and statistic) and raw samples (one row per sample).
public enum CSVReport {
    /// One row per test, measurement, arm, phase, metric, side and statistic.
    public static func summary(_ comparison: Comparison) -> String {
        var lines = [
            CSV.line(["test", "measurement", "arm", "phase", "metric", "unit", "kind", "side", "statistic", "value"])
        ]
        for row in comparison.rows {
            for (side, summary) in [("baseline", row.baseline), ("current", row.current)] {
                guard let s = summary else { continue }
                for (name, value) in [
                    ("count", Double(s.count)), ("min", s.min), ("p50", s.median), ("p90", s.p90), ("p99", s.p99),
                    ("max", s.max), ("mean", s.mean),
                    ("stddev", s.standardDeviation), ("mad", s.medianAbsoluteDeviation),
                ] {
                    lines.append(
                        CSV.line([
                            row.test, row.measurement, row.arm, row.phase.identifier, row.metric.name,
                            row.metric.unit.symbol, row.metric.kind.identifier, side,
                            name, "\(value)",
                        ]))
                }
            }
            var verdictFields = [
                row.test, row.measurement, row.arm, row.phase.identifier, row.metric.name, row.metric.unit.symbol,
                row.metric.kind.identifier, "comparison",
            ]
            if let change = row.change {
                for (name, value) in [
                    ("ratio", change.value), ("ratioLow95", change.lower), ("ratioHigh95", change.upper),
                ] {
                    lines.append(CSV.line(verdictFields + [name, "\(value)"]))
                }
            }
            if let difference = row.difference {
                for (name, value) in [
                    ("difference", difference.value), ("differenceLow95", difference.lower),
                    ("differenceHigh95", difference.upper),
                ] {
                    lines.append(CSV.line(verdictFields + [name, "\(value)"]))
                }
            }
            for (name, value) in [("p", row.pValue), ("q", row.qValue)] {
                if let value { lines.append(CSV.line(verdictFields + [name, "\(value)"])) }
            }
            verdictFields += ["verdict", row.verdict.description]
            lines.append(CSV.line(verdictFields))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Rows without a header, in ``summary(_:)``'s columns, for the metrics a side could not measure.
    ///
    /// Statistic `notMeasured`, value the reason (arm, phase, unit and kind empty), so a CSV reader sees an absence and
    /// its cause rather than nothing.
    public static func notMeasuredRows(_ tests: [TestResult], side: String) -> [String] {
        tests.flatMap { test in
            test.measurements.flatMap { m in
                m.unavailable.map { missing in
                    CSV.line([test.id, m.name, "", "", missing.metric, "", "", side, "notMeasured", missing.reason])
                }
            }
        }
    }

    /// Raw rows without a header: one per sample with its process, round, position and sample index.
    ///
    /// The series were validated on load, so their label arrays have the values' length.
    public static func rawRows(_ tests: [TestResult], side: String) -> [String] {
        var lines: [String] = []
        for test in tests {
            for m in test.measurements {
                for s in m.series where s.validationProblem() == nil {
                    for i in s.values.indices {
                        lines.append(
                            CSV.line([
                                side, test.id, m.name, s.arm, s.phase.identifier, s.metric.name, s.metric.unit.symbol,
                                "\(s.processes?[i] ?? 0)",
                                "\(s.rounds[i])",
                                "\(s.positions[i])", "\(s.sampleIndices[i])", "\(s.values[i])",
                            ]))
                    }
                }
            }
        }
        return lines
    }
}
