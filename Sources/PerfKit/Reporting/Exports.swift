import Foundation
import PerfKitCore

/// Exports of run results in formats other tools read.
public enum Exports {
    /// github-action-benchmark's `customSmallerIsBetter` or `customBiggerIsBetter` JSON.
    ///
    /// An array of `{name, unit, value, range, extra}`, one entry per series of that polarity; `value` is the median,
    /// `range` the interquartile range, `extra` the sample count and phase.
    /// - Parameters:
    ///   - tests: The results to export.
    ///   - polarity: Which tool format: smaller or bigger is better.
    /// - Returns: JSON bytes.
    /// - Throws: ``StatisticsError`` for non-finite samples.
    public static func githubActionBenchmark(_ tests: [TestResult], polarity: Polarity) throws -> Data {
        struct Entry: Encodable {
            var name: String
            var unit: String
            var value: Double
            var range: String
            var extra: String
        }
        var entries: [Entry] = []
        for (name, series) in flatten(tests) where series.metric.polarity == polarity {
            let s = try Summary(series.values)
            entries.append(
                Entry(
                    name: name, unit: series.metric.unit.symbol, value: s.median,
                    range: "± \(Format.trim(s.interquartileRange / 2))",
                    extra:
                        "\(s.count) samples, \(series.phase) phase, "
                        + "\(series.metric.kind.identifier)\(series.metric.isDeterministic ? ", deterministic" : "")"
                ))
        }
        return try StoredFile.encoder().encode(entries)
    }

    /// The Bencher Metric Format.
    ///
    /// `{benchmark: {measure: {value, lower_value, upper_value}}}` with the median as value and the 10th and 90th
    /// percentiles as bounds. Benchmarks are named `test measurement [arm, phase]`; measures are the metric names in
    /// kebab case.
    /// - Throws: ``StatisticsError`` for non-finite samples.
    public static func bencher(_ tests: [TestResult]) throws -> Data {
        struct Value: Encodable {
            var value: Double
            var lower_value: Double
            var upper_value: Double
        }
        var document: [String: [String: Value]] = [:]
        for test in tests {
            for m in test.measurements {
                for series in m.series {
                    let s = try Summary(series.values, percentiles: [10])
                    let benchmark = "\(test.id) \(m.name) [\(series.arm), \(series.phase)]"
                    document[benchmark, default: [:]][kebab(series.metric.name)] = Value(
                        value: s.median, lower_value: s.extraPercentiles[10]!, upper_value: s.p90)
                }
            }
        }
        return try StoredFile.encoder().encode(document)
    }

    static func flatten(_ tests: [TestResult]) -> [(String, SampleSeries)] {
        tests.flatMap { test in
            test.measurements.flatMap { m in
                m.series.map { ("\(test.id) \(m.name) [\($0.arm), \($0.phase)] \($0.metric.name)", $0) }
            }
        }
    }

    /// `wallClock` → `wall-clock`.
    static func kebab(_ name: String) -> String {
        var out = ""
        for c in name {
            if c.isUppercase, !out.isEmpty { out += "-" }
            out += c.lowercased()
        }
        return out
    }
}
