/// Tidy CSV exports: a summary (one row per series and statistic) and raw samples (one row per sample).
public enum CSVReport {
    /// One row per test, measurement, arm, phase, metric, side and statistic.
    public static func summary(_ comparison: Comparison) -> String {
        var lines = [CSV.line(["test", "measurement", "arm", "phase", "metric", "unit", "kind", "side", "statistic", "value"])]
        for row in comparison.rows {
            for (side, summary) in [("baseline", row.baseline), ("current", row.current)] {
                guard let s = summary else { continue }
                for (name, value) in [
                    ("count", Double(s.count)), ("min", s.min), ("p50", s.median), ("p90", s.p90), ("p99", s.p99), ("max", s.max), ("mean", s.mean),
                    ("stddev", s.standardDeviation), ("mad", s.medianAbsoluteDeviation),
                ] {
                    lines.append(
                        CSV.line([
                            row.test, row.measurement, row.arm, row.phase.identifier, row.metric.name, row.metric.unit.symbol, row.metric.kind.identifier, side,
                            name, "\(value)",
                        ]))
                }
            }
            var verdictFields = [
                row.test, row.measurement, row.arm, row.phase.identifier, row.metric.name, row.metric.unit.symbol, row.metric.kind.identifier, "comparison",
            ]
            if let change = row.change {
                for (name, value) in [
                    ("ratio", change.value), ("ratioLow95", change.lower), ("ratioHigh95", change.upper), ("p", row.pValue ?? .nan), ("q", row.qValue ?? .nan),
                ] {
                    lines.append(CSV.line(verdictFields + [name, "\(value)"]))
                }
            }
            verdictFields += ["verdict", row.verdict.description]
            lines.append(CSV.line(verdictFields))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One row per sample with its round, position and iteration.
    public static func raw(_ tests: [TestResult], side: String) -> String {
        var lines = [CSV.line(["side", "test", "measurement", "arm", "phase", "metric", "unit", "round", "position", "iteration", "value"])]
        lines += rawRows(tests, side: side)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Raw rows without a header.
    public static func rawRows(_ tests: [TestResult], side: String) -> [String] {
        var lines: [String] = []
        for test in tests {
            for m in test.measurements {
                for s in m.series {
                    for i in s.values.indices {
                        lines.append(
                            CSV.line([
                                side, test.id, m.name, s.arm, s.phase.identifier, s.metric.name, s.metric.unit.symbol, "\(s.rounds[i])", "\(s.positions[i])",
                                "\(s.iterations[i])", "\(s.values[i])",
                            ]))
                    }
                }
            }
        }
        return lines
    }
}
