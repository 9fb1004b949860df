/// The built-in probes, read around one run of a measured body.
///
/// The monotonic clock is read last before the body and first after it; every other probe is
/// read outside that bracket so its own cost never lands in the wall-clock figure. Per-thread
/// probes are only valid when the body runs on the calling thread; ``measureTimed(_:reads:)`` takes a
/// synchronous body for that reason.
public struct ProbeSet: ~Copyable {
    /// Which built-in metrics to read; metrics not listed are skipped.
    public let metrics: Set<Metric>
    private let allocationCounter: ThreadAllocationCounter?
    private let instructionCounter: InstructionCounter?
    /// Whether a sample reads `getrusage` (about 0.5 µs, twice) and the thread CPU clock (0.4 µs, twice).
    ///
    /// Only when one of their metrics is wanted, so a fast body's samples are not mostly reads.
    private let readsUsage: Bool
    private let readsThreadCPU: Bool

    /// Prepares the probes for the calling thread.
    /// - Parameter metrics: The built-in metrics to read.
    public init(metrics: Set<Metric> = Set(Metric.builtIn)) {
        self.metrics = metrics
        readsUsage = !metrics.isDisjoint(with: [.processUserCPU, .processSystemCPU, .contextSwitches, .pageFaults])
        readsThreadCPU = metrics.contains(.threadCPU)
        allocationCounter = ThreadAllocationCounter()
        // No hardware counter here (no PMU, or perf_event refused): the metric is then reported unavailable.
        instructionCounter = metrics.contains(.retiredInstructions) ? try? InstructionCounter() : nil
    }

    /// Why a built-in metric cannot be measured here, or `nil` when it can.
    /// - Parameter metric: A built-in metric.
    /// - Returns: A human-readable reason, or `nil`.
    public static func unavailableReason(for metric: Metric) -> String? {
        switch metric {
        case .bytesAllocated, .bytesFreed, .allocatorAllocated, .allocatorActive, .allocatorResident, .allocatorMapped:
            Jemalloc.isLinked
                ? nil
                : MeasurementPlatform.portableReason
                    ?? "built without the Jemalloc trait; allocation metrics are unavailable"
        case .mallocs, .frees, .leakedAllocations:
            ExactAllocationCounter.unavailableReason
        case .leakedDescriptors:
            OpenDescriptors.unavailableReason
        case .retains, .releases:
            SimulatedCounter.unavailableReason
        case .retiredInstructions:
            InstructionCounter.unavailableReason
        case .instructions:
            SimulatedCounter.unavailableReason
        case .residentMemory:
            MeasurementPlatform.portableReason
                ?? (ResidentMemory.currentBytes() == nil ? "/proc/self/statm is not readable" : nil)
        default:
            nil
        }
    }

    /// Runs `body` once and reads the timed-pass probes around it.
    ///
    /// The monotonic clock innermost, then the allocation and instruction counters, then thread CPU time, then
    /// `getrusage`.
    /// - Parameters:
    ///   - body: The measured region; it runs on the calling thread.
    ///   - reads: Where the clocks and `getrusage` come from; ``SystemReads`` unless a test passes a fake.
    /// - Returns: The body's result and one value per available timed metric.
    /// - Throws: Whatever `body` throws.
    @inline(never)
    public func measureTimed<R, Reads: ProbeReading>(_ body: () throws -> R, reads: Reads.Type = SystemReads.self)
        rethrows -> (result: R, values: TimedValues)
    {
        let usage0 = readsUsage ? Reads.resourceUsage() : nil
        let cpu0 = readsThreadCPU ? Reads.threadCPUNanoseconds() : 0
        let instructions0 = instructionCounter?.read()
        let allocated0 = allocationCounter?.allocated
        let freed0 = allocationCounter?.deallocated
        let start = Reads.monotonicNanoseconds()
        let result = try body()
        let end = Reads.monotonicNanoseconds()
        let allocated1 = allocationCounter?.allocated
        let freed1 = allocationCounter?.deallocated
        let instructions1 = instructionCounter?.read()
        let cpu1 = readsThreadCPU ? Reads.threadCPUNanoseconds() : 0
        let usage1 = readsUsage ? Reads.resourceUsage() : nil
        var values = TimedValues()
        values.wallClock = end &- start
        values.threadCPU = cpu1 &- cpu0
        if let usage0, let usage1 {
            values.processUserCPU = usage1.userCPUNanoseconds &- usage0.userCPUNanoseconds
            values.processSystemCPU = usage1.systemCPUNanoseconds &- usage0.systemCPUNanoseconds
            values.contextSwitches = usage1.contextSwitches &- usage0.contextSwitches
            values.pageFaults = usage1.pageFaults &- usage0.pageFaults
        }
        if let allocated0, let allocated1, let freed0, let freed1 {
            values.bytesAllocated = allocated1 &- allocated0
            values.bytesFreed = freed1 &- freed0
        }
        if let instructions0, let instructions1 { values.instructions = instructions1 &- instructions0 }
        return (result, values)
    }

