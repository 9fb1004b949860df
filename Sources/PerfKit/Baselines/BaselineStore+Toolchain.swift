import Foundation
import PerfKitCore

/// Baselines kept per toolchain, side by side.
///
/// `perfkit baseline save NAME --per-toolchain` saves under `NAME.swift-6.3` (the run's Swift major and minor), and
/// `compare NAME` uses the baseline of the current run's toolchain when there is one (`NAME.swift-6.3.1`, then
/// `NAME.swift-6.3`, then `NAME.swift-6`), else `NAME` itself, whose toolchain the comparison then names if it differs.
extension BaselineStore {
    /// The name a baseline of `name` takes for the toolchain of `swiftVersion`.
    /// - Parameters:
    ///   - name: The baseline's name.
    ///   - swiftVersion: A `swift --version` line, as an environment records it.
    /// - Returns: `NAME.swift-MAJOR.MINOR`.
    public static func perToolchainName(_ name: String, swiftVersion: String) -> String {
        let names = PackageBenchmarkThresholds.versionCandidates(swiftVersion)
        return "\(name).swift-\(names.dropLast().last ?? names[0])"  // MAJOR.MINOR
    }

    /// The baseline to compare a run of `swiftVersion` against.
    ///
    /// `name`'s per-toolchain baseline for that toolchain when one is stored, most specific first, else `name`.
    /// - Parameters:
    ///   - name: The baseline asked for.
    ///   - swiftVersion: The run's `swift --version` line.
    /// - Returns: The stored name to load.
    public func resolve(_ name: String, swiftVersion: String) -> String {
        let stored = Set(list())
        return PackageBenchmarkThresholds.versionCandidates(swiftVersion).map { "\(name).swift-\($0)" }
            .first(where: stored.contains) ?? name
    }

    /// A note when `baseline` was saved with another toolchain than the run's, or nil.
    /// - Parameters:
    ///   - baseline: The baseline's name and environment.
    ///   - current: The run's environment.
    /// - Returns: One line naming both toolchains and what is not judged.
    public static func toolchainNote(baseline: Baseline, current: Environment) -> String? {
        let (saved, now) = (
            PackageBenchmarkThresholds.versionNumber(baseline.environment.swiftVersion),
            PackageBenchmarkThresholds.versionNumber(current.swiftVersion)
        )
        guard saved != now else { return nil }
        return "another toolchain: \(baseline.name) was saved with Swift \(saved), this run is Swift \(now); counts "
            + "are not judged across toolchains, nor times without --allow-other-machine (perfkit baseline save "
            + "NAME --per-toolchain keeps one baseline per toolchain)"
    }
}
