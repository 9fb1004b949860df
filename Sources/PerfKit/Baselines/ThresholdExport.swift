import Foundation
import PerfKitCore

/// A run written back as package-benchmark's static thresholds: `<toolchain>/<Target>.<Benchmark>.p90.json`.
///
/// The inverse of ``PackageBenchmarkThresholds``: per measurement (its test's module as `<Target>`, its name as
/// `<Benchmark>`), the p90 of the first arm's warm series (else its first phase) of every metric package-benchmark
/// names, rounded up to a whole number, so `perfkit check --thresholds DIR` of the same run passes. After a
/// regression, writing the run again and `git diff` of the folder is what a reviewer pastes (as the Swift
/// organisation's `check-benchmark-thresholds.sh` does).
public struct ThresholdExport: Sendable, Equatable {
    /// One file: its path relative to the output folder, and its JSON.
    public struct File: Sendable, Equatable {
        /// `<toolchain>/<Target>.<Benchmark>.p90.json`.
        public var path: String
        /// Metric name to limit, as package-benchmark writes them.
        public var limits: [String: Int]
        /// The file's text: sorted keys, pretty, as package-benchmark writes it.
        public var text: String {
            let lines = limits.keys.sorted().map { "  \"\($0)\" : \(limits[$0]!)" }
            return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
        }
    }

    /// The files, in test order.
    public var files: [File]
    /// Measurements not written, with why (a name a file cannot carry, a benchmark written already).
    public var skipped: [String]

    /// package-benchmark's name for each PerfKit metric it has.
    public static let packageBenchmarkNames: [String: String] = Dictionary(
        uniqueKeysWithValues: PackageBenchmarkThresholds.metricNames.map { ($0.value.name, $0.key) })

    /// The toolchain folder a run's thresholds go in: the Swift version's major and minor (`6.3`).
    public static func toolchainFolder(swiftVersion: String) -> String {
        PackageBenchmarkThresholds.versionCandidates(swiftVersion).dropFirst().first
            ?? PackageBenchmarkThresholds.versionNumber(swiftVersion)
    }

    /// The thresholds of `run`.
    public init(_ run: RunFile) {
        let folder = Self.toolchainFolder(swiftVersion: run.environment.swiftVersion)
        files = []
        skipped = []
        var written: Set<String> = []
        for test in run.tests {
            let target = String(test.id.prefix { $0 != "." })
            for measurement in test.measurements {
                let name = "\(target).\(measurement.name)"
                // A name with a path separator, a control character or no target cannot be one file name.
                guard !target.isEmpty, !measurement.name.isEmpty, !name.contains("/"),
                    !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
                else {
                    skipped.append("\(FileError.shown(test.id)) \(FileError.shown(measurement.name)): not a file name")
                    continue
                }
                guard written.insert(name).inserted else {
                    skipped.append(
                        "\(FileError.shown(name)) in \(FileError.shown(test.id)): written from an earlier test")
                    continue
                }
                guard let arm = measurement.arms.first else { continue }
                let phase = measurement.phases.contains(.warm) ? .warm : measurement.phases.first ?? .warm
                var limits: [String: Int] = [:]
                for series in measurement.series where series.arm == arm && series.phase == phase {
                    guard let key = Self.packageBenchmarkNames[series.metric.name], !series.values.isEmpty,
                        // No finite sample: the series gets no threshold.
                        let p90 = try? Quantile.percentile(series.values, 90), p90.isFinite, p90 >= 0,
                        p90 < PackageBenchmarkThresholds.largestLimit
                    else { continue }
                    limits[key] = Int(p90.rounded(.up))
                }
                if !limits.isEmpty { files.append(File(path: "\(folder)/\(name).p90.json", limits: limits)) }
            }
        }
    }

    /// Writes every file under `root`, each atomically, making the toolchain folder.
    /// - Throws: ``FileError`` naming the file that could not be written.
    public func write(to root: String) throws(FileError) {
        for file in files {
            let path = root + "/" + file.path
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch { throw FileError(folder, "cannot create the folder: \(error.localizedDescription)") }
            try StoredFile.writeAtomically(Data(file.text.utf8), to: path)
        }
    }
}
