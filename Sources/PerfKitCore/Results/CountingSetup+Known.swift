/// The setups this PerfKit counts with.
extension CountingSetup {
    /// How a test's second process is placed.
    public enum CheckPlacement: Sendable, CaseIterable {
        /// The bundle loaded at another address (through the dynamic loader).
        case bundleElsewhere
        /// Only the harness's heap shifted (no dynamic loader to start the bundle through).
        case heapShifted

        /// The phrase a setup records.
        var phrase: String {
            switch self {
            case .bundleElsewhere: "checks with the bundle loaded at another address"
            case .heapShifted: "checks with the heap shifted (no dynamic loader to load the bundle elsewhere)"
            }
        }
    }

    /// What every counting setup leaves out of a count.
    static let uncountedWork = [
        "the runtime's cache probes uncounted (finds, and the metadata cache's getOrInsert)",
        "the harness's own frames around the body uncounted",
    ]

    /// The counting process's settings in every setup.
    static let settings = [
        "Swift Testing's backtrace of each thrown error off", "jemalloc decay off", "symbols bound at start-up",
        "ASLR off", "deterministic hashing",
    ]

    /// The setup of a counting run whose measured thread's heap is pinned (``PinnedHeap``).
    /// - Parameter checks: How a test's second process is placed.
    /// - Returns: The setup.
    public static func pinned(checks: CheckPlacement) -> CountingSetup {
        CountingSetup(
            counter: "callgrind Ir", processes: "one process per test",
            samplesPerArmAndPhase: SimulatedCounter.samplesPerArmAndPhase,
            heap: "the test on a measured thread over pinned jemalloc arenas (one per test case; other threads' caches "
                + "off, its stack at a fixed address, a runtime metadata page of its own from the test's start)",
            uncounted: uncountedWork, processSettings: settings, checks: checks.phrase)
    }

    /// The setup of a counting run whose heap could not be pinned (built without the Jemalloc trait, say).
    ///
    /// Every test then gets a second process with the heap shifted.
    /// - Parameter checks: How a test's second process is placed.
    /// - Returns: The setup.
    public static func unpinned(checks: CheckPlacement) -> CountingSetup {
        CountingSetup(
            counter: "callgrind Ir", processes: "one process per test and one with the heap shifted",
            samplesPerArmAndPhase: SimulatedCounter.samplesPerArmAndPhase, heap: "the heap not pinned",
            uncounted: uncountedWork, processSettings: settings, checks: checks.phrase)
    }

    /// Every setup this PerfKit counts with, for reading an older run file's sentence back.
    static var known: [CountingSetup] {
        CheckPlacement.allCases.flatMap { [pinned(checks: $0), unpinned(checks: $0)] }
    }
}
