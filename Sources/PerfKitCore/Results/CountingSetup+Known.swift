/// The setups this PerfKit counts with, and the phrases that describe their fields.
extension CountingSetup {
    /// How a test's second process is placed.
    public enum CheckPlacement: String, Sendable, Codable, CaseIterable {
        /// The bundle loaded at another address (through the dynamic loader).
        case bundleElsewhere
        /// Only the harness's heap shifted (no dynamic loader to start the bundle through).
        case heapShifted

        /// The phrase a report shows.
        var phrase: String {
            switch self {
            case .bundleElsewhere: "checks with the bundle loaded at another address"
            case .heapShifted: "checks with the heap shifted (no dynamic loader to load the bundle elsewhere)"
            }
        }
    }

    /// The setup of a counting run whose measured thread's heap is pinned (``PinnedHeap``).
    /// - Parameter checks: How a test's second process is placed.
    /// - Returns: The setup.
    public static func pinned(checks: CheckPlacement) -> CountingSetup {
        CountingSetup(samplesPerArmAndPhase: SimulatedCounter.samplesPerArmAndPhase, heap: .pinned, checks: checks)
    }

    /// The setup of a counting run whose heap could not be pinned (built without the Jemalloc trait, say).
    ///
    /// Every test then gets a second process with the heap shifted.
    /// - Parameter checks: How a test's second process is placed.
    /// - Returns: The setup.
    public static func unpinned(checks: CheckPlacement) -> CountingSetup {
        CountingSetup(samplesPerArmAndPhase: SimulatedCounter.samplesPerArmAndPhase, heap: .unpinned, checks: checks)
    }

    /// Every setup this PerfKit counts with, for reading an older run file's sentence back.
    static var known: [CountingSetup] {
        CheckPlacement.allCases.flatMap { [pinned(checks: $0), unpinned(checks: $0)] }
    }
}

extension CountingSetup.Counter {
    /// The phrase a report shows.
    var phrase: String { "callgrind Ir" }
}

extension CountingSetup.Heap {
    /// The phrase a report shows.
    var phrase: String {
        switch self {
        case .pinned:
            "the test on a measured thread over pinned jemalloc arenas (one per test case; other threads' caches off, "
                + "its stack at a fixed address, a runtime metadata page of its own from the test's start)"
        case .unpinned: "the heap not pinned"
        }
    }

    /// How many counting processes a test gets with this heap, as a report says it.
    var processesPhrase: String {
        switch self {
        case .pinned: "one process per test"
        case .unpinned: "one process per test and one with the heap shifted"
        }
    }
}

extension CountingSetup.UncountedWork {
    /// The phrase a report shows.
    var phrase: String {
        switch self {
        case .runtimeCacheProbes: "the runtime's cache probes uncounted (finds, and the metadata cache's getOrInsert)"
        case .harnessFrames: "the harness's own frames around the body uncounted"
        }
    }
}

extension CountingSetup.ProcessSetting {
    /// The phrase a report shows.
    var phrase: String {
        switch self {
        case .thrownErrorBacktraceOff: "Swift Testing's backtrace of each thrown error off"
        case .jemallocDecayOff: "jemalloc decay off"
        case .symbolsBoundAtStartUp: "symbols bound at start-up"
        case .aslrOff: "ASLR off"
        case .deterministicHashing: "deterministic hashing"
        }
    }
}
