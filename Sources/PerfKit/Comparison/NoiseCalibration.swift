import Foundation

/// Noise bands measured on one machine by A/A comparisons (`perfkit calibrate`).
public struct NoiseCalibration: Sendable, Codable, Equatable {
    /// The schema version this code writes: 2 since entries carry a structured ``SeriesID``
    /// (version 1 held a joined string). Bands are read from both.
    public static let schemaVersion = 2

    /// One calibrated series.
    public struct Entry: Sendable, Codable, Equatable {
        /// The series.
        public var id: SeriesID
        /// A/A repeats that flagged a change (regressed or improved) under the default band.
        public var falseAlarms: Int
        /// A/A repeats that measured the series.
        public var repeats: Int
        /// The band stored for the series (relative).
        public var band: Double
        /// The smallest relative change these rounds can resolve: the median CI half-width plus the band.
        public var resolvableChange: Double
    }

    /// The file's schema version.
    public var schemaVersion: Int
    /// When it was calibrated.
    public var date: Date
    /// The machine it was calibrated on; bands apply to that machine only.
    public var machine: MachineFingerprint
    /// Rounds per A/A comparison the bands were measured with.
    public var rounds: Int
    /// A/A repeats.
    public var repeats: Int
    /// The bands to compare with.
    public var bands: NoiseBands
    /// One entry per calibrated series.
    public var entries: [Entry]

    /// Calibrates from A/A comparisons of the same build.
    ///
    /// Per statistical series: the band is the 95th percentile of |paired change − 1| over the
    /// repeats, at least `floor`; the resolvable change is the median 95% CI half-width plus that band.
    /// - Parameters:
    ///   - comparisons: One paired comparison per A/A repeat.
    ///   - floor: The smallest band stored.
    ///   - defaultBand: The band for series not calibrated.
    /// - Complexity: O(S · K log K) for S series and K repeats.
    public init(comparisons: [Comparison], machine: MachineFingerprint, rounds: Int, date: Date = Date(), floor: Double = 0.005, defaultBand: Double = 0.01) {
        schemaVersion = Self.schemaVersion
        self.date = date
        self.machine = machine
        self.rounds = rounds
        repeats = comparisons.count
        var grouped: [SeriesID: [ComparisonRow]] = [:]
        for comparison in comparisons {
            for row in comparison.rows where row.change != nil { grouped[row.id, default: []].append(row) }
        }
        var perSeries: [String: Double] = [:]
        var entries: [Entry] = []
        for (id, rows) in grouped.sorted(by: { $0.key < $1.key }) {
            let offsets = rows.map { abs($0.change!.value - 1) }.sorted()
            let band = max(floor, Quantile.percentile(sorted: offsets, 95))
            let halfWidths = rows.map { ($0.change!.upper - $0.change!.lower) / 2 }.sorted()
            perSeries[id.storageKey] = (band * 1_000).rounded(.up) / 1_000
            entries.append(
                Entry(
                    id: id, falseAlarms: rows.filter { $0.verdict == .regressed || $0.verdict == .improved }.count,
                    repeats: rows.count, band: perSeries[id.storageKey]!,
                    resolvableChange: Quantile.percentile(sorted: halfWidths, 50) + perSeries[id.storageKey]!))
        }
        bands = NoiseBands(defaultRelative: defaultBand, perSeries: perSeries)
        self.entries = entries
    }
}