    /// Reads the memory probes (resident set, peak, allocator totals) as they are now.
    /// - Returns: One value per available memory metric.
    public func readMemory() -> [Metric: Double] {
        // skip the ~25 µs of reads when none is wanted
        guard !metrics.isDisjoint(with: Metric.memoryPass) else { return [:] }
        var values: [Metric: Double] = [:]
        if let resident = ResidentMemory.currentBytes() { values[.residentMemory] = Double(resident) }
        values[.peakResidentMemory] = Double(ResourceUsage.current().peakResidentBytes)
        if let totals = Jemalloc.totals() {
            values[.allocatorAllocated] = Double(totals.allocated)
            values[.allocatorActive] = Double(totals.active)
            values[.allocatorResident] = Double(totals.resident)
            values[.allocatorMapped] = Double(totals.mapped)
        }
        return values.filter { metrics.contains($0.key) }
    }
}

/// The raw values of one timed sample, kept in a plain struct so that taking a sample never allocates.
public struct TimedValues: Sendable {
    /// Nanoseconds between the two monotonic clock reads.
    public var wallClock: UInt64 = 0
    /// Nanoseconds of the calling thread's CPU time.
    public var threadCPU: UInt64 = 0
    /// Nanoseconds of user CPU time of the whole process.
    public var processUserCPU: UInt64 = 0
    /// Nanoseconds of system CPU time of the whole process.
    public var processSystemCPU: UInt64 = 0
    /// Voluntary and involuntary context switches of the process.
    public var contextSwitches: UInt64 = 0
    /// Minor and major page faults of the process.
    public var pageFaults: UInt64 = 0
    /// Bytes the calling thread allocated (jemalloc), nil without jemalloc.
    public var bytesAllocated: UInt64? = nil
    /// Bytes the calling thread freed (jemalloc), nil without jemalloc.
    public var bytesFreed: UInt64? = nil
    /// Retired instructions, nil without hardware counters.
    public var instructions: UInt64? = nil

    /// The values as metric-keyed doubles, leaving out unavailable ones and those not in `metrics`.
    /// - Parameter metrics: The metrics to keep.
    /// - Returns: The selected values.
    public func values(for metrics: Set<Metric>) -> [(Metric, Double)] {
        var out: [(Metric, Double)] = [
            (.wallClock, Double(wallClock)), (.threadCPU, Double(threadCPU)),
            (.processUserCPU, Double(processUserCPU)), (.processSystemCPU, Double(processSystemCPU)),
            (.contextSwitches, Double(contextSwitches)), (.pageFaults, Double(pageFaults)),
        ]
        if let bytesAllocated { out.append((.bytesAllocated, Double(bytesAllocated))) }
        if let bytesFreed { out.append((.bytesFreed, Double(bytesFreed))) }
        if let instructions { out.append((.retiredInstructions, Double(instructions))) }
        return out.filter { metrics.contains($0.0) }
    }
}
