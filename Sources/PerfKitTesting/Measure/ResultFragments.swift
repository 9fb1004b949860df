import Foundation
import PerfKit

/// One file per measured test in the run's results folder; `perfkit run` merges them into a run file.
public enum ResultFragments {
    /// Schema version of a fragment (a ``TestResult`` with a version field).
    public static let schemaVersion = 1

    struct Fragment: Codable {
        var schemaVersion: Int
        var test: TestResult
    }

    /// Writes one test's result atomically into `directory`.
    /// - Throws: ``FileError`` naming the file.
    public static func write(_ result: TestResult, into directory: String) throws(FileError) {
        let name = result.id.map { $0.isLetter || $0.isNumber ? $0 : "_" }
        try StoredFile.write(Fragment(schemaVersion: schemaVersion, test: result), to: directory + "/" + String(name) + ".json")
    }

    /// Reads every fragment in `directory`.
    /// - Throws: ``FileError`` for a corrupt fragment.
    public static func readAll(from directory: String) throws(FileError) -> [TestResult] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        var results: [TestResult] = []
        for name in names {
            results.append(try StoredFile.read(Fragment.self, from: directory + "/" + name, supportedVersion: schemaVersion).test)
        }
        return results
    }
}

/// Short human-readable summaries of test results.
public enum ResultText {
    /// A few lines per measurement: median and p95 of wall-clock time, deterministic counts, budgets.
    public static func summary(of result: TestResult, mode: PerformanceMode) -> String {
        var lines = ["\(result.id) (\(mode.name) mode, \(mode.buildConfiguration) build)"]
        for measurement in result.measurements {
            for series in measurement.series where series.metric == .wallClock || series.metric.isDeterministic {
                guard let s = try? Summary(series.values) else { continue }
                let value = series.metric.unit == .nanoseconds
                    ? "median \(Budget.format(s.median, .nanoseconds)), p95 \(Budget.format(s.p95, .nanoseconds))"
                    : "max \(Budget.Limit.trim(s.max)) \(series.metric.unit)"
                lines.append("  \(measurement.name) [\(series.arm), \(series.phase)] \(series.metric.name): \(value) (\(s.count) samples)")
            }
        }
        for budget in result.budgets { lines.append("  budget \(budget.metric) \(budget.budget): \(budget.status) — \(budget.detail)") }
        return lines.joined(separator: "\n")
    }
}
