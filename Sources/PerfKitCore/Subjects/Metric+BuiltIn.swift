extension Metric {
    /// Monotonic wall-clock time of the measured region (`CLOCK_MONOTONIC`).
    public static let wallClock = Metric("wallClock", unit: .nanoseconds, scope: .thread)
    /// CPU time consumed by the measuring thread (`CLOCK_THREAD_CPUTIME_ID`).
    public static let threadCPU = Metric("threadCPU", unit: .nanoseconds, scope: .thread)
    /// User CPU time of the whole process (`getrusage`).
    public static let processUserCPU = Metric("processUserCPU", unit: .nanoseconds, scope: .process)
    /// System CPU time of the whole process (`getrusage`).
    public static let processSystemCPU = Metric("processSystemCPU", unit: .nanoseconds, scope: .process)
    /// Voluntary plus involuntary context switches of the process.
    public static let contextSwitches = Metric("contextSwitches", unit: .count, scope: .process)
    /// Minor plus major page faults of the process.
    public static let pageFaults = Metric("pageFaults", unit: .count, scope: .process)
    /// Bytes allocated by the measuring thread, in jemalloc size-class bytes (`thread.allocatedp`).
    public static let bytesAllocated = Metric("bytesAllocated", unit: .bytes, isDeterministic: true, scope: .thread)
    /// Bytes freed by the measuring thread (`thread.deallocatedp`).
    ///
    /// No better direction: fewer bytes freed for the same allocations can mean memory kept, so it is shown beside
    /// ``bytesAllocated``, never judged.
    public static let bytesFreed = Metric(
        "bytesFreed", unit: .bytes, polarity: .neither, isDeterministic: true, scope: .thread)
    /// Exact number of allocation requests made by the measured body (its own pass).
    public static let mallocs = Metric("mallocs", unit: .count, isDeterministic: true, scope: .thread)
    /// Allocations other threads made while an async body ran, its settle wait included.
    ///
    /// Work it handed to a Dispatch queue or a thread pool (its own pass, jemalloc's allocation hooks).
    /// Process-wide, so exact only where nothing else runs meanwhile (`perfkit run`, one test at a time).
    public static let otherThreadMallocs = Metric(
        "otherThreadMallocs", unit: .count, isDeterministic: true, scope: .process)
    /// Frees of blocks in the measuring arena during the body (its own pass).
    ///
    /// Blocks are counted by the arena that owns them, so frees by other threads of earlier measured blocks are
    /// included: exact in a serial run (`perfkit run`), an upper bound under parallel tests. No better direction: a
    /// leak
    /// fix frees more, so it is shown beside ``mallocs`` and ``leakedAllocations``, never judged on its own.
    public static let frees = Metric("frees", unit: .count, polarity: .neither, isDeterministic: true, scope: .process)
    /// Retired user-space instructions of the measuring thread (`perf_event_open`).
    ///
    /// Real hardware counts, unavailable in most virtual machines (no PMU), and not deterministic.
    public static let retiredInstructions = Metric("retiredInstructions", unit: .count, scope: .thread)
    /// Instructions executed per call of the measured body, counted under valgrind's callgrind (simulated, `Ir`).
    ///
    /// Deterministic for one binary, toolchain and valgrind version. Recorded only in a counting run (`perfkit run
    /// --counts`), where it covers the body alone.
    public static let instructions = Metric("instructions", unit: .instructions, isDeterministic: true, scope: .process)
    /// Calls into the Swift runtime's retain entry points per call of the body.
    ///
    /// The entry points are strong, unowned, unknown-object and bridge-object (``DumpCount/retainFunctions``), read
    /// from
    /// its callgrind dump in a counting run: a copy, a boxed capture or an escaping closure shows as a change here.
    public static let retains = Metric(
        "retains", unit: .count, kind: .referenceCounting, isDeterministic: true, scope: .thread)
    /// Calls into the runtime's release entry points per call of the body (``retains``' counterpart).
    ///
    /// No better direction: releasing what was kept is a fix, so it is shown beside ``retains``, never judged alone.
    public static let releases = Metric(
        "releases", unit: .count, polarity: .neither, kind: .referenceCounting, isDeterministic: true, scope: .thread)
    /// Swift object allocations per call of the body.
    ///
    /// Calls into `swift_allocObject` (class instances, boxes), read from a counting run's callgrind dumps, as package-
    /// benchmark's `objectAllocCount`.
    public static let objectAllocations = Metric(
        "objectAllocations", unit: .count, isDeterministic: true, scope: .thread)
    /// Allocations made during a call and not freed by its end (and, for an async body, by the settle wait): `mallocs −
    /// frees` of the exact-count pass.
    ///
    /// A body that leaks reads at least 1 per call; a clean one 0, or below 0 when it frees what an earlier call kept.
    public static let leakedAllocations = Metric(
        "leakedAllocations", unit: .count, kind: .leaks, isDeterministic: true, scope: .thread)
    /// File descriptors open after a call (and the settle wait) that were not open before it.
    public static let leakedDescriptors = Metric(
        "leakedDescriptors", unit: .count, kind: .leaks, isDeterministic: true, scope: .process)
    /// Resident set size of the process after the measured region (`/proc/self/statm`).
    public static let residentMemory = Metric("residentMemory", unit: .bytes, kind: .memory, scope: .process)
    /// Peak resident set size of the process so far (`getrusage` `ru_maxrss`).
    public static let peakResidentMemory = Metric("peakResidentMemory", unit: .bytes, kind: .memory, scope: .process)
    /// Bytes the allocator has handed out (`stats.allocated`).
    public static let allocatorAllocated = Metric("allocatorAllocated", unit: .bytes, kind: .memory, scope: .process)
    /// Bytes in active allocator pages (`stats.active`).
    public static let allocatorActive = Metric("allocatorActive", unit: .bytes, kind: .memory, scope: .process)
    /// Bytes the allocator keeps resident (`stats.resident`).
    public static let allocatorResident = Metric("allocatorResident", unit: .bytes, kind: .memory, scope: .process)
    /// Bytes the allocator has mapped (`stats.mapped`).
    public static let allocatorMapped = Metric("allocatorMapped", unit: .bytes, kind: .memory, scope: .process)

    /// Metrics read in the timed pass, around every sample.
    public static let timedPass: [Metric] = [
        .wallClock, .threadCPU, .processUserCPU, .processSystemCPU, .contextSwitches, .pageFaults,
        .bytesAllocated, .bytesFreed, .retiredInstructions,
    ]
    /// Metrics read in the exact-count pass, which is never timed.
    public static let exactPass: [Metric] = [
        .mallocs, .otherThreadMallocs, .frees, .leakedAllocations, .leakedDescriptors,
    ]
    /// Memory metrics read after each sample.
    public static let memoryPass: [Metric] = [
        .residentMemory, .peakResidentMemory, .allocatorAllocated, .allocatorActive, .allocatorResident,
        .allocatorMapped,
    ]
    /// What a measured test records by default: the measuring thread's time, CPU and allocations.
    ///
    /// Process-wide metrics (process CPU, page faults, context switches, resident and allocator memory) see every other
    /// thread and depend on what ran earlier in the process, so they are opt-in; memory per policy is measured in fresh
    /// processes instead.
    public static let defaultMeasured: [Metric] = [
        .wallClock, .threadCPU, .bytesAllocated, .bytesFreed, .mallocs, .frees, .leakedAllocations,
        .leakedDescriptors,
    ]

    /// The names of the metrics a counting run records (``Metric/isCounted``).
    public static let counted: Set<String> = [
        instructions.name, retains.name, releases.name, objectAllocations.name,
    ]

    /// Every built-in metric.
    public static let builtIn: [Metric] =
        timedPass + exactPass + memoryPass + [.instructions, .retains, .releases, .objectAllocations]
}
