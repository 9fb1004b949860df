import Foundation
import PerfKitCore

/// How a counting run starts its processes.
///
/// The fixed environment, the countable copy of the bundle, the tests it lists, the order it runs them in, and the
/// heap-shifted check that can follow a first process.
extension CountingRun {
    /// `processes` with the costliest tests first, as earlier results (`costs`) say.
    ///
    /// A test's cost is what its samples counted (instructions) or, without counts, took (the wall clock), summed over
    /// its series (a parameterized test's cases together); a test they do not name goes first, the rest keep their
    /// order. On two cores a long test started last ends alone (the calendar suite's scroll, 26 s, started after 53 s,
    /// ended the run at 79 s).
    package static func longestFirst(_ processes: [CountingProcess], costs: [TestResult]) -> [CountingProcess] {
        guard !costs.isEmpty else { return processes }
        // Counted instructions when the results have them, else the wall clock: one unit for every test.
        let series = costs.flatMap(\.measurements).flatMap(\.series)
        let metric =
            series.contains { $0.metric.name == Metric.instructions.name } ? Metric.instructions : Metric.wallClock
        func cost(_ id: String) -> Double {
            let matching = costs.filter { ($0.testCase?.function ?? $0.id) == id }
            guard !matching.isEmpty else { return .infinity }
            return matching.flatMap(\.measurements).flatMap(\.series).filter { $0.metric.name == metric.name }
                .reduce(0) { $0 + $1.values.reduce(0, +) }
        }
        let known = Dictionary(uniqueKeysWithValues: Set(processes.map(\.id)).map { ($0, cost($0)) })
        return processes.enumerated().sorted { x, y in
            let (cx, cy) = (known[x.element.id] ?? 0, known[y.element.id] ?? 0)
            return cx != cy ? cx > cy : x.offset < y.offset
        }.map(\.element)
    }

    /// The progress line announcing the heap-shifted checks.
    ///
    /// Why (the runtime's shared lookups, or a heap that could not be pinned, with the reason the process gave).
    static func checkLine(_ outcomes: [CountingProcess.Outcome], checks: Int, of tests: Int) -> String {
        let unpinned = outcomes.compactMap(\.heapUnpinned)
        let lookups = outcomes.filter { $0.needsShiftCheck && $0.heapUnpinned == nil }
        var reasons: [String] = []
        if let reason = unpinned.first {
            reasons.append(
                "\(unpinned.count) of \(tests) tests could not pin the measured thread's heap (\(reason)), so their "
                    + "addresses move between runs")
        }
        if !lookups.isEmpty {
            reasons.append("\(lookups.count) of \(tests) tests use the Swift runtime's shared lookups")
        }
        let placement = CountingProcess.loader == nil ? "" : " and the bundle loaded at another address"
        return "perfkit run: \(reasons.joined(separator: "; ")); counted \(checks == 1 ? "it" : "them") once more "
            + "with the harness's heap shifted" + placement
    }

