import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Differential flame graphs, drawn by PerfKit.
@Suite struct FlameGraphTests {
    static let before = [
        CountProfile.Entry(function: "body;parse", value: 100),
        CountProfile.Entry(function: "body;parse;copy", value: 50),
        CountProfile.Entry(function: "body", value: 10),
    ]
    static let after = [
        CountProfile.Entry(function: "body;parse", value: 100),
        CountProfile.Entry(function: "body;parse;copy", value: 80),
        CountProfile.Entry(function: "body;stackBuffer", value: 5), CountProfile.Entry(function: "body", value: 10),
    ]

    @Test func framesAreTitledWithBothSidesAndColouredByDirection() {
        let graph = FlameGraph(
            title: "S/t() m [main, warm] instructions", unit: "instructions", before: Self.before,
            after: Self.after)
        let svg = graph.svg
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("<title>copy: 50 → 80 instructions a call (+30)</title>"))
        #expect(svg.contains("<title>stackBuffer (after only): 0 → 5 instructions a call (+5)</title>"))
        #expect(svg.contains("<title>body: 160 → 195 instructions a call (+35)</title>"))
        #expect(svg.contains("fill=\"rgb(235,"))  // a frame that grew
        let shrunk = FlameGraph(title: "t", unit: "instructions", before: Self.after, after: Self.before).svg
        #expect(shrunk.contains("fill=\"rgb(") && shrunk.contains(",235)\""))  // one that shrank
        #expect(shrunk.contains("stackBuffer (before only)"))
    }

    @Test func foldedStacksAreOnePathAndCountALine() {
        #expect(FlameGraph.folded(Self.before) == "body;parse 100\nbody;parse;copy 50\nbody 10\n")
    }

    /// A hostile function name stays text in the SVG.
    @Test func namesAreEscaped() {
        let svg = FlameGraph(
            title: "<t>", unit: "instructions", before: [.init(function: "a<b>&\"c", value: 1)],
            after: [.init(function: "a<b>&\"c", value: 2)]
        ).svg
        #expect(!svg.contains("a<b>") && svg.contains("a&lt;b&gt;&amp;&quot;c"))
    }
}
