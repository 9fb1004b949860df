import Foundation
import PerfKitCore

/// A run checked against package-benchmark's p90 thresholds (``PackageBenchmarkThresholds``).
///
/// One row per limit, with the run's p90, the difference and whether it passed.
public struct ThresholdCheck: Sendable {
    /// What became of one limit.
    public enum Status: String, Sendable, Equatable {
        /// The run's p90 is at or under the limit.
        case passed
        /// The run's p90 is over the limit.
        case exceeded
        /// The run has no such measurement or metric (not measured, or not counted: no `--counts`).
        case notInRun = "not in this run"
    }

    /// One limit checked.
    public struct Row: Sendable, Equatable {
        /// The limit.
        public var limit: PackageBenchmarkThresholds.Limit
        /// The run's p90 per call, when it has the series.
        public var measured: Double?
        /// The test the benchmark was matched to.
        public var test: String?
        /// The outcome.
        public var status: Status
    }

    /// Every limit, in the thresholds' order.
    public var rows: [Row]

    /// Whether any limit was exceeded.
    public var exceeded: Bool { rows.contains { $0.status == .exceeded } }

    /// Checks `tests` against `thresholds`.
    public init(_ thresholds: PackageBenchmarkThresholds, tests: [TestResult]) {
        rows = thresholds.limits.map { limit in
            let candidates = tests.flatMap { test in
                test.measurements.filter { $0.name == limit.benchmark }.map { (test.id, $0) }
            }
            let chosen = candidates.first { $0.0.contains(limit.target) } ?? candidates.first
            guard let (test, measurement) = chosen, let arm = measurement.arms.first else {
                return Row(limit: limit, measured: nil, test: nil, status: .notInRun)
            }
            let phase = measurement.phases.contains(.warm) ? .warm : measurement.phases.first ?? .warm
            guard let series = measurement.series(limit.metric, arm: arm, phase: phase), !series.values.isEmpty,
                // No finite sample: the row says the series is not in the run.
                let p90 = try? Quantile.percentile(series.values, 90)
            else { return Row(limit: limit, measured: nil, test: test, status: .notInRun) }
            return Row(limit: limit, measured: p90, test: test, status: p90 <= limit.limit ? .passed : .exceeded)
        }
    }

    /// The difference table, one line per limit, aligned.
    public var tableLines: [String] {
        var cells = [["benchmark", "metric", "p90 limit", "this run", "difference", "status"]]
        for row in rows {
            let difference: String
            if let measured = row.measured {
                let delta = measured - row.limit.limit
                let percent = row.limit.limit > 0 ? String(format: " (%+.1f%%)", delta / row.limit.limit * 100) : ""
                difference = (delta >= 0 ? "+" : "") + Format.trim(delta) + percent
            } else {
                difference = "–"
            }
            cells.append([
                "\(row.limit.target).\(row.limit.benchmark)", row.limit.name, Format.trim(row.limit.limit),
                row.measured.map(Format.trim) ?? "–", difference, row.status.rawValue,
            ])
        }
        return TextTable.aligned(cells, left: [0, 1, 5])
    }
}
