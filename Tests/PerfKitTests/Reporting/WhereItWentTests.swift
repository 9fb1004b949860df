import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// "Where it went" adds up: exclusive changes, the other functions and what the count leaves out make the change.
@Suite struct WhereItWentTests {
    /// A body that builds a temporary array through a helper (`makeTemp`, which mallocs) and sums it.
    static let withTemporary = """
        events: Ir
        fn=(1) $s3App4bodyyyF
        1 100
        cfn=(2) $s3App8makeTempyyF
        calls=1 0
        2 300
        cfn=(3) $s3App3sumyyF
        calls=1 0
        3 50
        cfn=(5) perfkit_count_end
        calls=1 0
        4 9
        fn=(2)
        5 100
        cfn=(4) malloc
        calls=1 0
        6 200
        fn=(4)
        7 200
        fn=(3)
        8 50
        fn=(5)
        9 9
        totals: 459
        """

    /// The same body after the change: the helper inlined into the body, its array on the stack, no malloc.
    static let onTheStack = """
        events: Ir
        fn=(1) $s3App4bodyyyF
        1 160
        cfn=(3) $s3App3sumyyF
        calls=1 0
        3 50
        cfn=(5) perfkit_count_end
        calls=1 0
        4 9
        fn=(3)
        8 50
        fn=(5)
        9 9
        totals: 219
        """

    static func profile(_ text: String) -> CountProfile {
        let dump = CallgrindDump(parsing: text)
        return CallgrindDump.profile([dump, dump], demangle: ["$s3App4bodyyyF": "App.body()"])
    }

    /// A change that removes a temporary allocation adds up, and no function is shown to grow.
    ///
    /// The helper inlined on one side is matched to its caller, and the parts add up to the count's change exactly.
    @Test func removingATemporaryAllocationAddsUpAndGrowsNothing() throws {
        let before = Self.profile(Self.withTemporary), after = Self.profile(Self.onTheStack)
        #expect(before.leftOut == 9 && after.leftOut == 9)
        let attribution = try #require(CountProfile.attribution(before, after))
        #expect(attribution.total == 210 - 450)
        let body = try #require(attribution.changes.first { $0.function == "App.body()" })
        #expect(body.absorbed == ["$s3App8makeTempyyF"])
        #expect(body.baseline == 200 && body.current == 160)
        #expect(attribution.changes.allSatisfy { $0.delta <= 0 }, "\(attribution.changes)")
        #expect(attribution.changes.map(\.function).contains("malloc"))
        #expect(!attribution.changes.contains { $0.function == "$s3App8makeTempyyF" })
        let sum = attribution.changes.reduce(0) { $0 + $1.delta } + attribution.otherFunctions - attribution.leftOut
        #expect(sum == attribution.total)
    }

    /// Inlining that moved between two functions on each side folds into their common caller, whatever the order.
    ///
    /// On one side a closure keeps `checksum` inlined and calls `widen`; on the other it keeps nothing of its own and
    /// calls `checksum`, which inlined `widen`. The closure then carries all three, one change, not three.
    @Test func inliningThatMovedFoldsIntoTheCommonCaller() throws {
        func profile(_ entries: [CountProfile.Entry]) -> CountProfile {
            var profile = CountProfile(inclusive: [], allocationCalls: [], samples: 1)
            profile.exclusive = entries
            profile.otherExclusive = 0
            profile.leftOut = 0
            return profile
        }
        let before = profile([
            .init(function: "widen", value: 8_328, caller: "closure"), .init(function: "closure", value: 2_580),
            .init(function: "run", value: 1_000),
        ])
        let after = profile([
            .init(function: "checksum", value: 5_436, caller: "closure"), .init(function: "run", value: 1_000),
        ])
        let attribution = try #require(CountProfile.attribution(before, after))
        #expect(attribution.changes.count == 1)
        let closure = try #require(attribution.changes.first)
        #expect(closure.function == "closure" && Set(closure.absorbed) == ["widen", "checksum"])
        #expect(closure.delta == 5_436 - 8_328 - 2_580 && attribution.total == closure.delta)
    }

    /// A small function past the list's first 60 stays listed when it holds at least 0.1% of the instructions.
    @Test func aSmallFunctionAboveTheFloorIsListedPastTheFirstSixty() {
        let blocks = (0..<70).map { "fn=(\($0 + 10)) f\($0)\n1 1000" }.joined(separator: "\n")
        let text = "events: Ir\n" + blocks + "\nfn=(9) extraWork\n1 150\nfn=(8) tiny\n1 20\ntotals: 70170\n"
        let profile = CallgrindDump.profile([CallgrindDump(parsing: text)], demangle: [:])
        let names = profile.exclusive?.map(\.function) ?? []
        #expect(names.count == 71 && names.contains("extraWork") && !names.contains("tiny"))
        #expect(profile.otherExclusive == 20)
    }

    /// A 1% change in one function: the exclusive list names it and the report's sum is the series' change.
    @Test func aOnePercentChangeIsNamedAndTheTableAddsUp() throws {
        let before = Self.profile(Self.withTemporary)
        let after = Self.profile(
            Self.withTemporary.replacingOccurrences(of: "8 50", with: "8 54").replacingOccurrences(
                of: "3 50", with: "3 54"
            )
            .replacingOccurrences(of: "totals: 459", with: "totals: 463"))
        let attribution = try #require(CountProfile.attribution(before, after))
        #expect(attribution.changes.map(\.function) == ["$s3App3sumyyF"])
        #expect(attribution.total == 4)
        let entry = WhereItWent.Entry(
            id: SeriesID(test: "S/t()", measurement: "m", arm: "main", phase: .warm, metric: "instructions"),
            verdict: .regressed, ratio: 454 / 450, attribution: attribution, seriesChange: 4,
            functions: [], allocations: [])
        let table = WhereItWent.exclusiveTable(entry)
        #expect(table.contains { $0.hasPrefix("| `$s3App3sumyyF` | 50 → 54 | +4 |") })
        #expect(table.contains("| **sum** | | **+4** |"))
        #expect(!table.contains { $0.hasPrefix("Not attributed") })
    }
}
