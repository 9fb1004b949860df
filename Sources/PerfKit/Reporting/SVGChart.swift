import Foundation
import PerfKitCore

/// An SVG chart of the change of each judged series of one comparison and kind.
///
/// Each change is drawn with its 95% CI
/// and noise band (the count tolerance for simulated counts); each row names its phase.
///
/// The axis is the log of the ratio, symmetric around no change, so +100% and −50% sit at equal
/// distances; it is labelled at round ratios with a 0% tick, and limited to ÷4 … ×4. A bound
/// beyond the axis is clipped at its edge with an arrow and its value printed beside it, so one
/// outlier cannot squeeze every other row onto the centre line. Rows that were not judged (at the
/// clock's resolution, another machine, a supporting figure) are left out; a legend explains the colours.
public enum SVGChart {
    /// Round ratios the axis may be labelled at.
    static let tickRatios: [Double] = [0.25, 0.5, 0.67, 0.8, 0.9, 0.95, 0.98, 1, 1.02, 1.05, 1.1, 1.25, 1.5, 2, 4]
    /// The widest the axis goes, as a log ratio (×4 either way).
    static let maxExtent = Foundation.log(4.0)

    /// What a chart shows: its rows and the log-ratio half-width of its axis.
    struct Layout {
        var rows: [ComparisonRow]
        var extent: Double
        var ticks: [Double]
    }

    /// Chooses rows, axis range and ticks.
    static func layout(_ rows: [ComparisonRow]) -> Layout {
        let judged: Set<Verdict> = [.regressed, .improved, .withinNoise, .inconclusive]
        let shown = rows.filter { $0.change != nil && judged.contains($0.verdict) }
        let logs = shown.flatMap { row -> [Double] in
            let c = row.change!
            return [c.lower, c.upper, 1 + row.noiseBand].filter { $0 > 0 && $0.isFinite }.map {
                abs(Foundation.log($0))
            }
        }
        let extent = min(maxExtent, max(Foundation.log(1.1), (logs.max() ?? 0) * 1.08))
        let ticks = tickRatios.filter { abs(Foundation.log($0)) <= extent + 1e-9 }
        // Keep the labels apart: drop ticks closer than 1/12 of the axis to a kept one (0% always stays).
        var kept: [Double] = [1]
        for t in ticks.sorted(by: { abs(Foundation.log($0)) > abs(Foundation.log($1)) }) where t != 1 {
            if kept.allSatisfy({ abs(Foundation.log($0) - Foundation.log(t)) > extent / 6 }) { kept.append(t) }
        }
        return Layout(rows: shown, extent: extent, ticks: kept.sorted())
    }

    /// Where a ratio lies on the chart's symmetric log axis.
    struct Axis {
        /// The axis's left end (pixels).
        var left = 380.0
        /// Its width (pixels).
        var width = 420.0
        /// Its extent: |log ratio| at either end.
        var extent: Double

        /// The x of `ratio`, clamped to the axis.
        func x(_ ratio: Double) -> Double {
            let u = ratio > 0 ? Foundation.log(ratio) : -Double.infinity
            return left + (min(max(u, -extent), extent) + extent) / (2 * extent) * width
        }

        /// Whether `ratio` lies beyond the axis.
        func clipped(_ ratio: Double) -> Bool { !(ratio > 0) || abs(Foundation.log(ratio)) > extent }
    }

