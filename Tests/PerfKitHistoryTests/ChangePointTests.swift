import Foundation
import PerfKit
import PerfKitHistory
import Testing

/// Change points: counts at exactly the commit that changed them, timing by E-divisive means.
@Suite struct ChangePointTests {
    static func commit(_ n: Int) -> CommitInfo {
        CommitInfo(
            hash: String(format: "%040x", n), parent: n > 1 ? String(format: "%040x", n - 1) : "", position: n,
            date: Date(timeIntervalSince1970: Double(n) * 60), subject: "commit \(n)")
    }

    static func entries(
        _ values: [Double], measure: HistoryMeasure, metric: String = "instructions", machine: String = "m1"
    ) -> [HistoryEntry] {
        values.enumerated().map { i, v in
            HistoryEntry(
                machine: machine, commit: commit(i + 1),
                series: SeriesID(test: "M.S/t()", measurement: "m", arm: "main", phase: .warm, metric: metric),
                unit: measure == .timing ? "ns" : "instructions", kind: .componentCost, measure: measure, value: v,
                lower: v, upper: v, processes: 1,
                recorded: Date(timeIntervalSince1970: 0))
        }
    }

    /// Log-normal noise of a given spread around a level, seeded.
    static func noisy(_ levels: [Double], spread: Double, seed: UInt64) -> [Double] {
        var generator = SeededGenerator(seed: seed)
        return levels.map { level in
            // Box–Muller from two uniforms.
            let u1 = Double(generator.next() >> 11) / Double(1 << 53) + 1e-12,
                u2 = Double(generator.next() >> 11) / Double(1 << 53)
            return level
                * Foundation.exp(spread * (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * .pi * u2))
        }
    }

    @Test func aCountStepIsFoundAtExactlyItsCommitAndWobblesOnlyBelowAStatedFloor() {
        // Commit 12 adds 2%; commits 5 and 21 wobble by 300 and 200 instructions (address-sensitive code).
        var values = (1...30).map { $0 < 12 ? 768_893.0 : 784_266.0 }
        values[4] += 300
        values[20] -= 200
        // Counts are exact by default: every step is a change, the wobbles included.
        let exact = ChangePointDetector().histories(Self.entries(values, measure: .simulatedCount))
        #expect(exact[0].changes.map(\.commit.position) == [5, 6, 12, 21, 22])
        // A floor the user states leaves the wobbles out.
        var floored = ChangePointDetector()
        floored.countFloor = 400
        let histories = floored.histories(Self.entries(values, measure: .simulatedCount))
        #expect(histories.count == 1)
        #expect(histories[0].changes.map(\.commit.position) == [12])
        #expect(histories[0].changes[0].previous.position == 11)
        #expect(histories[0].changes[0].ratio.value == 784_266.0 / 768_893.0)
    }

