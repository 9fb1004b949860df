import Foundation
import PerfKitCore

/// Noise bands: defaults, or a calibrated file for this machine.
public enum NoiseBandsFile {
    /// Bands for paired ABBA comparisons without calibration: ±1%, the smallest change worth a verdict between two
    /// revisions measured in one session.
    ///
    /// On the 2-core VM of README's evidence a cheap subset reaches it within the default 400 rounds (A/A between two
    /// builds: 0 of 40 repeats flagged, 75 of 80 series within noise; a 3% slowdown regressed in 40 of 40), while a
    /// suite whose rounds take seconds mostly stays inconclusive within the time budget and says what change it could
    /// have seen; `perfkit calibrate` stores measured bands per series.
    public static let pairedDefault = NoiseBands(defaultRelative: 0.01)

    /// The calibrated bands of this machine (`.perfkit/noise/<fingerprint>.json`, written by `perfkit calibrate`), or
    /// `fallback`.
    /// - Parameters:
    ///   - path: A file given on the command line, or nil for this machine's default file.
    ///   - machine: This machine's fingerprint.
    ///   - fallback: The bands when there is no calibration.
    /// - Returns: The bands.
    /// - Throws: ``FileError`` for a missing file that was asked for, or a corrupt one.
    public static func load(_ path: String?, machine: MachineFingerprint, default fallback: NoiseBands = NoiseBands())
        throws -> NoiseBands
    {
        let file = path ?? defaultPath(machine)
        guard FileManager.default.fileExists(atPath: file) else {
            if path != nil { throw FileError(file, "no such noise-band file") }
            return fallback
        }
        return try StoredFile.read(StoredBands.self, from: file, supportedVersions: 1...NoiseCalibration.schemaVersion)
            .bands
    }

    /// Where `perfkit calibrate` writes this machine's bands.
    /// - Parameter machine: The machine's fingerprint.
    /// - Returns: `.perfkit/noise/<fingerprint>.json`.
    public static func defaultPath(_ machine: MachineFingerprint) -> String {
        ".perfkit/noise/\(machine.identifier).json"
    }

    /// The part of a calibration file a comparison needs: its bands (the same in versions 1 and 2).
    struct StoredBands: Decodable, ValidatedOnLoad {
        var bands: NoiseBands
        func validationProblem() -> String? {
            let all = [bands.defaultRelative] + Array(bands.relative.values) + Array(bands.perSeries.values)
            return all.first { !$0.isFinite || $0 < 0 }.map { "band \($0) is not a finite, non-negative number" }
        }
    }
}
