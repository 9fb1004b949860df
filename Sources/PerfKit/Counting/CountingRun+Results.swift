import Foundation
import PerfKitCore

/// What a counting run's processes leave.
///
/// Their results joined per test, their dumps renumbered into one folder, and each count series' profile read from
/// those dumps.
extension CountingRun {
    /// The processes' tests in the processes' order, whatever order they finished in.
    ///
    /// Dump numbers and results do not depend on the number of jobs. Each test's processes are joined, their dumps
    /// moved
    /// into `dumps` and renumbered; the worst exit status comes with them.
    static func gather(_ processes: [CountingProcess], _ outcomes: [CountingProcess.Outcome], dumps: String)
        -> (tests: [TestResult], worst: Int32)
    {
        var tests: [TestResult] = []
        var worst: Int32 = 0
        var offset = 0
        // Each test's processes together, in test order, the first process first.
        let order = processes.indices.sorted { (processes[$0].test, $0) < (processes[$1].test, $1) }
        var byTest: [[TestResult]] = []
        for (position, k) in order.enumerated() {
            let (process, outcome) = (processes[k], outcomes[k])
            worst = max(worst, outcome.status)
            var counted = outcome.tests
            let highest = offsetDumps(&counted, by: offset)
            for n in 1...max(1, highest) {
                // A dump that cannot be moved is missing from the kept files; its count is in the run file.
                try? FileManager.default.moveItem(
                    atPath: "\(process.folder)/callgrind.out.\(n)", toPath: "\(dumps)/callgrind.out.\(n + offset)")
            }
            offset += highest
            byTest.append(counted)
            if position + 1 == order.count || processes[order[position + 1]].test != process.test {
                tests += Self.joined(byTest)
                byTest = []
            }
        }
        return (tests, worst)
    }

    /// The series whose bodies started threads, named for a progress line.
    static func threadedSeries(_ tests: [TestResult]) -> [String] {
        tests.flatMap { test in
            test.measurements.flatMap { m in
                m.series.filter { ($0.threadsStarted?.max() ?? 0) > 0 }.map {
                    "\(test.id) \(m.name) [\($0.phase.identifier)]"
                }
            }
        }
    }

    /// The processes of one test as one result.
    ///
    /// Values labelled by process, the dump numbers of every process, the first process's profile and budgets
    /// (`merging` would list each budget once per pass).
    static func joined(_ passes: [[TestResult]]) -> [TestResult] {
        var merged = [TestResult].merging(processes: passes)
        for t in merged.indices {
            if let original = passes.first?.first(where: { $0.id == merged[t].id }) {
                merged[t].budgets = original.budgets
            }
        }
        return merged
    }

    /// Adds `offset` to every dump number of `tests` and returns the highest number before the offset.
    ///
    /// Adds `offset` to every dump number of `tests` (so one process's dumps join the run's folder
    /// under numbers of their own) and returns the highest number before the shift.
    static func offsetDumps(_ tests: inout [TestResult], by offset: Int) -> Int {
        var highest = 0
        for t in tests.indices {
            for m in tests[t].measurements.indices {
                for k in tests[t].measurements[m].series.indices {
                    guard let numbers = tests[t].measurements[m].series[k].callgrindDumps else { continue }
                    highest = max(highest, numbers.max() ?? 0)
                    tests[t].measurements[m].series[k].callgrindDumps = numbers.map { $0 + offset }
                }
            }
        }
        return highest
    }

    /// Where a run file's callgrind dumps are kept: `<run file without .json>.callgrind/`.
    /// - Parameter runFile: The run file's path.
    /// - Returns: The folder's path.
    package static func dumpFolder(besides runFile: String) -> String {
        (runFile.hasSuffix(".json") ? String(runFile.dropLast(5)) : runFile) + ".callgrind"
    }

