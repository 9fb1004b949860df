import Foundation
import PerfKitCore

/// The report's "Cost as work grows" section.
///
/// Per parameterized test function, the growth of each metric (the named order, or the exponent), the cost per element
/// at each size, the growth changes against the baseline, and a log–log chart per function.
public struct GrowthReport: Sendable {
    /// The baseline's growth, when there is a baseline.
    public var baseline: Growth?
    /// The current side's growth.
    public var current: Growth
    /// The series whose growth changed.
    public var changes: [GrowthChange]

    /// A report of `current` (against `baseline`, when given).
    public init(baseline: [TestResult]?, current: [TestResult]) {
        let before = baseline.map(Growth.init), after = Growth(current)
        self.baseline = before
        self.current = after
        changes = before.map { GrowthChange.changes(baseline: $0, current: after) } ?? []
    }

    /// Whether there is anything to show.
    public var isEmpty: Bool { current.fits.isEmpty }

    /// Whether a count grows faster than in the baseline: a failing reason under `--fail-on regression`.
    public var hasRegression: Bool { changes.contains(where: \.isFaster) }

    /// The metric a function's chart shows: instructions when counted, else wall-clock time.
    func chartKey(_ function: String) -> Growth.Key? {
        let keys = current.fits.keys.filter { $0.function == function }.sorted()
        return keys.first { $0.metric == .instructions && $0.phase == .warm }
            ?? keys.first { $0.metric == .wallClock && $0.phase == .warm } ?? keys.first
    }

    /// Each function's chart: its file name suffix and SVG.
    public func charts() -> [(function: String, svg: String)] {
        current.functions.compactMap { function in
            guard let key = chartKey(function), let fit = current.fits[key] else { return nil }
            let sides = (baseline?.fits[key].map { [("baseline", $0)] } ?? []) + [("current", fit)]
            return (
                function,
                GrowthChart.svg(
                    title: SeriesID.shortTest(function),
                    subtitle: "\(key.measurement) [\(key.arm), \(key.phase.identifier)] \(key.metric.name)",
                    sides: sides,
                    unit: key.metric.unit.symbol)
            )
        }
    }

    /// Plain lines for the command's answer: the changes first, then each count's growth.
    public var plainLines: [String] {
        guard !isEmpty else { return [] }
        var lines = changes.map { "growth changed: " + $0.line }
        for (key, fit) in current.fits.sorted(by: { $0.key < $1.key })
        where key.metric == .instructions || key.metric == .wallClock {
            let exponent = String(format: "%.2f", fit.exponent)
            let range =
                key.metric.isDeterministic
                ? "" : String(format: " (%.2f–%.2f)", fit.exponentRange.lowerBound, fit.exponentRange.upperBound)
            let how =
                fit.order.map { "as \($0) (exponent \(exponent)\(range))" }
                ?? "with exponent \(exponent)\(range), no plain name fits"
            lines.append("growth: \(key) grows \(how) over \(fit.points.count) sizes")
        }
        return lines
    }

    /// The Markdown section; `charts` maps a function to its chart's file name.
    public func markdown(charts: [String: String]) -> String {
        var lines = [
            "## Cost as work grows",
            "",
            "Each case of a parameterized test is its own series; where its argument is a size, cost is fitted "
                + "against size (log–log exponent; a plain name only when a model `a + b·f(n)` fits every size within "
                + "3% for a count, 10% for time). A host-side component cost, not a frame deadline; a name over three "
                + "or four sizes is a description of those sizes, not a proof of the asymptote.",
            "",
        ]
        if !changes.isEmpty {
            lines += ["**Growth changed:**", ""] + changes.map { "- " + $0.line } + [""]
        }
        for function in current.functions {
            lines.append("### `\(SeriesID.shortTest(function))`")
            lines.append("")
            if let chart = charts[function] { lines += ["![cost against size](\(chart))", ""] }
            let keys = current.fits.keys.filter { $0.function == function }.sorted()
            let sizes = Set(keys.flatMap { current.fits[$0]!.points.map(\.size) }).sorted()
            lines.append(
                "| series | growth | exponent | "
                    + sizes.map { "per element at \(Growth.size($0))" }.joined(separator: " | ") + " |")
            lines.append("|---|---|---|" + String(repeating: "---|", count: sizes.count))
            for key in keys {
                let fit = current.fits[key]!
                let before = baseline?.fits[key].map { " (baseline \($0.name))" } ?? ""
                let exponent =
                    key.metric.isDeterministic
                    ? String(format: "%.2f", fit.exponent)
                    : String(
                        format: "%.2f (%.2f–%.2f)", fit.exponent, fit.exponentRange.lowerBound,
                        fit.exponentRange.upperBound)
                let cells = sizes.map { size in
                    fit.points.first { $0.size == size }.map {
                        Format.value($0.cost / size, key.metric.unit)
                    } ?? "–"
                }
                lines.append(
                    "| \(key.measurement) [\(key.arm), \(key.phase.identifier)] \(key.metric.name) | "
                        + "\(fit.name)\(before) | \(exponent) | "
                        + cells.joined(separator: " | ") + " |")
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}
