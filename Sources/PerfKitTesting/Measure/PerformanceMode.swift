import Foundation
import PerfKitCore

/// Smoke mode (plain `swift test`) or measure mode (`perfkit run`), read from the environment.
///
/// - `PERFKIT_MODE=measure` selects measure mode;
/// - `PERFKIT_RESULTS_DIR` is where measured tests write their results;
/// - `PERFKIT_SAMPLES` (formerly `PERFKIT_ITERATIONS`, still read) overrides every test's samples in a timing run,
///   a total as the test's own is;
/// - `PERFKIT_COUNT_SAMPLES` overrides the samples per arm and phase in a counting process;
/// - `PERFKIT_PROCESSES` (set by `perfkit run --processes N`) says the run is split over N fresh
///   processes: each runs its share of the samples (``RunConfiguration/share(of:processes:)``);
/// - `PERFKIT_PROCESS_INDEX` (0 to N − 1) says which one this is: only the first runs the exact
///   allocation count pass, whose counts are the same in every process;
/// - `PERFKIT_EXACT_COUNTS=elsewhere` (set by `perfkit abba` after its first ABBA block) says other
///   processes of the session took the exact counts: this one skips the pass and keeps every round.
public struct PerformanceMode: Sendable, Equatable {
    /// What this process does: smoke, measure or count.
    public var kind: MeasurementMode
    /// `true` in measure mode and in a counting process (which is measure mode under callgrind).
    @available(*, deprecated, message: "use kind (.measure or .count)")
    public var isMeasuring: Bool { kind != .smoke }
    /// The build configuration of the measured code.
    public var buildConfiguration: String
    /// Where results go, if anywhere.
    public var resultsDirectory: String?
    /// Samples forced from the command line on a timing run (`--samples`, `PERFKIT_SAMPLES`), a total.
    public var sampleOverride: Int?
    /// Samples per arm and phase forced on a counting process (`--count-samples`, `PERFKIT_COUNT_SAMPLES`).
    public var countSampleOverride: Int?
    /// Fresh processes the run is split over (1 for a single process).
    public var processes: Int
    /// This process's index among them (0 for the first or only one).
    public var processIndex: Int
    /// Whether another process of the same session takes the exact counts (`PERFKIT_EXACT_COUNTS=elsewhere`).
    public var exactCountsElsewhere: Bool

    /// Creates a mode explicitly (tests and tools; tests normally use ``current``).
    public init(
        kind: MeasurementMode, buildConfiguration: String, resultsDirectory: String?, sampleOverride: Int?,
        processes: Int = 1, processIndex: Int = 0,
        exactCountsElsewhere: Bool = false, countSampleOverride: Int? = nil
    ) {
        self.countSampleOverride = countSampleOverride
        self.processIndex = max(0, processIndex)
        self.exactCountsElsewhere = exactCountsElsewhere
        self.kind = kind
        self.buildConfiguration = buildConfiguration
        self.resultsDirectory = resultsDirectory
        self.sampleOverride = sampleOverride
        self.processes = max(1, processes)
    }

    /// The older form of `init(kind:…)`.
    ///
    /// Measuring means ``MeasurementMode/count`` in a counting process, else ``MeasurementMode/measure``.
    @available(*, deprecated, message: "use init(kind:…)")
    public init(
        isMeasuring: Bool, buildConfiguration: String, resultsDirectory: String?, sampleOverride: Int?,
        processes: Int = 1, processIndex: Int = 0,
        exactCountsElsewhere: Bool = false, countSampleOverride: Int? = nil
    ) {
        self.init(
            kind: isMeasuring ? (SimulatedCounter.isCounting ? .count : .measure) : .smoke,
            buildConfiguration: buildConfiguration, resultsDirectory: resultsDirectory, sampleOverride: sampleOverride,
            processes: processes, processIndex: processIndex, exactCountsElsewhere: exactCountsElsewhere,
            countSampleOverride: countSampleOverride)
    }

    /// The older name of ``sampleOverride``.
    @available(*, deprecated, renamed: "sampleOverride")
    public var iterationOverride: Int? {
        get { sampleOverride }
        set { sampleOverride = newValue }
    }

    /// Samples per arm and phase in a counting run (simulated instructions), unless forced
    /// (``SimulatedCounter/samplesPerArmAndPhase``).
    public static let countingSamples = SimulatedCounter.samplesPerArmAndPhase

