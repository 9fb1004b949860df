import PerfKitCore

/// Two arms measured process by process in counterbalanced rounds, paired round by round.
///
/// Each round yields one value per side and series (the median of that process's samples); the
/// pair's ratio current/baseline is the per-round effect. The sides are called baseline and
/// current throughout the comparison code, as in ``ComparisonRow``; in an ABBA session the
/// baseline is revision A and the current side revision B. The change is the Hodges–Lehmann
/// estimate of the per-round log ratios (the median of their Walsh averages, the estimator that
/// goes with the Wilcoxon signed-rank test), with its exact signed-rank CI; the verdict uses the
/// Wilcoxon signed-rank test on the pairs (Benjamini–Hochberg across the comparison) and the same
/// two gates as ``Comparison``.
public struct PairedSeries: Sendable, Codable, Equatable {
    /// The series' identity.
    public var id: SeriesID
    /// The metric, with its unit, polarity and kind (its name is ``id``'s).
    public var metric: Metric
    /// The baseline side's (revision A's) per-round medians, in round order.
    public var baseline: [Double]
    /// The current side's (revision B's) per-round medians, in round order.
    public var current: [Double]
    /// Whether the current side's process ran second in each round.
    public var currentRanSecond: [Bool]
    /// The fewest calls any sample of either side was timed over (nil: one call a sample); the
    /// resolution gates multiply the per-call median by it.
    public var callsPerSample: Int? = nil

    /// A paired series; values are added round by round.
    public init(
        test: String, measurement: String, arm: String, phase: Phase, metric: Metric, baseline: [Double] = [],
        current: [Double] = [],
        currentRanSecond: [Bool] = []
    ) {
        self.id = SeriesID(test: test, measurement: measurement, arm: arm, phase: phase, metric: metric.name)
        self.metric = metric
        self.baseline = baseline
        self.current = current
        self.currentRanSecond = currentRanSecond
    }

    /// One paired round: every test result of the baseline's process and of the current side's, and which ran second.
    public struct Round: Sendable {
        /// The baseline's (revision A's) process results in this round.
        public var baseline: [TestResult]
        /// The current side's (revision B's) process results in this round.
        public var current: [TestResult]
        /// Whether the current side's process ran second.
        public var currentRanSecond: Bool
        /// One round.
        public init(baseline: [TestResult], current: [TestResult], currentRanSecond: Bool) {
            self.baseline = baseline
            self.current = current
            self.currentRanSecond = currentRanSecond
        }
    }

    /// Pairs rounds series by series: each process contributes the median of its samples.
    ///
    /// A series missing from either side in any round is not paired; it is returned in ``Pairing/unpaired`` so the
    /// comparison can list it as added, removed or incomplete.
    /// - Complexity: O(R · S · n) for R rounds, S series, n samples per series.
    public static func pair(_ rounds: [Round]) throws -> Pairing {
        var medians: [SeriesID: (metric: Metric, baseline: [Double], current: [Double], currentRanSecond: [Bool])] = [:]
        var complete: [SeriesID: Int] = [:]
        var calls: [SeriesID: Int] = [:]
        for round in rounds {
            let a = SeriesTable(round.baseline), b = SeriesTable(round.current)
            for key in Set(a.keys).union(b.keys) {
                let sa = a.series[key], sb = b.series[key]
                var entry = medians[key] ?? ((sa ?? sb)!.metric, [], [], [])
                if let sa { entry.baseline.append(try Quantile.median(sa.values)) }
                if let sb { entry.current.append(try Quantile.median(sb.values)) }
                for side in [sa, sb].compactMap({ $0 }) where side.callsPerSample != nil {
                    calls[key] = min(calls[key] ?? .max, side.minimumCallsPerSample)
                }
                if sa != nil && sb != nil {
                    entry.currentRanSecond.append(round.currentRanSecond)
                    complete[key, default: 0] += 1
                }
                medians[key] = entry
            }
        }
        var pairing = Pairing(paired: [], unpaired: [])
        for key in medians.keys.sorted() {
            let entry = medians[key]!
            if complete[key] == rounds.count {
                var series = PairedSeries(
                    test: key.test, measurement: key.measurement, arm: key.arm, phase: key.phase, metric: entry.metric,
                    baseline: entry.baseline,
                    current: entry.current,
                    currentRanSecond: entry.currentRanSecond)
                series.callsPerSample = calls[key]
                pairing.paired.append(series)
            } else {
                pairing.unpaired.append(
                    UnpairedSeries(
                        test: key.test, measurement: key.measurement, arm: key.arm, phase: key.phase,
                        metric: entry.metric, baseline: entry.baseline,
                        current: entry.current,
                        rounds: rounds.count))
            }
        }
        return pairing
    }

    /// Per-round ratios current/baseline (1 where both are 0).
    public var ratios: [Double] { zip(baseline, current).map { $1 == $0 ? 1 : ($0 == 0 ? .infinity : $1 / $0) } }
}

/// The series of an ABBA session: those paired in every round, and those that could not be paired.
public struct Pairing: Sendable, Equatable {
    /// Series present on both sides in every round.
    public var paired: [PairedSeries]
    /// Series present on one side only, or missing from some rounds.
    public var unpaired: [UnpairedSeries]

    /// A pairing.
    public init(paired: [PairedSeries], unpaired: [UnpairedSeries]) {
        self.paired = paired
        self.unpaired = unpaired
    }
}

/// A series that could not be paired.
///
/// It is missing from one side, or from some rounds (for example a test added in B, removed in B, or failing in some
/// processes).
public struct UnpairedSeries: Sendable, Codable, Equatable {
    /// The series' identity.
    public var id: SeriesID
    /// The metric, with its unit, polarity and kind (its name is ``id``'s).
    public var metric: Metric
    /// The baseline's per-round medians, in the rounds where it had the series.
    public var baseline: [Double]
    /// The current side's per-round medians, in the rounds where it had the series.
    public var current: [Double]
    /// Rounds in the session.
    public var rounds: Int

    /// An unpaired series.
    public init(
        test: String, measurement: String, arm: String, phase: Phase, metric: Metric, baseline: [Double],
        current: [Double], rounds: Int
    ) {
        self.id = SeriesID(test: test, measurement: measurement, arm: arm, phase: phase, metric: metric.name)
        self.metric = metric
        self.baseline = baseline
        self.current = current
        self.rounds = rounds
    }
}

/// A value identified by a ``SeriesID``: its parts read (and set) through the identity, so the
/// identity is stored once.
public protocol SeriesIdentified {
    /// The series' identity.
    var id: SeriesID { get set }
}

extension SeriesIdentified {
    /// The test's ID.
    public var test: String {
        get { id.test }
        set { id.test = newValue }
    }
    /// The measurement's name within its test.
    public var measurement: String {
        get { id.measurement }
        set { id.measurement = newValue }
    }
    /// The arm within the measurement.
    public var arm: String {
        get { id.arm }
        set { id.arm = newValue }
    }
    /// The phase.
    public var phase: Phase {
        get { id.phase }
        set { id.phase = newValue }
    }
}

extension PairedSeries: SeriesIdentified {}
extension UnpairedSeries: SeriesIdentified {}
