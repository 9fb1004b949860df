import PerfKitCore

/// The outcome of comparing one metric. A struct over an enum adopters cannot name (``StoredCases``), so verdicts can
/// be added.
public struct Verdict: Hashable, Sendable, StoredCases, CustomStringConvertible {
    /// The cases behind the static members (``StoredCases``).
    @_spi(StoredCases) public enum Value: String, CaseIterable, Sendable {
        case regressed, improved, withinNoise, inconclusive, unchanged, added, removed, notJudged
    }
    /// The case.
    @_spi(StoredCases) public let value: Value
    /// The value of a case.
    @_spi(StoredCases) public init(_ value: Value) { self.value = value }

    /// Significant and its whole confidence interval lies on the worse side of the noise band.
    public static let regressed = Verdict(.regressed)
    /// Significant and its whole confidence interval lies on the better side of the noise band.
    public static let improved = Verdict(.improved)
    /// The confidence interval lies inside the noise band.
    public static let withinNoise = Verdict(.withinNoise)
    /// The data cannot resolve a change as small as the noise band.
    public static let inconclusive = Verdict(.inconclusive)
    /// A deterministic metric with exactly the same values.
    public static let unchanged = Verdict(.unchanged)
    /// Present only in the current results.
    public static let added = Verdict(.added)
    /// Present only in the baseline.
    public static let removed = Verdict(.removed)
    /// Shown but deliberately not judged.
    ///
    /// The row's note says why (another machine, one process per side, at the clock's resolution, a supporting figure
    /// of another row's decision).
    public static let notJudged = Verdict(.notJudged)

    /// The stored identifier.
    public var description: String {
        switch value {
        case .regressed: "regressed"
        case .improved: "improved"
        case .withinNoise: "within noise"
        case .inconclusive: "inconclusive"
        case .unchanged: "unchanged"
        case .added: "added"
        case .removed: "removed"
        case .notJudged: "not judged"
        }
    }
    /// An emoji-free marker for tables.
    public var marker: String {
        switch value {
        case .regressed: "**regressed**"
        case .improved: "**improved**"
        default: description
        }
    }

}

/// How much relative change a metric's noise allows before a change can count.
public struct NoiseBands: Sendable, Codable, Equatable {
    /// Relative half-width per metric name (0.05 = ±5%).
    public var relative: [String: Double]
    /// Absolute threshold per deterministic metric name (default 0: any change counts).
    public var absolute: [String: Double]
    /// Band for statistical metrics not listed.
    public var defaultRelative: Double
    /// Calibrated bands per series, keyed by ``SeriesID/storageKey``.
    public var perSeries: [String: Double]

    /// Bands; every argument defaults to none, and the default band to ±5%.
    public init(
        relative: [String: Double] = [:], absolute: [String: Double] = [:], defaultRelative: Double = 0.05,
        perSeries: [String: Double] = [:]
    ) {
        self.relative = relative
        self.absolute = absolute
        self.defaultRelative = defaultRelative
        self.perSeries = perSeries
    }

    /// The band for a metric.
    public func band(for metric: Metric) -> Double { relative[metric.name] ?? defaultRelative }

    /// The band for one series: its calibrated band if there is one, else the metric's.
    ///
    /// The one lookup every comparison (unpaired, paired, unpaired rows of a pairing) goes through.
    /// - Parameters:
    ///   - id: The series.
    ///   - metric: Its metric (for the per-metric band).
    /// - Returns: The relative half-width.
    public func band(for id: SeriesID, metric: Metric) -> Double { perSeries[id.storageKey] ?? band(for: metric) }

    /// The bands for comparing against a stored baseline: never narrower than the cross-run default (±5%).
    ///
    /// Calibration measures A/A noise within one session; a stored baseline also carries the machine's drift between
    /// sessions, which calibration cannot see, so a calibrated band only ever widens the default here.
    public var withCrossRunDefault: NoiseBands {
        let floor = NoiseBands().defaultRelative
        var copy = self
        copy.defaultRelative = max(defaultRelative, floor)
        copy.relative = relative.mapValues { max($0, floor) }
        copy.perSeries = perSeries.mapValues { max($0, floor) }
        return copy
    }

}