    /// Rounds used in smoke mode.
    public static let smokeRounds = 3

    /// The mode of this process.
    public static var current: PerformanceMode {
        // One variable at a time: this runs on the measured thread, whose heap must not follow the
        // rest of the environment (``ProcessEnvironment``).
        let environment = ProcessEnvironment.value
        let measuring = environment(MeasuredProcessEnvironment.mode) == MeasuredProcessEnvironment.measureMode
        return PerformanceMode(
            kind: measuring ? (SimulatedCounter.isCounting ? .count : .measure) : .smoke,
            buildConfiguration: Environment.currentBuildConfiguration,
            resultsDirectory: environment(MeasuredProcessEnvironment.resultsDirectory),
            sampleOverride: (environment(MeasuredProcessEnvironment.samples)
                ?? environment(MeasuredProcessEnvironment.deprecatedIterations)).flatMap(
                    Int.init),
            processes: environment(MeasuredProcessEnvironment.processes).flatMap(Int.init) ?? 1,
            processIndex: environment(MeasuredProcessEnvironment.processIndex).flatMap(Int.init) ?? 0,
            exactCountsElsewhere: environment(MeasuredProcessEnvironment.exactCounts)
                == MeasuredProcessEnvironment.exactCountsElsewhere,
            countSampleOverride: environment(MeasuredProcessEnvironment.countSamples).flatMap(Int.init))
    }

    /// Whether this process skips the exact-count pass because another process of the run takes it.
    ///
    /// The other process is the first of a split run, or the first ABBA block of a session; its budgets on exact
    /// counts are judged there, not here.
    /// A counting run (under callgrind) always leaves them to the native processes.
    public var leavesExactCountsToAnotherProcess: Bool {
        kind == .count || (kind == .measure && ((processes > 1 && processIndex > 0) || exactCountsElsewhere))
    }

    /// A name for reports: `count` (a counting run under callgrind), `measure` or `smoke`.
    public var name: String { kind.rawValue }

    /// Why time budgets cannot be judged in this mode, or `nil` when they can.
    public var timeJudgementBlocker: String? {
        if kind == .smoke {
            return "smoke mode (few samples under a plain `swift test`); run `perfkit run` to judge it"
        }
        if buildConfiguration != "release" { return "debug build; timings are judged only in a release measuring run" }
        return nil
    }

    /// The configuration to run with, given the test's declared one.
    ///
    /// In measure mode the forced samples or this process's share of a split run, and the exact-count rounds this
    /// process takes; in smoke mode a few rounds.
    /// - Parameter declared: The test's own configuration.
    /// - Returns: The configuration this process runs.
    public func configuration(from declared: RunConfiguration) -> RunConfiguration {
        var configuration = declared
        if kind == .count {
            // Counts repeat between runs: two samples per arm and phase, the process's first and one after it.
            configuration.samples = countSampleOverride ?? min(configuration.samples, Self.countingSamples)
            // The exact counts come from the native processes, unless none stands beside this one (`abba --counts`):
            // then two calls after the counted passes (``SimulatedCounter/countsAllocations``).
            configuration.exactCountRounds = SimulatedCounter.countsAllocations ? 2 : 0
            configuration.batchTargetNanoseconds = 0
        } else if kind == .measure {
            configuration.samples = RunConfiguration.share(
                of: sampleOverride ?? configuration.samples, processes: processes)
            // Exact counts are the same in every process: one round of the slow, cache-less count
            // pass in the first process is enough, and keeps the other processes' fixed cost down.
            if leavesExactCountsToAnotherProcess {
                configuration.exactCountRounds = 0
            } else if processes > 1 {
                configuration.exactCountRounds = min(configuration.exactCountRounds, 1)
            }
        } else {
            configuration.samples = min(configuration.samples, Self.smokeRounds)
            configuration.warmupCalls = min(configuration.warmupCalls, 1)
            configuration.exactCountRounds = min(configuration.exactCountRounds, 1)
            configuration.counterRounds = min(configuration.counterRounds, 1)
        }
        return configuration
    }
}

/// What a process of measured tests does, one of three.
public enum MeasurementMode: String, Sendable, CaseIterable {
    /// A plain `swift test`: a few rounds, budgets on time not judged.
    case smoke
    /// A timing process of `perfkit run` or `abba` (`PERFKIT_MODE=measure`).
    case measure
    /// A counting process: measure mode under valgrind's callgrind (`perfkit run --counts`).
    case count
}
