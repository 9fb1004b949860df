import Foundation
import PerfKit

/// An SVG trend of one series over the branch.
///
/// One point per recorded commit (a timing point with its 95% interval), change points marked by a dashed line at the
/// first commit of the new level.
public enum TrendChart {
    /// Renders a series' history.
    /// - Parameter history: The series.
    /// - Returns: A self-contained SVG document.
    public static func svg(_ history: SeriesHistory) -> String {
        let top = 48.0, width = 640.0, height = 220.0
        let entries = history.entries
        let low = entries.map(\.lower).min() ?? 0, high = entries.map(\.upper).max() ?? 1
        let pad = max((high - low) * 0.08, abs(high) * 0.002, 1e-9)
        let (yMin, yMax) = (low - pad, high + pad)
        let labels = (0...4).map { Format.value(yMin + (yMax - yMin) * Double($0) / 4, history.unit) }
        // Room for the longest axis label (about 6.2 px a character at 11 px sans-serif).
        let left = max(90, 16 + 6.2 * Double(labels.map(\.count).max() ?? 0))
        let first = entries.first?.commit.position ?? 0, last = entries.last?.commit.position ?? 1
        func x(_ position: Int) -> Double {
            left + (last == first ? width / 2 : Double(position - first) / Double(last - first) * width)
        }
        func y(_ v: Double) -> Double { top + (1 - (v - yMin) / (yMax - yMin)) * height }
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(left + width + 40))\" "
                + "height=\"\(Int(top + height + 50))\" font-family=\"sans-serif\" font-size=\"11\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            "<text x=\"10\" y=\"18\" font-size=\"13\">\(SVGChart.escape(HistoryReport.name(history.series)))</text>",
            "<text x=\"10\" y=\"34\" fill=\"#57606a\">\(SVGChart.escape(HistoryReport.nature(history))); machine "
                + "\(SVGChart.escape(history.machine)); dashed: change point</text>",
        ]
        for k in 0...4 {
            let v = yMin + (yMax - yMin) * Double(k) / 4
            svg.append(
                "<line x1=\"\(left)\" y1=\"\(y(v))\" x2=\"\(left + width)\" y2=\"\(y(v))\" stroke=\"#d0d7de\" "
                    + "stroke-width=\"0.5\"/>"
            )
            svg.append(
                "<text x=\"\(left - 6)\" y=\"\(y(v) + 4)\" text-anchor=\"end\">\(SVGChart.escape(labels[k]))</text>")
        }
        svg += marks(history, top: top, height: height, x: x, y: y)
        let axis = top + height
        svg.append("<line x1=\"\(left)\" y1=\"\(axis)\" x2=\"\(left + width)\" y2=\"\(axis)\" stroke=\"#444\"/>")
        for entry in entries
        where entry.commit.position == first || entry.commit.position == last || entry.commit.position % 5 == 0 {
            svg.append(
                "<text x=\"\(x(entry.commit.position))\" y=\"\(axis + 14)\" "
                    + "text-anchor=\"middle\">\(entry.commit.position)</text>"
            )
        }
        svg.append(
            "<text x=\"\(left + width / 2)\" y=\"\(axis + 34)\" text-anchor=\"middle\" fill=\"#57606a\">commit "
                + "(position on the branch)</text>"
        )
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// The change points (dashed, labelled), the trend line and each commit's point with its interval.
    static func marks(
        _ history: SeriesHistory, top: Double, height: Double, x: (Int) -> Double, y: (Double) -> Double
    ) -> [String] {
        var svg: [String] = []
        let entries = history.entries
        for change in history.changes {
            let cx = (x(change.commit.position) + x(change.previous.position)) / 2
            svg.append(
                "<line x1=\"\(cx)\" y1=\"\(top - 6)\" x2=\"\(cx)\" y2=\"\(top + height)\" stroke=\"#cf222e\" "
                    + "stroke-dasharray=\"4 3\"/>"
            )
            svg.append(
                "<text x=\"\(cx + 4)\" y=\"\(top + 4)\" "
                    + "fill=\"#cf222e\">\(SVGChart.escape("commit \(change.commit.position): \(MarkdownReport.percent(change.ratio.value))"))</text>"
            )
        }
        let path = entries.map { "\(x($0.commit.position)),\(y($0.value))" }.joined(separator: " ")
        svg.append("<polyline points=\"\(path)\" fill=\"none\" stroke=\"#0969da\" stroke-width=\"1.5\"/>")
        for entry in entries {
            if entry.upper > entry.lower {
                svg.append(
                    "<line x1=\"\(x(entry.commit.position))\" y1=\"\(y(entry.lower))\" "
                        + "x2=\"\(x(entry.commit.position))\" y2=\"\(y(entry.upper))\" stroke=\"#0969da\" "
                        + "stroke-opacity=\"0.4\"/>"
                )
            }
            svg.append(
                "<circle cx=\"\(x(entry.commit.position))\" cy=\"\(y(entry.value))\" r=\"2.5\" fill=\"#0969da\"/>")
        }
        return svg
    }
}