    /// Renders the judged rows with a ratio estimate as horizontal interval bars.
    /// - Parameters:
    ///   - rows: Comparison rows of one phase.
    ///   - title: The chart's title.
    /// - Returns: A self-contained SVG document.
    public static func changes(_ rows: [ComparisonRow], title: String) -> String {
        let layout = layout(rows)
        let rowHeight = 18.0, top = 58.0
        let height = top + Double(max(layout.rows.count, 1)) * rowHeight + 44
        let axis = Axis(extent: layout.extent)
        let axisBottom = height - 34
        var svg = legend(title: title, subtitle: subtitle(rows, shown: layout.rows))
        for tick in layout.ticks {
            let tx = axis.x(tick)
            svg.append(
                "<line class=\"tick\" x1=\"\(tx)\" y1=\"\(top - 10)\" x2=\"\(tx)\" y2=\"\(axisBottom)\" "
                    + "stroke=\"\(tick == 1 ? "#444" : "#d0d7de")\" stroke-width=\"\(tick == 1 ? 1 : 0.5)\"/>"
            )
            svg.append(
                "<text class=\"tick-label\" x=\"\(tx)\" y=\"\(axisBottom + 14)\" "
                    + "text-anchor=\"middle\">\(escape(tickLabel(tick)))</text>"
            )
        }
        if layout.rows.isEmpty {
            svg.append(
                "<text x=\"\(axis.left)\" y=\"\(top + 4)\" fill=\"#57606a\">no judged series in this phase</text>")
        }
        var longestLabel = 0
        for (i, row) in layout.rows.enumerated() {
            let (elements, label) = bar(row, y: top + Double(i) * rowHeight, axis: axis)
            svg += elements
            longestLabel = max(longestLabel, label.count)
        }
        // Wide enough for the longest value label (about 6.2 px a character at 11 px sans-serif).
        let chartWidth = Int(axis.left + axis.width + max(300, 24 + 6.2 * Double(longestLabel)))
        svg.insert(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(chartWidth)\" height=\"\(Int(height))\" "
                + "font-family=\"sans-serif\" font-size=\"11\">",
            at: 0)
        svg.append(
            "<text x=\"\(axis.left + axis.width / 2)\" y=\"\(height - 6)\" text-anchor=\"middle\" fill=\"#57606a\">"
                + "change (log scale; 0% = no change)</text>"
        )
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// What the bars are: a count's change per call (no interval), or a change with its CI level.
    package static func subtitle(_ rows: [ComparisonRow], shown: [ComparisonRow]) -> String {
        let levels = Set(rows.map { $0.confidence ?? 0.95 })
        let ciLabel = levels.count == 1 ? levels.first!.ciLabel : "CI (95% or its look's level)"
        // A simulated count has no interval (it does not vary between runs): its band is the count tolerance;
        // one that follows code addresses has its placements' interval.
        let counts = !shown.isEmpty && shown.allSatisfy(\.metric.isSimulated)
        let placed = shown.contains { $0.replicatedOver == .placements }
        return counts
            ? "change of the median per call ("
                + (placed ? "across placements: \(ciLabel)" : "a count: no interval") + "; band: the count tolerance)"
            : "change of the median with its \(ciLabel)"
    }

    /// The background, title and legend.
    static func legend(title: String, subtitle: String) -> [String] {
        [
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            "<text x=\"10\" y=\"18\" font-size=\"13\">\(escape(title)): \(escape(subtitle)) (log scale)</text>",
            "<rect x=\"10\" y=\"28\" width=\"14\" height=\"9\" fill=\"#eaeef2\"/><text x=\"28\" y=\"36\">"
                + "noise band</text>",
            "<line x1=\"100\" y1=\"32\" x2=\"118\" y2=\"32\" stroke=\"#cf222e\" stroke-width=\"2\"/><text x=\"122\" "
                + "y=\"36\">regressed</text>",
            "<line x1=\"190\" y1=\"32\" x2=\"208\" y2=\"32\" stroke=\"#1a7f37\" stroke-width=\"2\"/><text x=\"212\" "
                + "y=\"36\">improved</text>",
            "<line x1=\"275\" y1=\"32\" x2=\"293\" y2=\"32\" stroke=\"#57606a\" stroke-width=\"2\"/><text x=\"297\" "
                + "y=\"36\">within noise or inconclusive</text>",
            "<text x=\"470\" y=\"36\" fill=\"#57606a\">▸ bound beyond the axis, value printed</text>",
        ]
    }

    /// One row's band, name, interval, estimate and value label (with arrows where a bound lies
    /// beyond the axis, and then the whole interval printed).
    static func bar(_ row: ComparisonRow, y: Double, axis: Axis) -> (elements: [String], label: String) {
        let c = row.change!
        let color = row.verdict == .regressed ? "#cf222e" : (row.verdict == .improved ? "#1a7f37" : "#57606a")
        let name = "\(row.phase) · \(row.metric.name) · \(row.id.testName) \(row.measurement) [\(row.arm)]"
        var svg = [
            "<rect x=\"\(axis.x(1 - row.noiseBand))\" y=\"\(y - 6)\" "
                + "width=\"\(axis.x(1 + row.noiseBand) - axis.x(1 - row.noiseBand))\" height=\"12\" fill=\"#eaeef2\"/>",
            "<text x=\"10\" y=\"\(y + 4)\">\(escape(truncated(name, 62)))</text>",
            "<line x1=\"\(axis.x(c.lower))\" y1=\"\(y)\" x2=\"\(axis.x(c.upper))\" y2=\"\(y)\" stroke=\"\(color)\" "
                + "stroke-width=\"2\"/>",
            "<circle cx=\"\(axis.x(c.value))\" cy=\"\(y)\" r=\"3\" fill=\"\(color)\"/>",
        ]
        var label = MarkdownReport.percent(c.value)
        let beyond = [c.lower, c.value, c.upper].filter(axis.clipped)
        if !beyond.isEmpty {
            if beyond.contains(where: { $0 > 0 && Foundation.log($0) > 0 }) {
                svg.append(
                    "<text class=\"clipped\" x=\"\(axis.left + axis.width + 1)\" y=\"\(y + 4)\" "
                        + "fill=\"\(color)\">▸</text>")
            }
            if beyond.contains(where: { !($0 > 0) || Foundation.log($0) < 0 }) {
                svg.append("<text class=\"clipped\" x=\"\(axis.left - 9)\" y=\"\(y + 4)\" fill=\"\(color)\">◂</text>")
            }
            label += " (CI \(MarkdownReport.percent(c.lower)) … \(MarkdownReport.percent(c.upper)), beyond the axis)"
        }
        svg.append(
            "<text x=\"\(axis.left + axis.width + 12)\" y=\"\(y + 4)\" fill=\"\(color)\">\(escape(label))</text>")
        return (svg, label)
    }

    /// A tick's label: a signed percentage, 0% for no change.
    static func tickLabel(_ ratio: Double) -> String {
        if ratio == 1 { return "0%" }
        let value = (ratio - 1) * 100
        return (value > 0 ? "+" : "")
            + (abs(value) >= 10 ? String(format: "%.0f%%", value) : String(format: "%g%%", (value * 10).rounded() / 10))
    }

    static func truncated(_ s: String, _ limit: Int) -> String {
        s.count <= limit ? s : String(s.prefix(limit - 1)) + "…"
    }

    /// Escapes text for SVG, XML and HTML (element text and quoted attributes alike).
    public static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: ">", with: "&gt;"
        ).replacingOccurrences(of: "\"", with: "&quot;")
    }
}
