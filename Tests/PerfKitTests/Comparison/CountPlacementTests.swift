import Foundation
import PerfKit
import PerfKitTestSupport
import Testing

/// Counts that follow code addresses.
///
/// Judged from their placements' medians, as a timing series is from its processes, never against the spread of two
/// values.
@Suite struct CountPlacementTests {
    /// A counting run's result with one process per entry of `placements`, each with two samples.
    ///
    /// A counting run's result whose count series has one process per entry of `placements`, each
    /// with two samples (the process's first, one sample more, and one after it).
    static func run(_ placements: [Double]) -> [TestResult] {
        var series = SampleSeries(metric: .instructions, arm: "main", phase: .warm)
        var processes: [Int] = []
        for (process, value) in placements.enumerated() {
            for k in 0..<2 {
                series.append(value + Double(k), round: k, position: 0, index: k)
                processes.append(process)
            }
        }
        series.processes = processes
        return [
            TestResult(
                id: "S/t()", suite: "S",
                measurements: [
                    MeasurementResult(name: "m", arms: ["main"], order: [], series: [series], unavailable: [])
                ])
        ]
    }

    static func row(_ baseline: [Double], _ current: [Double]) throws -> ComparisonRow {
        try Comparison(
            baseline: run(baseline), current: run(current), baselineEnvironment: SimulatedCountTests.counted(),
            currentEnvironment: SimulatedCountTests.counted()
        ).rows[0]
    }

    /// The calendar playback's spread: its counts at five placements, about ±1.3% apart (seeded).
    static func placements(_ seed: UInt64, scale: Double = 1) -> [Double] {
        var generator = SeededGenerator(seed: seed)
        return (0..<5).map { _ in
            (2_740_000 * (1 + Double.random(in: -0.013...0.013, using: &generator))).rounded() * scale
        }
    }

    /// Rendering: the note of a count judged from its placements says why.
    @Test func theNoteOfACountJudgedFromPlacementsSaysWhy() throws {
        let same = try Self.row(Self.placements(1), Self.placements(2))
        #expect(same.note.hasPrefix("simulated count that follows code addresses"))
    }

    @Test func aCountThatMovesBetweenPlacementsIsJudgedFromThem() throws {
        let same = try Self.row(Self.placements(1), Self.placements(2))
        #expect(same.replicatedOver == .placements)
        #expect(same.verdict != .regressed && same.verdict != .improved, "\(same.note)")
        let slower = try Self.row(Self.placements(1), Self.placements(2, scale: 1.05))
        #expect(slower.verdict == .regressed, "\(slower.note)")
        let faster = try Self.row(Self.placements(3), Self.placements(4, scale: 0.95))
        #expect(faster.verdict == .improved, "\(faster.note)")
    }

    @Test func twoBuildsOfOneLayoutAreIdenticalAndPlacementsAreComparedPlacementByPlacement() throws {
        let placements = Self.placements(5)
        let identical = try Self.row(placements, placements)
        #expect(identical.verdict == .unchanged)
        #expect(identical.replicatedOver == nil)
        // Two processes a side whose placements count apart: each placement moved the same way, beyond the one
        // instruction its samples vary by, so the change is a verdict, not widened away.
        let two = try Self.row([1_000_000, 1_010_000], [1_004_000, 1_012_000])
        #expect(two.replicatedOver == nil)
        #expect(two.verdict == .regressed)
        #expect(two.difference?.lower == 2_000 && two.difference?.upper == 4_000)
        // Placements that moved apart, too few to be a distribution: inconclusive, saying so.
        let apart = try Self.row([1_000_000, 1_010_000], [1_004_000, 1_006_000])
        #expect(apart.verdict == .inconclusive)
        #expect(apart.reason == .placementsDisagree)
        // The same +273 at each of five placements that count differently from each other.
        let base: [Double] = [974_835, 974_190, 975_175, 974_530, 976_001]
        let shifted = base.map { $0 + 273 }
        let exact = try Self.row(base, shifted)
        #expect(exact.verdict == .regressed)
        #expect(
            exact.note.hasPrefix("varies by up to 1 instructions within a placement: +273 instructions a call"),
            "\(exact.note)")
    }

    @Test func aPlacementAboveOneMovesValgrindsLowestClientAddress() {
        #expect(CountingProcess.lowestAddress(of: 0) == nil)
        #expect(CountingProcess.lowestAddress(of: 1) == nil)
        #expect(CountingProcess.lowestAddress(of: 2) == "0x10000000")
        #expect(CountingProcess.lowestAddress(of: 4) == "0x30000000")
    }

    /// Only a check (or a placement trial) asks for more placements.
    ///
    /// A placement it asked for, even one whose counts differ from the first process's, asks for none (placements once
    /// ran twice in one folder, and the second run failed).
    @Test func onlyTheCheckAsksForMorePlacements() {
        let first = CountingProcess.Outcome(tests: Self.run([1_000_000]), status: 0)
        let moved = CountingProcess.Outcome(tests: Self.run([1_030_000]), status: 0)
        var check = CountingProcess(test: 0, id: "S/t()", pad: CountingRun.checkPad, folder: "/c", placement: 1)
        check.decidesPlacements = true
        let asked = CountingRun.followUps(of: check, moved, first: first, root: "/r")
        #expect(asked.map(\.placement) == Array(2..<CountingRun.placementsPerMovingTest))
        #expect(CountingRun.followUps(of: check, first, first: first, root: "/r").isEmpty)
        let replica = CountingProcess(test: 0, id: "S/t()", pad: CountingRun.checkPad, folder: "/c-1", placement: 1)
        #expect(CountingRun.followUps(of: replica, moved, first: first, root: "/r").isEmpty)
        #expect(asked.allSatisfy { CountingRun.followUps(of: $0, moved, first: first, root: "/r").isEmpty })
    }

    /// A chart of counts says when a bar has an interval: a count across placements has one.
    @Test func aChartOfCountsSaysWhenABarIsAcrossPlacements() throws {
        let placed = try Self.row(Self.placements(1), Self.placements(2))
        let exact = try Self.row(Self.placements(5), Self.placements(5))
        #expect(SVGChart.subtitle([exact], shown: [exact]).contains("a count: no interval; band"))
        #expect(
            SVGChart.subtitle([placed, exact], shown: [placed, exact]).contains("across placements: 95% CI; band"))
    }

    /// The headline's "smallest change it could have called" names counts across placements apart from timing rows.
    ///
    /// The calendar report had put the playback's ±3% among timing's ±37%.
    @Test func anInconclusiveCountAcrossPlacementsIsNotCalledATimingRow() throws {
        let comparison = try Comparison(
            baseline: Self.run(Self.placements(1)), current: Self.run(Self.placements(2)),
            baselineEnvironment: SimulatedCountTests.counted(), currentEnvironment: SimulatedCountTests.counted())
        let row = try #require(comparison.rows.first)
        #expect(row.verdict == .inconclusive, "\(row.note)")
        let detectable = try #require(row.detectableChange)
        let headline = ReportHeadline(comparison, direction: "B against A").lines.joined(separator: "\n")
        #expect(
            headline.contains(
                "The smallest change the inconclusive count rows (compared across placements) could have called "
                    + "(80% power): about ±\(Int((detectable * 100).rounded()))%."), "\(headline)")
        #expect(!headline.contains("inconclusive timing rows"))
    }
}
