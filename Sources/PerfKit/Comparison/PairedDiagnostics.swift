import Foundation
import PerfKitCore

/// Diagnostics of a paired run: order effect, drift, stability.
public struct PairedDiagnostics: Sendable, Codable, Equatable {
    /// Relative change of a value when it runs in second position rather than first (0.02 = 2% slower second).
    public var orderEffect: Double
    /// Mann–Whitney p-value of the order effect (log ratios with B second against B first).
    public var orderEffectP: Double
    /// Whether the order effect is significant (p < 0.05) and larger than 1%.
    public var orderEffectDetected: Bool
    /// Relative change of the paired ratio per round (trend), and its Spearman p-value.
    public var driftPerRound: Double
    /// p of the drift test (Spearman's rank correlation of the log ratios with the round).
    public var driftP: Double
    /// Relative change of arm A's own values per round: the machine's drift.
    public var machineDriftPerRound: Double
    /// Plain-language warnings (high variation, slow first run, order effect, drift).
    public var warnings: [String]

    /// Analyses one paired series.
    /// - Throws: ``StatisticsError`` for non-finite values.
    /// - Complexity: O(n log n).
    public init(_ series: PairedSeries) throws {
        let logs = series.ratios.map { $0 > 0 && $0.isFinite ? Foundation.log($0) : 0 }
        let second = zip(logs, series.currentRanSecond).filter { $0.1 }.map(\.0)
        let first = zip(logs, series.currentRanSecond).filter { !$0.1 }.map(\.0)
        // With B second, log(B/A) = effect + order; with B first, effect − order.
        if !second.isEmpty, !first.isEmpty {
            orderEffect = Foundation.exp((Self.mean(second) - Self.mean(first)) / 2) - 1
            orderEffectP = second.count + first.count >= 4 ? try MannWhitney(second, first).pValue : 1
        } else {
            orderEffect = 0
            orderEffectP = 1
        }
        orderEffectDetected = orderEffectP < 0.05 && abs(orderEffect) > 0.01
        let rounds = logs.indices.map(Double.init)
        (driftPerRound, driftP) = Self.trend(rounds, logs)
        let aLogs = series.baseline.map { $0 > 0 ? Foundation.log($0) : 0 }
        machineDriftPerRound = Self.trend(rounds, aLogs).slope
        var warnings: [String] = []
        if orderEffectDetected {
            warnings.append(
                "order effect: the arm in second position runs \(Format.trim(abs(orderEffect) * 100))% "
                    + "\(orderEffect > 0 ? "slower" : "faster") (p = \(Format.trim(orderEffectP)))"
            )
        }
        if driftP < 0.05 && abs(driftPerRound) > 0.002 {
            warnings.append(
                "drift: the paired ratio changes \(Format.trim(driftPerRound * 100))% per round (Spearman p = "
                    + "\(Format.trim(driftP)))"
            )
        }
        for (name, values) in [("A", series.baseline), ("B", series.current)] where values.count >= 3 {
            let summary = try Summary(values)
            if summary.coefficientOfVariation > 0.1 {
                warnings.append(
                    "unstable: arm \(name) varies by \(Format.trim(summary.coefficientOfVariation * 100))% "
                        + "(coefficient of variation) across rounds"
                )
            }
            let rest = try Summary(Array(values.dropFirst()))
            if values[0] > 1.5 * rest.median {
                warnings.append(
                    "slow first run: arm \(name)'s first round is \(Format.trim(values[0] / rest.median))× the median "
                        + "of the others"
                )
            }
        }
        self.warnings = warnings
    }

    static func mean(_ x: [Double]) -> Double { x.reduce(0, +) / Double(x.count) }

    /// Least-squares slope of y on x, with the Spearman rank correlation's p-value (normal approximation).
    static func trend(_ x: [Double], _ y: [Double]) -> (slope: Double, p: Double) {
        let n = Double(x.count)
        guard n >= 4 else { return (0, 1) }
        let mx = mean(x), my = mean(y)
        var sxy = 0.0, sxx = 0.0
        for (a, b) in zip(x, y) {
            sxy += (a - mx) * (b - my)
            sxx += (a - mx) * (a - mx)
        }
        let slope = sxx == 0 ? 0 : sxy / sxx
        let rx = Ranking.averageRanks(x).ranks, ry = Ranking.averageRanks(y).ranks
        let mrx = mean(rx), mry = mean(ry)
        var num = 0.0, dx = 0.0, dy = 0.0
        for (a, b) in zip(rx, ry) {
            num += (a - mrx) * (b - mry)
            dx += (a - mrx) * (a - mrx)
            dy += (b - mry) * (b - mry)
        }
        guard dx > 0, dy > 0 else { return (Foundation.exp(slope) - 1, 1) }
        let rho = num / (dx * dy).squareRoot()
        let z = abs(rho) * (n - 1).squareRoot()
        return (Foundation.exp(slope) - 1, min(1, 2 * Normal.survival(z)))
    }
}
