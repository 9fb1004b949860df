import Foundation
import PerfKitCore

/// A differential flame graph of one changed count series: both sides' call stacks merged into one tree, drawn by
/// PerfKit as SVG.
///
/// Each frame is as wide as the larger of its two sides' inclusive cost (so work that went away still shows), red
/// where it grew and blue where it shrank, the colour's strength the share of the frame that changed; every frame's
/// title names the function and both sides' figures. Read from ``CountProfile/stacks`` (folded stacks), or from a
/// flat list (allocation call sites) as one level under the series.
public struct FlameGraph: Sendable {
    /// One frame of the merged tree.
    struct Frame {
        var name: String
        var before = 0.0
        var after = 0.0
        var children: [String: Int] = [:]
        var order: [Int] = []
    }

    /// The frames; 0 is the root.
    var frames: [Frame] = [Frame(name: "all")]
    /// The figure's title and unit.
    public var title: String
    /// What a figure counts (`instructions`, `allocator calls`).
    public var unit: String

    /// The graph of two sides' folded stacks (`a;b;c` → own cost per call).
    public init(title: String, unit: String, before: [CountProfile.Entry], after: [CountProfile.Entry]) {
        self.title = title
        self.unit = unit
        for (entries, isAfter) in [(before, false), (after, true)] {
            for entry in entries { add(entry.function.split(separator: ";").map(String.init), entry.value, isAfter) }
        }
    }

    private mutating func add(_ path: [String], _ value: Double, _ isAfter: Bool) {
        var node = 0
        if isAfter { frames[0].after += value } else { frames[0].before += value }
        for name in path {
            let next: Int
            if let known = frames[node].children[name] {
                next = known
            } else {
                frames.append(Frame(name: name))
                next = frames.count - 1
                frames[node].children[name] = next
                frames[node].order.append(next)
            }
            if isAfter { frames[next].after += value } else { frames[next].before += value }
            node = next
        }
    }

    /// The folded text of one side (`a;b;c 123` per line), as flamegraph.pl and speedscope read it.
    public static func folded(_ stacks: [CountProfile.Entry]) -> String {
        stacks.map { "\($0.function) \(Int($0.value.rounded()))" }.joined(separator: "\n") + "\n"
    }

    /// The SVG.
    public var svg: String {
        let width = 1200.0, row = 17.0, top = 44.0
        var rects: [String] = []
        var deepest = 0
        func layout(_ index: Int, x: Double, scale: Double, depth: Int) {
            let frame = frames[index]
            let size = max(frame.before, frame.after)
            let w = size * scale
            guard w >= 0.5 else { return }
            deepest = max(deepest, depth)
            let y = top + Double(depth) * row
            let delta = frame.after - frame.before
            let share = size > 0 ? min(1, abs(delta) / size) : 0
            let fill =
                delta > 0
                ? Self.color(red: true, share) : delta < 0 ? Self.color(red: false, share) : "rgb(221,221,221)"
            let side =
                frame.before == 0 ? " (after only)" : frame.after == 0 ? " (before only)" : ""
            let title =
                "\(frame.name)\(side): \(Self.number(frame.before)) → \(Self.number(frame.after)) \(unit) a call "
                + "(\(delta >= 0 ? "+" : "−")\(Self.number(abs(delta))))"
            var rect =
                "<g><title>\(Self.escaped(title))</title><rect x=\"\(Self.fixed(x))\" y=\"\(Self.fixed(y))\" "
                + "width=\"\(Self.fixed(max(w - 0.5, 0.5)))\" height=\"\(row - 1)\" fill=\"\(fill)\" rx=\"2\"/>"
            let characters = Int((w - 6) / 6.2)
            if characters >= 3 {
                let label = frame.name.count > characters ? String(frame.name.prefix(characters - 1)) + "…" : frame.name
                rect +=
                    "<text x=\"\(Self.fixed(x + 3))\" y=\"\(Self.fixed(y + row - 5))\">\(Self.escaped(label))</text>"
            }
            rects.append(rect + "</g>")
            var offset = x
            for child in frame.order.sorted(by: { frames[$0].name < frames[$1].name }) {
                layout(child, x: offset, scale: scale, depth: depth + 1)
                offset += max(frames[child].before, frames[child].after) * scale
            }
        }
        let rootSize = max(frames[0].before, frames[0].after)
        if rootSize > 0 { layout(0, x: 10, scale: (width - 20) / rootSize, depth: 0) }
        let height = top + Double(deepest + 1) * row + 24
        let total = frames[0].after - frames[0].before
        let caption =
            "\(title): \(Self.number(frames[0].before)) → \(Self.number(frames[0].after)) \(unit) a call "
            + "(\(total >= 0 ? "+" : "−")\(Self.number(abs(total)))); red grew, blue shrank, width the larger side"
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="10" y="18" font-size="14" font-weight="bold">\(Self.escaped(title))</text>
            <text x="10" y="34" fill="#57606a">\(Self.escaped(caption))</text>
            \(rects.joined(separator: "\n"))
            </svg>

            """
    }

    /// Red for growth, blue for shrinkage, stronger as more of the frame changed.
    static func color(red: Bool, _ share: Double) -> String {
        let strength = 0.25 + 0.75 * share
        let faded = Int((255 - 200 * strength).rounded())
        return red ? "rgb(235,\(faded),\(faded))" : "rgb(\(faded),\(faded),235)"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? Format.grouped(value) : String(format: "%.1f", value)
    }

    static func fixed(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escaped(_ text: String) -> String {
        SVGChart.escape(text)
    }
}

extension WhereItWent {
    /// A differential flame graph per changed count series with stacks on both sides, and of its allocation sites.
    ///
    /// The allocation call sites' graph only where they changed; in entry order.
    public func flameGraphs(baseline: [TestResult], current: [TestResult]) -> [FlameGraph] {
        let before = SeriesTable(baseline), after = SeriesTable(current)
        var graphs: [FlameGraph] = []
        for entry in entries {
            guard let b = before.series[entry.id]?.profile, let c = after.series[entry.id]?.profile else { continue }
            if let x = b.stacks, let y = c.stacks {
                graphs.append(FlameGraph(title: entry.id.description, unit: "instructions", before: x, after: y))
            }
            if !entry.allocations.isEmpty {
                graphs.append(
                    FlameGraph(
                        title: entry.id.description + " (allocator calls by call site)", unit: "allocator calls",
                        before: b.allocationCalls, after: c.allocationCalls))
            }
        }
        return graphs
    }
}
