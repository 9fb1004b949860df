import Foundation

/// Noise bands: defaults, or a calibrated file for this machine.
public enum NoiseBandsFile {
    /// Bands for paired ABBA comparisons without calibration: ±1%. Pairs within one session see no
    /// drift between runs; a small calibration on a 2-core VM (`perfkit calibrate --rounds 4
    /// --repeats 2 --filter historyLayout`) measured A/A bands of 0.5 to 1.2% for the 1- to 30-day
    /// layouts and 2.1 to 2.5% for the 90-day one. A band close to the change one wants to catch
    /// makes the CI gate a coin toss: with ±2%, an injected 3% slowdown was detected in 16 to 20 of
    /// 20 repeats, with ±1% in 20 of 20 (A/A: 0 of 20 either way). Series noisier than ±1% stay
    /// mostly inconclusive, not flagged, because the CI must clear the band.
    public static let pairedDefault = NoiseBands(defaultRelative: 0.01)

    /// The calibrated bands of this machine (`.perfkit/noise/<fingerprint>.json`, written by `perfkit calibrate`), or `fallback`.
    /// - Parameters:
    ///   - path: A file given on the command line, or nil for this machine's default file.
    ///   - machine: This machine's fingerprint.
    ///   - fallback: The bands when there is no calibration.
    /// - Returns: The bands.
    /// - Throws: ``FileError`` for a missing file that was asked for, or a corrupt one.
    public static func load(_ path: String?, machine: MachineFingerprint, default fallback: NoiseBands = NoiseBands()) throws -> NoiseBands {
        let file = path ?? defaultPath(machine)
        guard FileManager.default.fileExists(atPath: file) else {
            if path != nil { throw FileError(file, "no such noise-band file") }
            return fallback
        }
        return try StoredFile.read(StoredBands.self, from: file, supportedVersions: 1...NoiseCalibration.schemaVersion).bands
    }

    /// Where `perfkit calibrate` writes this machine's bands.
    /// - Parameter machine: The machine's fingerprint.
    /// - Returns: `.perfkit/noise/<fingerprint>.json`.
    public static func defaultPath(_ machine: MachineFingerprint) -> String { ".perfkit/noise/\(machine.identifier).json" }

    /// The part of a calibration file a comparison needs: its bands (the same in versions 1 and 2).
    struct StoredBands: Decodable, ValidatedOnLoad {
        var bands: NoiseBands
        func validationProblem() -> String? {
            let all = [bands.defaultRelative] + Array(bands.relative.values) + Array(bands.perSeries.values)
            return all.first { !$0.isFinite || $0 < 0 }.map { "band \($0) is not a finite, non-negative number" }
        }
    }
}