    /// Adds each count series' profile, read from its dumps, with Swift names demangled.
    /// - Returns: The tests with profiles, and the largest share of a dump spent in the runtime's
    ///   shared lookups (``CallgrindDump/runtimeLookupShare``), from the same parsed dumps.
    static func profiled(_ tests: [TestResult], dumps folder: String) -> (
        tests: [TestResult], runtimeLookupShare: Double
    ) {
        var parsed: [Int: CallgrindDump] = [:]
        for test in tests {
            for measurement in test.measurements {
                for series in measurement.series {
                    for dump in series.callgrindDumps ?? [] where parsed[dump] == nil {
                        if let data = FileManager.default.contents(atPath: "\(folder)/callgrind.out.\(dump)") {
                            parsed[dump] = CallgrindDump(parsing: String(decoding: data, as: UTF8.self))
                        }
                    }
                }
            }
        }
        var names = Set<String>()
        for dump in parsed.values { names.formUnion(dump.functionNames) }
        let demangled = SimplifiedDemangler.demangle(Array(names))
        let share = parsed.values.map(\.runtimeLookupShare).max() ?? 0
        let profiledTests = tests.map { test in
            var test = test
            for m in test.measurements.indices {
                for s in test.measurements[m].series.indices {
                    let series = test.measurements[m].series[s]
                    guard let numbers = series.callgrindDumps else { continue }
                    test.measurements[m].series[s].profile = CallgrindDump.profile(
                        numbers.compactMap { parsed[$0] }, demangle: demangled)
                }
            }
            return test
        }
        return (profiledTests, share)
    }
}

extension [TestResult] {
    /// These results with a counting run's simulated instruction series and count budgets added.
    ///
    /// These (native) results with a counting run's simulated instruction series added to the
    /// matching measurements, and its count budgets replacing the "not judged, run with counts" ones.
    /// - Parameter counted: The counting run's results.
    /// - Returns: The merged results; a test only the counting run has is added as it is.
    package func addingCounts(_ counted: [TestResult]) -> [TestResult] {
        var merged = self
        for test in counted {
            guard let index = merged.firstIndex(where: { $0.id == test.id }) else {
                merged.append(test)
                continue
            }
            for measurement in test.measurements {
                if let m = merged[index].measurements.firstIndex(where: { $0.name == measurement.name }) {
                    merged[index].measurements[m].series.removeAll { $0.metric.isCounted }
                    merged[index].measurements[m].series += measurement.series.filter(\.metric.isCounted)
                    if let more = measurement.fallbacks {
                        merged[index].measurements[m].fallbacks = (merged[index].measurements[m].fallbacks ?? []) + more
                    }
                    merged[index].measurements[m].unavailable.removeAll { Metric.counted.contains($0.metric) }
                    // Why the counting run could not count it, when it says so.
                    merged[index].measurements[m].unavailable += measurement.unavailable.filter {
                        Metric.counted.contains($0.metric)
                    }
                } else {
                    merged[index].measurements.append(measurement)
                }
            }
            let countBudgets = Set(test.budgets.map(\.metric))
            merged[index].budgets = merged[index].budgets.filter { !countBudgets.contains($0.metric) } + test.budgets
        }
        return merged
    }
}

extension CountingRun {
    /// Moves a counting run's callgrind files from its folder `dumps` to `<run file>.callgrind/` beside `output`.
    ///
    /// The raw files stay beside the run file (callgrind_annotate, KCachegrind), moved once: latest.json's copy would
    /// double megabytes of dumps, and the profiles a comparison needs are in the run file itself. A run written to
    /// standard output or a device keeps none. The run's folder is removed either way; an older copy is replaced.
    /// - Parameters:
    ///   - dumps: The folder ``measure(_:progress:)`` gathered the dumps in; nil when the run kept none.
    ///   - output: The run file's path.
    /// - Returns: The folder the dumps are kept in, nil when none were.
    /// - Throws: `CocoaError` when they cannot be copied.
    package static func keepDumps(_ dumps: String?, beside output: String) throws -> String? {
        guard let dumps else { return nil }
        defer {
            // The run's own scratch folder: gone already is what is wanted.
            try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: dumps).deletingLastPathComponent().path)
        }
        guard OutputPath.takesCompanions(output) else { return nil }
        let folder = dumpFolder(besides: output)
        FileManager.default.removeLitter(atPath: folder)  // an older run's dumps, or none
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: folder).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: dumps, toPath: folder)  // /tmp may be another file system
        return folder
    }
}
