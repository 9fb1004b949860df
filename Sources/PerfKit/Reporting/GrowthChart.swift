import Foundation
import PerfKitCore

/// A small log–log chart of one metric's cost against size for one test function.
///
/// One line per side (baseline grey, current blue), a point per size, the named growth in the legend.
public enum GrowthChart {
    /// Renders the chart.
    /// - Parameters:
    ///   - title: The chart's title (the function).
    ///   - subtitle: A second line under it (the series: measurement, arm, phase, metric), if any.
    ///   - sides: Each side's name and fit (the baseline first, if any).
    ///   - unit: The cost's unit, for the axis.
    /// - Returns: A self-contained SVG document, wide enough for its title and subtitle.
    public static func svg(
        title: String, subtitle: String? = nil, sides: [(name: String, fit: GrowthFit)], unit: String
    ) -> String {
        let left = 70.0, right = 20.0, top = subtitle == nil ? 36.0 : 50.0, bottom = 46.0
        // About 7.8 px a character of the 12 px bold title, 6.6 of the 11 px subtitle.
        let width = max(560, left + max(7.8 * Double(title.count), 6.6 * Double(subtitle?.count ?? 0)) + right)
        let height = 224 + top
        let points = sides.flatMap { $0.fit.points }
        guard let minSize = points.map(\.size).min(), let maxSize = points.map(\.size).max(),
            let minCost = points.map(\.cost).min(), let maxCost = points.map(\.cost).max(), minSize > 0, minCost > 0
        else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>" }
        let (lx0, lx1) = (log10(minSize), log10(maxSize) + (maxSize == minSize ? 1 : 0))
        let (ly0, ly1) = (log10(minCost) - 0.1, log10(maxCost) + 0.1)
        func x(_ n: Double) -> Double { left + (log10(n) - lx0) / (lx1 - lx0) * (width - left - right) }
        func y(_ c: Double) -> Double { height - bottom - (log10(c) - ly0) / (ly1 - ly0) * (height - top - bottom) }
        let colours = sides.count > 1 ? ["#888888", "#1f5fbf"] : ["#1f5fbf"]
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
                + "font-family=\"sans-serif\" font-size=\"11\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            "<text x=\"\(Int(left))\" y=\"16\" font-size=\"12\" font-weight=\"bold\">\(escape(title))</text>",
            subtitle.map { "<text x=\"\(Int(left))\" y=\"31\" font-size=\"11\">\(escape($0))</text>" } ?? "",
            line(left, height - bottom, width - right, height - bottom), line(left, top, left, height - bottom),
            "<text x=\"\(Int((left + width - right) / 2))\" y=\"\(Int(height - 8))\" text-anchor=\"middle\">"
                + "size (log scale)</text>",
            "<text x=\"14\" y=\"\(Int((top + height - bottom) / 2))\" transform=\"rotate(-90 14 "
                + "\(Int((top + height - bottom) / 2)))\" text-anchor=\"middle\">\(escape(unit)) per call (log)</text>",
        ]
        for size in Set(points.map(\.size)).sorted() {
            svg.append(
                "<text x=\"\(f(x(size)))\" y=\"\(Int(height - bottom + 14))\" "
                    + "text-anchor=\"middle\">\(Growth.size(size))</text>"
            )
        }
        for c in ticks(from: ly0, to: ly1) {
            svg.append(line(left - 4, y(c), left, y(c)))
            svg.append("<text x=\"\(Int(left - 6))\" y=\"\(f(y(c) + 4))\" text-anchor=\"end\">\(compact(c))</text>")
        }
        for (k, side) in sides.enumerated() {
            let colour = colours[min(k, colours.count - 1)]
            let path = side.fit.points.map { "\(f(x($0.size))),\(f(y($0.cost)))" }.joined(separator: " ")
            svg.append("<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"/>")
            for p in side.fit.points {
                svg.append("<circle cx=\"\(f(x(p.size)))\" cy=\"\(f(y(p.cost)))\" r=\"3\" fill=\"\(colour)\"/>")
            }
            let ly = top + 4 + Double(k) * 14
            svg.append(line(left + 10, ly, left + 30, ly, colour: colour, width: 2))
            svg.append(
                "<text x=\"\(Int(left + 36))\" y=\"\(f(ly + 4))\">\(escape(side.name)): \(escape(side.fit.name))</text>"
            )
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    private static func line(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, colour: String = "#333333", width: Double = 1
    ) -> String {
        "<line x1=\"\(f(x1))\" y1=\"\(f(y1))\" x2=\"\(f(x2))\" y2=\"\(f(y2))\" stroke=\"\(colour)\" "
            + "stroke-width=\"\(f(width))\"/>"
    }

    private static func f(_ v: Double) -> String { String(format: "%.1f", v) }

    /// The cost axis's ticks between 10^`low` and 10^`high`.
    ///
    /// Each decade over more than three decades, else 1, 2 and 5 of each, or every digit when that leaves fewer than
    /// three (a chart within one decade still has labels).
    package static func ticks(from low: Double, to high: Double) -> [Double] {
        let decades = Int(floor(low))...Int(ceil(high))
        let sets: [[Double]] = high - low > 3 ? [[1]] : [[1, 2, 5], Array(stride(from: 1.0, through: 9, by: 1))]
        for mantissas in sets {
            let ticks = decades.flatMap { e in mantissas.map { $0 * pow(10, Double(e)) } }
                .filter { log10($0) >= low && log10($0) <= high }
            if ticks.count >= 3 || mantissas.count != 3 { return ticks }
        }
        return []
    }

    /// A tick's value in few characters: `500`, `20k`, `1.5M`.
    package static func compact(_ v: Double) -> String {
        for (scale, suffix) in [(1e9, "G"), (1e6, "M"), (1e3, "k")] where v >= scale {
            return String(format: "%g", (v / scale * 10).rounded() / 10) + suffix
        }
        return String(format: "%g", v)
    }

    private static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
