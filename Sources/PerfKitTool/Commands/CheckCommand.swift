import Foundation
import PerfKit
import PerfKitCommandLine

/// `perfkit check --thresholds DIR|FILE.p90.json|results.json [--current RUNFILE]`.
///
/// Gates a run against package-benchmark's per-toolchain p90 threshold files, or the p90s of one of its
/// stored baselines; prints the difference table, exits 1 when a limit is exceeded.
enum CheckCommand {
    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try Arguments(arguments, verb: "check")
        try parsed.requirePositionals(0...0)
        guard let root = parsed[.thresholds] else { throw UsageError("check needs --thresholds DIR") }
        let fraction = try tolerance(parsed) / 100
        func widened(_ thresholds: PackageBenchmarkThresholds) -> PackageBenchmarkThresholds {
            thresholds.widened(by: fraction)
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), !isFolder.boolValue,
            root.hasSuffix(".p90.json")
        {
            let thresholds = widened(try PackageBenchmarkThresholds(file: root))
            if parsed.has(.asBudgets) { return printBudgets(thresholds, folder: root) }
            return try gate(
                thresholds, against: parsed[.current] ?? RunFile.latestPath, source: root, version: nil,
                requireAll: parsed.has(.requireAll))
        }
        if FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), !isFolder.boolValue {
            // A package-benchmark baseline (`.benchmarkBaselines/<Target>/<name>/results.json`).
            let thresholds = widened(try PackageBenchmarkThresholds(baselineFile: root))
            if parsed.has(.asBudgets) { return printBudgets(thresholds, folder: root) }
            return try gate(
                thresholds, against: parsed[.current] ?? RunFile.latestPath, source: root, version: nil,
                requireAll: parsed.has(.requireAll))
        }
        try PackageBenchmarkThresholds.checkFolder(root)  // missing, a looping link, not a folder: said first
        // `Thresholds/` holds one folder per toolchain; a folder of files is used as it is.
        let hasFiles = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).contains {
            $0.hasSuffix(".p90.json")
        }
        if parsed.has(.asBudgets), hasFiles {
            return try printBudgets(widened(PackageBenchmarkThresholds(folder: root)), folder: root)
        }
        let current = parsed[.current] ?? RunFile.latestPath
        // A gate needs the run; printing budgets does not: without one, the toolchain is this machine's.
        let run =
            parsed.has(.asBudgets) && !FileManager.default.fileExists(atPath: current)
            ? nil : try RunFile.read(from: current)
        let swiftVersion = run?.environment.swiftVersion ?? (ChildProcess.output(["swift", "--version"]) ?? "")
        let version = PackageBenchmarkThresholds.versionNumber(swiftVersion)
        let folder: String
        if hasFiles {
            folder = root
        } else if let named = parsed[.toolchainFolder] {
            folder = root + "/" + named
            try PackageBenchmarkThresholds.checkFolder(folder)
        } else if let found = PackageBenchmarkThresholds.toolchainFolder(in: root, swiftVersion: swiftVersion) {
            folder = found
        } else {
            throw FileError(root, PackageBenchmarkThresholds.noToolchainFolder(in: root, version: version))
        }
        if parsed.has(.asBudgets) {
            return try printBudgets(widened(PackageBenchmarkThresholds(folder: folder)), folder: folder)
        }
        return try gate(
            widened(PackageBenchmarkThresholds(folder: folder)), against: current, source: folder, version: version,
            requireAll: parsed.has(.requireAll))
    }

    /// Checks the run file at `current` against `thresholds` and prints the difference table.
    /// - Returns: ``ExitStatus/regression`` when a limit is exceeded, else ``ExitStatus/fine``.
    static func gate(
        _ thresholds: PackageBenchmarkThresholds, against current: String, source: String, version: String?,
        requireAll: Bool
    ) throws -> Int32 {
        noteUnread(thresholds, source)
        let run = try RunFile.read(from: current)
        let check = ThresholdCheck(thresholds, tests: run.tests)
        let toolchain = version.map { ", Swift \($0)" } ?? ""
        Output.line("\(current) against \(source) (package-benchmark p90 limits\(toolchain)):")
        for line in check.tableLines { Output.line("  " + line) }
        let counts = Dictionary(grouping: check.rows, by: \.status).mapValues(\.count)
        Output.line(
            "\(counts[.passed] ?? 0) passed, \(counts[.exceeded] ?? 0) exceeded, "
                + "\(counts[.notInRun] ?? 0) not in this run")
        let checked = (counts[.passed] ?? 0) + (counts[.exceeded] ?? 0)
        let missing = counts[.notInRun] ?? 0
        if checked == 0 {
            // A gate that matched nothing must not stay green silently.
            Output.progress(
                "warning: checked nothing: no limit of \(FileError.shown(source)) names a measurement of \(current)"
                    + (requireAll ? "" : " (--require-all makes this fail)"))
        }
        if check.exceeded, !source.hasSuffix(".json") {
            // What a reviewer pastes: the limits regenerated from this run, and the difference.
            let root = URL(fileURLWithPath: source).deletingLastPathComponent().path
            Output.line("To accept this run's figures as the new limits:")
            Output.line("  perfkit export \(current) --format thresholds --output \(root) && git diff -- \(root)")
        }
        if requireAll && missing > 0 {
            Output.progress("perfkit check: \(missing) limit\(missing == 1 ? "" : "s") not in this run (--require-all)")
            return ExitStatus.regression
        }
        return check.exceeded ? ExitStatus.regression : ExitStatus.fine
    }

    /// `--tolerance PERCENT`, from 0 to 1000 (0 when not given).
    static func tolerance(_ parsed: Arguments) throws -> Double {
        let percent = try parsed.double(.tolerance, default: 0)
        guard (0...1_000).contains(percent) else {
            throw UsageError("--tolerance must be a percentage from 0 to 1000, not '\(Format.trim(percent))'")
        }
        return percent
    }

    /// Names the metrics of `source` that were skipped (no PerfKit counterpart), never refusing the folder.
    static func noteUnread(_ thresholds: PackageBenchmarkThresholds, _ source: String) {
        guard !thresholds.unreadMetrics.isEmpty else { return }
        Output.progress(
            "\(FileError.shown(source)): not read (no PerfKit counterpart): "
                + thresholds.unreadMetrics.joined(separator: ", "))
    }

    /// `--as-budgets`: each benchmark's limits as the budget traits to put on its `@Test`.
    static func printBudgets(_ thresholds: PackageBenchmarkThresholds, folder: String) -> Int32 {
        noteUnread(thresholds, folder)
        for line in thresholds.budgetSource(folder: folder) { Output.line(line) }
        return 0
    }
}