    /// The counting processes' whole environment: fixed, so counts do not depend on the caller's.
    static func countingEnvironment(root: String, countSamples: Int?, extra: [String: String]) -> [String: String] {
        var environment = [
            "PATH": "/usr/bin:/bin", "HOME": "/tmp", "LC_ALL": "C", "SWIFT_DETERMINISTIC_HASHING": "1",
            // Every symbol bound at start-up: a lazily bound call would count the dynamic linker's
            // resolution in whichever sample first made it.
            "LD_BIND_NOW": "1",
            "LD_PRELOAD": root + "/shim.so",
            // A body that crashes under valgrind must end the process: Swift's backtracer, started on a crash, ran on
            // as an orphan holding perfkit's standard error (an `abort()` hung `--counts-only` for minutes).
            "SWIFT_BACKTRACE": "enable=no",
            // jemalloc returns dirty pages on a timer (decay): under valgrind, 50× slower, whether a
            // purge falls inside a sample depends on the machine's load, and counts moved by up to
            // 0.6% between runs of one binary. Without decay the allocator's work is the same each run.
            // The thread cache off for every thread but the measured one (``PinnedHeap``), so a block
            // of the pinned heap freed elsewhere goes back to it at once, never at a flush's moment.
            "MALLOC_CONF": "dirty_decay_ms:-1,muzzy_decay_ms:-1,tcache:false",
            MeasuredProcessEnvironment.mode: MeasuredProcessEnvironment.measureMode,
        ]
        if let countSamples { environment[MeasuredProcessEnvironment.countSamples] = String(countSamples) }
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// The harness's heap shift of a second process (``shiftCheck(of:_:root:)``).
    package static let checkPad = 11

    /// The share of a sample spent in the runtime's shared lookups from which a test gets a second, heap-shifted
    /// process: 1%.
    ///
    /// In two counting runs of one calendar binary the series above it moved (the journal append 7.9% there, the view
    /// switch 27%, the playback redraw 19%, the varied layout 2.4%) and those below it repeated exactly or within
    /// 0.0004% (the artwork cache, 0.15–0.21%; the history layouts, 0.29–0.81%, identical).
    package static let runtimeLookupThreshold = 0.01

    /// The second process of a test, with the harness's heap shifted and the bundle loaded elsewhere.
    ///
    /// The second process, the harness's heap shifted by ``checkPad`` and the bundle loaded at another
    /// address (``CountingProcess/loadsElsewhere``), of a test whose first process
    /// spent more than ``runtimeLookupThreshold`` of a sample in the runtime's shared lookups, or
    /// could not pin the measured thread's heap (``SampleSeries/heapUnpinned``); nil for any other.
    static func shiftCheck(of process: CountingProcess, _ outcome: CountingProcess.Outcome, root: String)
        -> CountingProcess?
    {
        guard outcome.needsShiftCheck else { return nil }
        return CountingProcess(
            test: process.test, id: process.id, pad: checkPad,
            folder: root + CountingProcess.folderName(process.test, checkPad), placement: 1)
    }

    /// The bundle's test IDs that `filter` matches (Swift Testing's `--list-tests`, matched here
    /// because listing ignores `--filter`).
    static func testIDs(bundle: String, directory: String, matching filter: String) throws -> [String] {
        let (status, output) = try ChildProcess.run(
            [bundle, "--testing-library", "swift-testing", "--list-tests"], in: directory)
        guard status == 0 else {
            throw OrchestrationError.childFailed("cannot list the tests of \(bundle) (status \(status))")
        }
        let pattern: NSRegularExpression
        do { pattern = try NSRegularExpression(pattern: filter) } catch {
            throw OrchestrationError.badFilter(filter)
        }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init).filter { id in
            pattern.firstMatch(in: id, range: NSRange(id.startIndex..., in: id)) != nil
        }
    }

    /// Puts at `path` the bundle valgrind counts.
    ///
    /// A copy without debug sections (`objcopy --strip-debug`; the symbol table stays, so dumps still name every
    /// function). valgrind 3.19's DWARF reader gives up on some Swift bundles ("Possibly corrupted debuginfo file …
    /// Giving up"), and counting needs function names, not line tables; the code is byte for byte the bundle's, so
    /// counts are the same. Resource bundles (and Swift Build's test libraries) beside it are linked beside the copy.
    /// Without `objcopy` the bundle itself
    /// is linked, and the progress line says so.
    static func countableCopy(of bundle: String, at path: String, progress: (String) -> Void) throws {
        // No objcopy: the unstripped copy is used, and valgrind reads its debug sections.
        let stripped = try? ChildProcess.runKeepingErrors(["objcopy", "--strip-debug", bundle, path])
        if stripped?.status != 0 {
            FileManager.default.removeLitter(atPath: path)
            progress(
                "perfkit run: objcopy (apt-get install binutils) could not strip the bundle's debug sections; counting "
                    + "the bundle as built"
            )
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: bundle)
        }
        let folder = URL(fileURLWithPath: bundle).deletingLastPathComponent().path
        let beside = URL(fileURLWithPath: path).deletingLastPathComponent().path
        // Resource bundles, and Swift Build's test code beside its runner (`<Target>.so`, which the runner loads from
        // its own folder) and its `PackageFrameworks`.
        for item in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where item.hasSuffix(".resources") || item.hasSuffix(".so") || item == "PackageFrameworks" {
            // A library is stripped as the bundle is (valgrind's DWARF reader gave up on Swift Build's `LibTests.so`).
            if item.hasSuffix(".so"),
                // No strip tool for the library: valgrind reads it unstripped.
                (try? ChildProcess.runKeepingErrors(
                    ["objcopy", "--strip-debug", folder + "/" + item, beside + "/" + item]))?.status == 0
            {
                continue
            }
            // An existing link from an earlier copy serves as well.
            try? FileManager.default.createSymbolicLink(
                atPath: beside + "/" + item, withDestinationPath: folder + "/" + item)
        }
    }
}
