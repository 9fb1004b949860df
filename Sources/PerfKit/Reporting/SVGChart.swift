import Foundation

/// An SVG chart of the change of each statistical series in one phase, with its 95% CI and the noise band.
public enum SVGChart {
    /// Renders rows with a ratio estimate as horizontal interval bars on a percentage axis.
    public static func changes(_ rows: [ComparisonRow], title: String) -> String {
        let shown = rows.filter { $0.change != nil }
        let rowHeight = 18.0, left = 360.0, width = 360.0, top = 40.0
        let height = top + Double(max(shown.count, 1)) * rowHeight + 30
        let extent = max(0.1, shown.map { max(abs($0.change!.lower - 1), abs($0.change!.upper - 1)) }.filter(\.isFinite).max() ?? 0.1) * 1.1
        func x(_ ratio: Double) -> Double { left + (min(max(ratio - 1, -extent), extent) + extent) / (2 * extent) * width }
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(left + width + 120))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"11\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            "<text x=\"10\" y=\"20\" font-size=\"13\">\(escape(title)) — change of median with 95% CI (shaded: noise band)</text>",
            "<line x1=\"\(x(1))\" y1=\"\(top - 8)\" x2=\"\(x(1))\" y2=\"\(height - 24)\" stroke=\"#888\" stroke-width=\"0.5\"/>",
        ]
        for (i, row) in shown.enumerated() {
            let y = top + Double(i) * rowHeight
            let c = row.change!
            let color = row.verdict == .regressed ? "#cf222e" : (row.verdict == .improved ? "#1a7f37" : "#57606a")
            svg.append(
                "<rect x=\"\(x(1 - row.noiseBand))\" y=\"\(y - 6)\" width=\"\(x(1 + row.noiseBand) - x(1 - row.noiseBand))\" height=\"12\" fill=\"#eaeef2\"/>")
            svg.append(
                "<text x=\"10\" y=\"\(y + 4)\">\(escape("\(row.test.split(separator: "/").last ?? "") \(row.measurement) [\(row.arm)] \(row.metric.name)"))</text>"
            )
            svg.append("<line x1=\"\(x(c.lower))\" y1=\"\(y)\" x2=\"\(x(c.upper))\" y2=\"\(y)\" stroke=\"\(color)\" stroke-width=\"2\"/>")
            svg.append("<circle cx=\"\(x(c.value))\" cy=\"\(y)\" r=\"3\" fill=\"\(color)\"/>")
            svg.append("<text x=\"\(left + width + 8)\" y=\"\(y + 4)\" fill=\"\(color)\">\(escape(MarkdownReport.percent(c.value)))</text>")
        }
        svg.append("<text x=\"\(left)\" y=\"\(height - 8)\">\(escape(MarkdownReport.percent(1 - extent)))</text>")
        svg.append("<text x=\"\(left + width - 40)\" y=\"\(height - 8)\">\(escape(MarkdownReport.percent(1 + extent)))</text>")
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// Escapes text for SVG and XML.
    public static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
