import Foundation

/// Two arms measured process by process in counterbalanced rounds, paired round by round.
///
/// Each round yields one value per arm and series (the median of that process's samples); the
/// pair's ratio B/A is the per-round effect. The change is the Hodges–Lehmann estimate of the
/// per-round log ratios (the median of their Walsh averages, the estimator that goes with the
/// Wilcoxon signed-rank test), with a seeded bootstrap CI over rounds; the verdict uses the
/// Wilcoxon signed-rank test on the pairs (Benjamini–Hochberg across the comparison) and the same
/// two gates as ``Comparison``.
public struct PairedSeries: Sendable, Codable, Equatable {
    /// Identifies the series: test, measurement, arm, phase, metric.
    public var test: String
    public var measurement: String
    public var arm: String
    public var phase: Phase
    public var metric: Metric
    /// Per round: arm A's value, arm B's value, and whether B ran second in that round.
    public var a: [Double]
    public var b: [Double]
    public var bRanSecond: [Bool]

    public init(test: String, measurement: String, arm: String, phase: Phase, metric: Metric, a: [Double] = [], b: [Double] = [], bRanSecond: [Bool] = []) {
        self.test = test
        self.measurement = measurement
        self.arm = arm
        self.phase = phase
        self.metric = metric
        self.a = a
        self.b = b
        self.bRanSecond = bRanSecond
    }

    /// One paired round: every test result of arm A's process and of arm B's, and whether B ran second.
    public struct Round: Sendable {
        public var a: [TestResult]
        public var b: [TestResult]
        public var bRanSecond: Bool
        public init(a: [TestResult], b: [TestResult], bRanSecond: Bool) {
            self.a = a
            self.b = b
            self.bRanSecond = bRanSecond
        }
    }

    /// Pairs rounds series by series: each process contributes the median of its samples.
    /// Series missing from either side of any round are left out.
    /// - Complexity: O(R · S · n) for R rounds, S series, n samples per series.
    public static func pair(_ rounds: [Round]) throws -> [PairedSeries] {
        var paired: [SeriesTable.Key: PairedSeries] = [:]
        var complete: Set<SeriesTable.Key>? = nil
        for round in rounds {
            let a = SeriesTable(round.a), b = SeriesTable(round.b)
            let both = Set(a.keys).intersection(b.keys)
            complete = complete.map { $0.intersection(both) } ?? both
            for key in both {
                let sa = a.series[key]!, sb = b.series[key]!
                var entry = paired[key] ?? PairedSeries(test: key.test, measurement: key.measurement, arm: key.arm, phase: key.phase, metric: sa.metric)
                entry.a.append(try Quantile.median(sa.values))
                entry.b.append(try Quantile.median(sb.values))
                entry.bRanSecond.append(round.bRanSecond)
                paired[key] = entry
            }
        }
        return (complete ?? []).sorted().map { paired[$0]! }
    }

    /// Per-round ratios B/A (1 where both are 0).
    public var ratios: [Double] { zip(a, b).map { $1 == $0 ? 1 : ($0 == 0 ? .infinity : $1 / $0) } }
}

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
        let second = zip(logs, series.bRanSecond).filter { $0.1 }.map(\.0)
        let first = zip(logs, series.bRanSecond).filter { !$0.1 }.map(\.0)
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
        let aLogs = series.a.map { $0 > 0 ? Foundation.log($0) : 0 }
        machineDriftPerRound = Self.trend(rounds, aLogs).slope
        var warnings: [String] = []
        if orderEffectDetected {
            warnings.append(
                "order effect: the arm in second position runs \(Format.trim(abs(orderEffect) * 100))% \(orderEffect > 0 ? "slower" : "faster") (p = \(Format.trim(orderEffectP)))"
            )
        }
        if driftP < 0.05 && abs(driftPerRound) > 0.002 {
            warnings.append("drift: the paired ratio changes \(Format.trim(driftPerRound * 100))% per round (Spearman p = \(Format.trim(driftP)))")
        }
        for (name, values) in [("A", series.a), ("B", series.b)] where values.count >= 3 {
            let summary = try Summary(values)
            if summary.coefficientOfVariation > 0.1 {
                warnings.append(
                    "unstable: arm \(name) varies by \(Format.trim(summary.coefficientOfVariation * 100))% (coefficient of variation) across rounds")
            }
            let rest = try Summary(Array(values.dropFirst()))
            if values[0] > 1.5 * rest.median {
                warnings.append("slow first run: arm \(name)'s first round is \(Format.trim(values[0] / rest.median))× the median of the others")
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

extension Comparison {
    /// The one-sample Hodges–Lehmann estimate: the median of all Walsh averages (x_i + x_j) / 2, i ≤ j.
    /// - Complexity: O(n²).
    static func hodgesLehmann(_ x: [Double]) -> Double {
        var walsh: [Double] = []
        walsh.reserveCapacity(x.count * (x.count + 1) / 2)
        for i in x.indices {
            for j in i..<x.count { walsh.append((x[i] + x[j]) / 2) }
        }
        return walsh.withUnsafeMutableBufferPointer { Quantile.medianBySelection($0) }
    }

    /// Compares paired series: per-round ratios, Wilcoxon signed-rank, bootstrap CI of the median
    /// paired ratio, and the two-gate verdict; deterministic metrics exactly.
    /// - Parameters:
    ///   - paired: One series per test, measurement, arm, phase and metric.
    ///   - bands: Noise bands.
    ///   - alpha: False discovery rate.
    /// - Throws: ``StatisticsError`` for non-finite values.
    /// - Complexity: O(S · B · r²) for S series, B resamples, r rounds.
    public init(paired: [PairedSeries], bands: NoiseBands, alpha: Double = 0.05, environmentA: Environment?, environmentB: Environment?) throws {
        var rows: [ComparisonRow] = []
        var statistical: [Int] = []
        for series in paired {
            var row = ComparisonRow(
                test: series.test, measurement: series.measurement, arm: series.arm, phase: series.phase, metric: series.metric,
                baseline: try Summary(series.a), current: try Summary(series.b), change: nil, pValue: nil, qValue: nil,
                noiseBand: bands.band(for: series), verdict: .withinNoise, note: "")
            if series.metric.isDeterministic {
                Self.judgeExactly(&row, baseline: series.a, current: series.b, threshold: bands.absolute[series.metric.name] ?? 0)
                rows.append(row)
                continue
            }
            guard series.a.count >= 4 else {
                row.verdict = .inconclusive
                row.note = "too few rounds (\(series.a.count); need 4)"
                rows.append(row)
                continue
            }
            let logs = series.ratios.filter { $0.isFinite && $0 > 0 }.map { Foundation.log($0) }
            var generator = SeededGenerator(seed: 0xAB_BA)
            var estimates = [Double](repeating: 0, count: 2_000)
            var sample = logs
            for k in estimates.indices {
                for i in sample.indices { sample[i] = logs[generator.index(below: logs.count)] }
                estimates[k] = Foundation.exp(Self.hodgesLehmann(sample))
            }
            row.change = TwoSampleEstimate.interval(point: Foundation.exp(Self.hodgesLehmann(logs)), resampled: &estimates, confidence: 0.95)
            row.pValue = try Wilcoxon(series.a, series.b).pValue
            statistical.append(rows.count)
            rows.append(row)
        }
        try Self.judgeStatistically(&rows, at: statistical, alpha: alpha)
        self.rows = rows
        baselineEnvironment = environmentA
        currentEnvironment = environmentB
    }
}
