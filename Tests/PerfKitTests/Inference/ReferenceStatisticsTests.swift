import Foundation
import PerfKit
import Testing

/// PerfKit's statistics against SciPy 1.17 and numpy 2.4.
///
/// Values computed with `Scripts/crosscheck_stats.py` (which also checks the command line over 112 random cases) or
/// stored in `Fixtures/scipy-reference.json` by `crosscheck_stats.py --write-fixture`.
@Suite struct ReferenceStatisticsTests {
    static let x = [12.1, 15.3, 11.8, 14.2, 13.9, 16.0, 12.7]

    func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool {
        abs(a - b) <= tolerance * max(abs(b), 1e-300)
    }

    @Test func summaryMeanDeviationAndUpperPercentilesMatchNumpy() throws {
        let s = try Summary(Self.x)
        #expect(close(s.mean, 13.714285714285717))
        #expect(close(s.standardDeviation, 1.5973191827022462))  // ddof = 1
        #expect(close(s.p90, 15.58))
        #expect(close(s.p95, 15.79))
        #expect(close(s.p99, 15.958))
    }

    @Test func summaryOfHugeValuesStaysFinite() throws {
        let s = try Summary([1e300, -1e300, 1.5e308])
        #expect(s.mean.isFinite && close(s.mean, 5e307, 1e-9))
        #expect(s.standardDeviation.isFinite && s.standardDeviation > 1e307)
    }

    struct WilcoxonCase: CustomTestStringConvertible, Sendable {
        var name: String
        var differences: [Double]
        var scipy: Double
        var method: Wilcoxon.Method
        var testDescription: String { name }
    }

    @Test(arguments: [
        WilcoxonCase(
            name: "5 pairs all higher, one tie (permutation)", differences: [1, 1, 1, 1, 1.5], scipy: 0.0625,
            method: .permutation),
        WilcoxonCase(name: "2 pairs (exact)", differences: [1, 2], scipy: 0.5, method: .exact),
        WilcoxonCase(
            name: "10 pairs, no ties (exact)", differences: [0.5, 1.2, -0.3, 2.2, 1.7, 0.9, -1.1, 3.3, 0.4, 1.6],
            scipy: 0.02734375, method: .exact),
        WilcoxonCase(
            name: "20 pairs with ties and zeros (normal)",
            differences: [0, 0, 1, 1, 1, 2, 2, 3, -1, 4, 5, 5, -2, 6, 7, 7, 8, -3, 9, 9],
            scipy: 0.0027935662130837364, method: .normal),
    ])
    func wilcoxonMatchesSciPyDefaults(_ c: WilcoxonCase) throws {
        let test = try Wilcoxon([Double](repeating: 0, count: c.differences.count), c.differences)
        #expect(close(test.pValue, c.scipy, 1e-10))
        #expect(test.method == c.method)
    }

    @Test func mannWhitneyExactPathHandlesEightAgainstTwoThousand() throws {
        let a = (0..<8).map { Double($0) + 0.5 }
        let b = (0..<2000).map { Double($0) * 0.01 + 3.001 }
        let test = try MannWhitney(a, b)
        #expect(test.isExact)
        #expect(close(test.pValue, 1.2754337926889769e-06, 1e-9))
    }

    /// Moses' interval for the two-sample shift at m = n = 5.
    ///
    /// P(U ≤ 2) = 4/252 ≤ 0.025 < P(U ≤ 3) = 7/252, so the 95% interval runs from the 3rd to the 23rd of the 25 sorted
    /// differences.
    @Test func twoSampleShiftIntervalUsesTheMannWhitneyCriticalValue() {
        let interval = HodgesLehmann.shiftInterval([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
        #expect(interval.value == 5)
        #expect(interval.lower == 2 && interval.upper == 8)  // differences 1…9 with counts 1, 2, 3, 4, 5, 4, 3, 2, 1
    }

    struct Fixture: Decodable {
        struct Case: Decodable {
            var p: [Double]
            var q: [Double]
        }
        var benjaminiHochberg: [Case]
    }

    @Test func benjaminiHochbergMatchesSciPyFalseDiscoveryControl() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../Fixtures/scipy-reference.json")
        let fixture = try JSONDecoder().decode(Fixture.self, from: try Data(contentsOf: url))
        #expect(fixture.benjaminiHochberg.count == 5)
        for c in fixture.benjaminiHochberg {
            let q = try BenjaminiHochberg.adjust(c.p)
            #expect(zip(q, c.q).allSatisfy { close($0, $1, 1e-12) }, "p \(c.p)")
        }
    }

    /// Simulated coverage of the paired 95% CI (Hodges–Lehmann of log ratios, exact signed-rank interval).
    ///
    /// 2,000 seeded sessions each at 10 and 30 rounds, true ratio 1.03, log-normal noise.
    @Test(arguments: [10, 30])
    func pairedIntervalCoversTheTrueRatioNinetyFivePercentOfTheTime(rounds: Int) throws {
        var generator = SeededGenerator(seed: UInt64(rounds))
        var covered = 0
        let sessions = 2_000
        for _ in 0..<sessions {
            var a: [Double] = []
            var b: [Double] = []
            for _ in 0..<rounds {
                let drift = exp(0.05 * generator.normal())  // shared by both arms of a round
                a.append(100 * drift * exp(0.02 * generator.normal()))
                b.append(103 * drift * exp(0.02 * generator.normal()))
            }
            let ratio = try PairedSampleComparison(a, b).ratio
            if ratio.lower <= 1.03 && 1.03 <= ratio.upper { covered += 1 }
        }
        let coverage = Double(covered) / Double(sessions)
        #expect((0.94...0.96).contains(coverage), "coverage \(coverage) at \(rounds) rounds")
        Attachment.record("coverage \(coverage) at \(rounds) rounds", named: "coverage.txt")
    }
}

extension SeededGenerator {
    /// A standard normal draw (Box–Muller), for simulations.
    mutating func normal() -> Double {
        let u = max(Double(next() >> 11) / Double(1 << 53), 1e-300)
        let v = Double(next() >> 11) / Double(1 << 53)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
