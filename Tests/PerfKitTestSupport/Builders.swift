import Foundation
import PerfKit
import Testing

/// Builders for the values tests make again and again: series, environments, run files.
///
/// Each takes the caller's source location where it can fail, so a failure points at the test.
package enum Build {
    /// A series of `values`, one per sample, each in the process `processes` gives it (nil: one process).
    package static func series(
        _ metric: Metric = .wallClock, values: [Double], arm: String = "main", phase: Phase = .warm,
        processes: [Int]? = nil
    ) -> SampleSeries {
        var series = SampleSeries(metric: metric, arm: arm, phase: phase)
        for (i, v) in values.enumerated() { series.append(v, round: i, position: 0, index: i) }
        series.processes = processes
        return series
    }

    /// An environment of one fixed machine, a `build` build (release by default), jemalloc.
    package static func environment(commit: String = "c", dirty: Bool = false, build: String = "release")
        -> Environment
    {
        Environment(
            commit: commit, branch: "main", dirty: dirty, swiftVersion: "6.3.1", buildConfiguration: build,
            machine: MachineFingerprint(
                cpuModel: "cpu", cores: 2, kernel: "k", operatingSystem: "os", governor: nil, memoryBytes: 1 << 34),
            allocator: "jemalloc")
    }

    /// A run of one test `id` built in `build` (`release`, `debug`) whose wall-clock series holds
    /// `values`, one sample per round.
    package static func run(build: String, values: [Double], id: String = "S/t()") -> RunFile {
        RunFile(
            date: Date(timeIntervalSince1970: 0), mode: "measure", environment: environment(build: build),
            tests: [
                TestResult(
                    id: id, suite: String(id.prefix { $0 != "/" }),
                    measurements: [
                        MeasurementResult(
                            name: "m", arms: ["main"], order: [], series: [series(values: values)], unavailable: [])
                    ])
            ])
    }

    /// One test whose series holds `values`, each from its own process (so a comparison works at the process level).
    ///
    /// Time metrics take the values as microseconds, well above the clock's resolution.
    package static func processTests(_ values: [Double], metric: Metric = .wallClock, id: String = "S/t()")
        -> [TestResult]
    {
        run(build: "release", values: values, id: id).tests.map { test in
            var t = test
            t.measurements[0].series[0].metric = metric
            if metric.unit == .nanoseconds { t.measurements[0].series[0].values = values.map { $0 * 1_000 } }
            t.measurements[0].series[0].processes = Array(values.indices)
            return t
        }
    }

    /// `count` values spread uniformly within ±`spread` of `center` (seeded, in steps of 0.1%).
    package static func noisy(_ center: Double, seed: UInt64, spread: Double = 0.01, count: Int = 30) -> [Double] {
        var g = SeededGenerator(seed: seed)
        return (0..<count).map { _ in center * (1 + spread * (Double(g.index(below: 2_001)) / 1_000 - 1)) }
    }

    /// A run file whose tests `ids` each hold one measurement `m` with one series of `values`.
    package static func run(
        commit: String = "c", ids: [String], metric: Metric = .mallocs, values: [Double], mode: String = "measure"
    ) -> RunFile {
        let tests = ids.map { id in
            TestResult(
                id: id, suite: String(id.prefix { $0 != "/" }),
                measurements: [
                    MeasurementResult(
                        name: "m", arms: ["main"], order: [], series: [series(metric, values: values)], unavailable: [])
                ])
        }
        return RunFile(
            date: Date(timeIntervalSince1970: 0), mode: mode, environment: environment(commit: commit), tests: tests)
    }

    /// A run of one parameterized test function `function` with a counted case per size.
    ///
    /// A run of one parameterized test function `function` (`S/f(n:)`) with a case per size, each
    /// a counted series of `cost(n)` instructions per call in every sample.
    package static func sizedRun(
        commit: String = "c", function: String, sizes: [Int], cost: (Double) -> Double
    ) -> RunFile {
        let tests = sizes.map { n in
            let testCase = TestCase(
                function: function, arguments: [TestCase.Argument(name: "n", value: "\(n)", number: Double(n))])
            return TestResult(
                id: testCase.id, suite: String(function.prefix { $0 != "/" }),
                measurements: [
                    MeasurementResult(
                        name: "m", arms: ["main"], order: [],
                        series: [series(.instructions, values: Array(repeating: cost(Double(n)), count: 3))],
                        unavailable: [])
                ], testCase: testCase)
        }
        return RunFile(
            date: Date(timeIntervalSince1970: 0), mode: "measure", environment: environment(commit: commit),
            tests: tests)
    }
}

/// A git repository in a folder, for tests of commands that read history.
package struct GitRepository: Sendable {
    /// Its folder.
    package var path: String

    /// Initialises `path` as a repository on `main` with `commits` empty commits.
    package init(at path: String, commits: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for command in [
            ["init", "-q", "-b", "main"], ["config", "user.email", "t@example.invalid"], ["config", "user.name", "T"],
        ] {
            try git(command, sourceLocation: sourceLocation)
        }
        for n in 0..<commits {
            try git(["commit", "-q", "--allow-empty", "-m", "commit \(n + 1)"], sourceLocation: sourceLocation)
        }
    }

    /// The commits on `main`, oldest first.
    package func commits(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        try git(["rev-list", "--reverse", "main"], sourceLocation: sourceLocation).split(separator: "\n").map(
            String.init)
    }

    /// Runs git in the repository; a failure is recorded at the caller and thrown.
    @discardableResult
    package func git(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        do { return try PerfkitProcess.runTool(["git"] + arguments, in: path) } catch {
            Issue.record("git \(arguments.joined(separator: " ")) failed in \(path)", sourceLocation: sourceLocation)
            throw error
        }
    }
}
