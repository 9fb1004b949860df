import Foundation
import PerfKitCore

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

    /// The fewest A/A repeats from which a series' band is an empirical 95th percentile.
    ///
    /// With fewer, the band comes from the stated model of
    /// ``init(comparisons:machine:rounds:date:floor:defaultBand:)``.
    public static let empiricalRepeats = 20

    /// Calibrates from A/A comparisons between two builds of identical measured code.
    ///
    /// Per statistical series, with at least ``empiricalRepeats`` repeats the band is the 95th
    /// percentile of |change − 1| over them. With fewer it follows a stated model: the between-build
    /// offset is the one thing a paired session cannot average away (its rounds share the two
    /// binaries), so the band is the largest offset the A/A data allow, the 95% CI bound farthest
    /// from no change, taken over the repeats. Either way at least `floor`. The resolvable change
    /// is the median 95% CI half-width plus the band.
    /// - Parameters:
    ///   - comparisons: One paired comparison per A/A repeat.
    ///   - machine: The machine they ran on.
    ///   - rounds: Rounds per comparison.
    ///   - date: When.
    ///   - floor: The smallest band stored.
    ///   - defaultBand: The band for series not calibrated.
    /// - Complexity: O(S · K log K) for S series and K repeats.
    public init(
        comparisons: [Comparison], machine: MachineFingerprint, rounds: Int, date: Date = Date(), floor: Double = 0.005,
        defaultBand: Double = 0.01
    ) {
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
            let offsets =
                rows.count >= Self.empiricalRepeats
                ? rows.map { abs($0.change!.value - 1) }
                : rows.map { max(abs($0.change!.lower - 1), abs($0.change!.upper - 1)) }
            let band = max(
                floor,
                rows.count >= Self.empiricalRepeats ? Quantile.percentile(sorted: offsets.sorted(), 95) : offsets.max()!
            )
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

    /// What `perfkit calibrate` prints.
    ///
    /// False alarms under the default band, then each wall-clock series' band, resolvable change and false alarms, and
    /// the time it took.
    /// - Parameters:
    ///   - calibration: The calibration.
    ///   - comparisons: Its A/A comparisons.
    ///   - seconds: Wall time, builds included.
    /// - Returns: Lines of text.
    public static func summary(_ calibration: NoiseCalibration, comparisons: [Comparison], seconds: Int) -> String {
        let flagged = comparisons.filter { $0.hasRegression || $0.count(.improved) > 0 }.count
        let model =
            calibration.repeats >= empiricalRepeats
            ? "95th percentile of |change| over the repeats" : "farthest 95% CI bound of the A/A change"
        var lines = [
            "A/A between two builds: \(flagged) of \(calibration.repeats) repeats flagged a change under the default "
                + "±\(Format.trim(calibration.bands.defaultRelative * 100))% band; bands: \(model); "
                + "\(calibration.rounds) rounds a repeat, \(seconds) s with both builds"
        ]
        for entry in calibration.entries where entry.id.metric == Metric.wallClock.name {
            lines.append(
                "  \(entry.id): band ±\(Format.trim(entry.band * 100))%, resolves about "
                    + "\(Format.trim(entry.resolvableChange * 100))% with \(calibration.rounds) rounds, false alarms "
                    + "\(entry.falseAlarms)/\(entry.repeats)"
            )
        }
        return lines.joined(separator: "\n")
    }
}
