import Foundation
import PerfKit
import PerfKitHistory
import Testing

/// Growth along a branch.
///
/// Each commit's sized cases fitted, and a commit whose count grows differently from the commit before named (`history
/// show`'s growth lines).
@Suite struct HistoryGrowthTests {
    static let sizes: [Double] = [100, 1000, 10_000, 100_000]

    /// One commit's sized entries of `Suite/f(n:)`: `cost(n)` instructions per call at each size.
    static func commit(_ n: Int, machine: String = "m1", cost: (Double) -> Double) -> [HistoryEntry] {
        sizes.map { size in
            HistoryEntry(
                machine: machine, commit: ChangePointTests.commit(n),
                series: SeriesID(
                    test: "M.S/f(n:) n = \(Int(size))", measurement: "f", arm: "main", phase: .warm,
                    metric: "instructions"),
                unit: "instructions", kind: .componentCost, measure: .simulatedCount, value: cost(size),
                lower: cost(size), upper: cost(size), processes: 1, recorded: Date(timeIntervalSince1970: 0),
                caseSize: CaseSize(function: "M.S/f(n:)", size: size))
        }
    }

    @Test func aCommitThatMakesAFunctionQuadraticIsNamedWithItsRatioAtTheLargestSize() throws {
        let linear: (Double) -> Double = { 500 + 40 * $0 }
        let quadratic: (Double) -> Double = { 500 + 40 * $0 + 0.5 * $0 * $0 }
        let entries =
            Self.commit(1, cost: linear) + Self.commit(2, cost: linear) + Self.commit(3, cost: quadratic)
            + Self.commit(4, cost: quadratic)
        let changes = HistoryGrowth.changes(entries)
        try #require(changes.count == 1)
        #expect(changes[0].commit == ChangePointTests.commit(3))
        #expect(changes[0].previous == ChangePointTests.commit(2))
        #expect(changes[0].change.before.order == .linear)
        #expect(changes[0].change.after.order == .quadratic)
        #expect(changes[0].change.isFaster)
        #expect(changes[0].change.largest.size == 100_000)
        #expect(abs(changes[0].change.largest.ratio - quadratic(100_000) / linear(100_000)) < 1e-9)
        // Judged at the newest commit only: commit 3's change is old news at commit 4.
        #expect(HistoryGrowth.fasterAtNewestCommit(changes, entries: entries).isEmpty)
        let newest = entries.filter { $0.commit.position <= 3 }
        #expect(HistoryGrowth.fasterAtNewestCommit(HistoryGrowth.changes(newest), entries: newest).count == 1)
    }

    @Test func theSameRatioAtEverySizeIsNoGrowthChangeAndMachinesAreKeptApart() {
        let entries =
            Self.commit(1, cost: { 40 * $0 }) + Self.commit(2, cost: { 48 * $0 })
            + Self.commit(1, machine: "m2", cost: { 40 * $0 })
            + Self.commit(2, machine: "m3", cost: { 0.5 * $0 * $0 })
        #expect(HistoryGrowth.changes(entries).isEmpty)
    }

    @Test func theTextReportSaysWhichCommitChangedTheGrowth() {
        let entries = Self.commit(1, cost: { 40 * $0 }) + Self.commit(2, cost: { 0.5 * $0 * $0 })
        let histories = ChangePointDetector().histories(entries)
        let lines = HistoryReport.text(histories, growth: HistoryGrowth.changes(entries))
        let growthLines = lines.filter { $0.contains("growth changed") }
        #expect(growthLines.count == 1)
        #expect(growthLines.first?.hasPrefix("  growth changed: commit 2 ") == true)
        let markdown = HistoryReport.markdown(histories, growth: HistoryGrowth.changes(entries), charts: [:])
        #expect(markdown.contains("**Growth changed**"))
    }
}
