/// How a counting run's processes were set up, field by field, as a run file records it.
///
/// Counts are compared only between runs of one setup. Each field is one decision that can move a count (the heap,
/// what is left out of the count, the process's settings), a typed value, so a comparison of two setups names the
/// fields that differ and rewording a report never makes another setup: the phrases live in ``description`` alone.
/// Run files before schema 7 recorded the setup as one sentence, and schema 7 each field as a phrase; both are read
/// back as the setup they describe, or kept as written (``recordedSentence``) when this PerfKit knows none that reads
/// so.
public struct CountingSetup: Sendable, Equatable, Codable, CustomStringConvertible {
    /// What is counted.
    public enum Counter: String, Sendable, Codable, CaseIterable {
        /// Callgrind's `Ir`: instructions executed, simulated.
        case callgrindIr
    }

    /// Where the measured thread's allocations come from.
    public enum Heap: String, Sendable, Codable, CaseIterable {
        /// A measured thread over pinned jemalloc arenas (``PinnedHeap``): one process per test.
        case pinned
        /// The heap not pinned: every test gets a second process with the heap shifted.
        case unpinned
    }

    /// Work inside a sample that a count leaves out.
    public enum UncountedWork: String, Sendable, Codable, CaseIterable {
        /// The runtime's cache probes (finds, and the metadata cache's getOrInsert).
        case runtimeCacheProbes
        /// The harness's own frames around the body.
        case harnessFrames
    }

    /// A counting process's setting that keeps counts still.
    public enum ProcessSetting: String, Sendable, Codable, CaseIterable {
        /// Swift Testing's backtrace of each thrown error off.
        case thrownErrorBacktraceOff
        /// jemalloc's decay off.
        case jemallocDecayOff
        /// Symbols bound at start-up.
        case symbolsBoundAtStartUp
        /// Address-space layout randomisation off.
        case aslrOff
        /// Swift's deterministic hashing.
        case deterministicHashing
    }

    /// What is counted.
    public var counter: Counter
    /// Samples per arm and phase in each counting process (recorded as run; not a difference of setups).
    public var samplesPerArmAndPhase: Int
    /// Where the measured thread's allocations come from.
    public var heap: Heap
    /// Work inside a sample that the count leaves out.
    public var uncounted: Set<UncountedWork>
    /// The counting process's settings that keep counts still.
    public var processSettings: Set<ProcessSetting>
    /// How a test's second process is placed (the check of a count that follows addresses).
    public var checks: CheckPlacement
    /// An older run file's setup that matches none this PerfKit knows; the other fields then mean nothing.
    public var recordedSentence: String? = nil

    /// Creates a setup from its fields.
    /// - Parameters:
    ///   - counter: What is counted.
    ///   - samplesPerArmAndPhase: Samples per arm and phase.
    ///   - heap: Where the measured thread's allocations come from.
    ///   - uncounted: Work a count leaves out.
    ///   - processSettings: The counting process's settings.
    ///   - checks: How a test's second process is placed.
    public init(
        counter: Counter = .callgrindIr, samplesPerArmAndPhase: Int, heap: Heap,
        uncounted: Set<UncountedWork> = Set(UncountedWork.allCases),
        processSettings: Set<ProcessSetting> = Set(ProcessSetting.allCases), checks: CheckPlacement
    ) {
        self.counter = counter
        self.samplesPerArmAndPhase = samplesPerArmAndPhase
        self.heap = heap
        self.uncounted = uncounted
        self.processSettings = processSettings
        self.checks = checks
    }

    /// The setup as one sentence, as run files before schema 7 recorded it and reports show it.
    public var description: String {
        if let recordedSentence { return recordedSentence }
        let parts =
            [counter.phrase, heap.processesPhrase, "\(samplesPerArmAndPhase) samples per arm and phase", heap.phrase]
            + UncountedWork.allCases.filter(uncounted.contains).map(\.phrase)
            + ProcessSetting.allCases.filter(processSettings.contains).map(\.phrase) + [checks.phrase]
        return parts.joined(separator: ", ")
    }

    /// The setup as one sentence (``description``).
    public var sentence: String { description }

    /// The names of the fields in which `other` differs from this setup, in declaration order.
    ///
    /// The samples per arm and phase are recorded as run but are not a difference: a count per call does not depend
    /// on how many calls were counted.
    /// - Parameter other: The other run's setup.
    /// - Returns: Field names (`heap`, `uncounted work`, …); `recorded setup` when either is an unknown older one.
    public func differences(from other: CountingSetup) -> [String] {
        if recordedSentence != nil || other.recordedSentence != nil {
            return sentence == other.sentence ? [] : ["recorded setup"]
        }
        let fields: [(String, Bool)] = [
            ("counter", counter == other.counter), ("heap", heap == other.heap),
            ("uncounted work", uncounted == other.uncounted),
            ("process settings", processSettings == other.processSettings), ("checks", checks == other.checks),
        ]
        return fields.filter { !$0.1 }.map(\.0)
    }
}