    @Test func aCountChangeIsAChangeUnlessBelowAStatedToleranceOrFloor() {
        // 50 instructions of a 10,000-instruction body: a change by default, not under a 100-instruction floor.
        let small = ChangePointDetector().histories(
            Self.entries([10_000, 10_000, 10_050, 10_050], measure: .simulatedCount))
        #expect(small[0].changes.map(\.commit.position) == [3])
        var floored = ChangePointDetector()
        floored.countFloor = 100
        #expect(
            floored.histories(Self.entries([10_000, 10_000, 10_050, 10_050], measure: .simulatedCount))[0]
                .changes.isEmpty)
        // 1,500 instructions of a 10,000,000-instruction body (0.015%): not under a 0.05% tolerance.
        var tolerant = ChangePointDetector()
        tolerant.countTolerance = 0.0005
        let large = tolerant.histories(
            Self.entries([1e7, 1e7, 1e7 + 1_500, 1e7 + 1_500], measure: .simulatedCount))
        #expect(large[0].changes.isEmpty)
        let both = ChangePointDetector().histories(Self.entries([1e6, 1e6, 1.01e6, 1.01e6], measure: .simulatedCount))
        #expect(both[0].changes.map(\.commit.position) == [3])
    }

    /// A count that moved with the heap (its processes' medians 0.5% apart) is judged against twice that, as a
    /// comparison judges it.
    ///
    /// A 0.6% step is then no change point; the same step of a count whose processes agree is one.
    @Test func anAddressSensitiveCountIsJudgedAgainstItsWidenedTolerance() {
        let values = [1e6, 1e6, 1.006e6, 1.006e6]
        var sensitive = Self.entries(values, measure: .simulatedCount)
        for i in sensitive.indices { sensitive[i].upper = sensitive[i].value * 1.005 }
        #expect(ChangePointDetector().histories(sensitive)[0].changes.isEmpty)
        let steady = ChangePointDetector().histories(Self.entries(values, measure: .simulatedCount))
        #expect(steady[0].changes.map(\.commit.position) == [3])
        #expect(sensitive[0].countSpread == 0.005 || abs(sensitive[0].countSpread - 0.005) < 1e-12)
    }

    @Test func anExactCountChangesAtAnyDifferenceAndMachinesAreKeptApart() {
        let one = Self.entries([5, 5, 6, 6], measure: .exactCount, metric: "mallocs", machine: "a")
        let other = Self.entries([9, 9, 9, 9], measure: .exactCount, metric: "mallocs", machine: "b")
        let histories = ChangePointDetector().histories(other + one)
        #expect(histories.map(\.machine) == ["a", "b"])
        #expect(histories[0].changes.map(\.commit.position) == [3])
        #expect(histories[1].changes.isEmpty)
    }

    @Test func eDivisiveFindsA15PercentTimingStepWithinOneCommit() {
        let levels = (1...30).map { $0 < 21 ? 2_086_000.0 : 2_400_000.0 }
        for seed in UInt64(1)...10 {
            let histories = ChangePointDetector().histories(
                Self.entries(Self.noisy(levels, spread: 0.02, seed: seed), measure: .timing, metric: "wallClock"))
            let found = histories[0].changes.map(\.commit.position)
            #expect(found.count == 1 && abs(found[0] - 21) <= 1, "seed \(seed): \(found)")
            #expect(
                histories[0].changes.first.map { $0.ratio.lower < 1.15 * 1.05 && $0.ratio.upper > 1.15 * 0.95 } == true)
        }
    }

    @Test func eDivisiveFalseAlarmsOnFlatSeriesStayNearItsRate() {
        // 200 flat series at α = 0.01: about 2 false alarms expected; the seeds make the count exact.
        var alarms = 0
        for seed in UInt64(100)..<300 {
            let values = Self.noisy(Array(repeating: 1e6, count: 30), spread: 0.05, seed: seed)
            alarms +=
                ChangePointDetector().histories(Self.entries(values, measure: .timing, metric: "wallClock"))[0].changes
                    .isEmpty ? 0 : 1
        }
        #expect(alarms <= 6, "\(alarms) of 200 flat series flagged")
    }

    @Test func theSweptStatisticEqualsTheEnergyDistanceComputedDirectly() {
        let values = Self.noisy((1...25).map { $0 < 9 ? 1.0 : 1.3 }, spread: 0.1, seed: 7)
        let detector = EDivisive()
        var best = (index: 0, statistic: -Double.infinity)
        for tau in detector.minimumSegment...(values.count - detector.minimumSegment) {
            let x = values[..<tau], y = values[tau...]
            var between = 0.0, wx = 0.0, wy = 0.0
            for a in x { for b in y { between += abs(a - b) } }
            for (i, a) in x.enumerated() { for b in x.dropFirst(i + 1) { wx += abs(a - b) } }
            for (i, a) in y.enumerated() { for b in y.dropFirst(i + 1) { wy += abs(a - b) } }
            let m = Double(x.count), n = Double(y.count)
            let q = m * n / (m + n) * (2 * between / (m * n) - wx / (m * (m - 1) / 2) - wy / (n * (n - 1) / 2))
            if q > best.statistic { best = (tau, q) }
        }
        let splits = detector.splits(values)
        #expect(splits.first?.index == best.index)
        #expect(splits.first.map { abs($0.index - 8) <= 1 } == true)
    }

    @Test func theReportNamesCommitSubjectStepAndEvidence() {
        var values = (1...30).map { $0 < 12 ? 1000_000.0 : 1020_000.0 }
        values[0] = 1000_000
        let histories = ChangePointDetector().histories(Self.entries(values, measure: .simulatedCount))
        let text = HistoryReport.text(histories)
        #expect(text[0] == "machine m1: 1 series over 30 commits")
        #expect(text[1] == "  S/t() m [main, warm] instructions (simulated count, component cost, 30 commits)")
        #expect(
            text[2].hasPrefix(
                "    commit 12 000000000000 \"commit 12\": 1000000 instructions → 1020000 instructions, +2.0%, a count "
                    + "that differs"
            ))
        let svg = TrendChart.svg(histories[0])
        #expect(svg.contains("commit 12: +2.0%"))
        #expect(svg.components(separatedBy: "<circle").count - 1 == 30)
    }
}
