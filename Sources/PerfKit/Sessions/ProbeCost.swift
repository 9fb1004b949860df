import PerfKitCore

/// Measures what one read of each probe costs on this machine, for `perfkit doctor`.
public enum ProbeCost {
    /// The cost of one probe read.
    public struct Entry: Sendable, Equatable {
        /// The probe (for example `monotonic clock`).
        public var probe: String
        /// Median nanoseconds per read over several batches.
        public var nanosecondsPerRead: Double
        /// Whether the probe is available here; unavailable probes have no cost.
        public var unavailableReason: String?
    }

    /// Times every probe: median of `batches` batches of `reads` reads each.
    /// - Parameters:
    ///   - reads: Reads per batch.
    ///   - batches: Number of batches.
    /// - Returns: One entry per probe.
    public static func measureAll(reads: Int = 2_000, batches: Int = 15) -> [Entry] {
        let time: Timer = { reads, body in
            var perRead: [Double] = []
            for _ in 0..<batches {
                let start = SystemClock.monotonicNanoseconds()
                for _ in 0..<reads { body() }
                perRead.append(Double(SystemClock.monotonicNanoseconds() - start) / Double(reads))
            }
            return Quantile.percentile(sorted: perRead.sorted(), 50)
        }
        var entries = [
            Entry(
                probe: "monotonic clock (CLOCK_MONOTONIC)",
                nanosecondsPerRead: time(reads) { blackHole(SystemClock.monotonicNanoseconds()) }),
            Entry(
                probe: "thread CPU clock",
                nanosecondsPerRead: time(reads / 4) { blackHole(SystemClock.threadCPUNanoseconds()) }),
            Entry(probe: "getrusage", nanosecondsPerRead: time(reads / 4) { blackHole(ResourceUsage.current()) }),
            Entry(
                probe: "resident memory (/proc/self/statm)",
                nanosecondsPerRead: time(reads / 20) { blackHole(ResidentMemory.currentBytes()) }),
        ]
        entries += allocatorEntries(reads: reads, time: time)
        // No hardware counter here: its cost is not reported.
        if let counter = try? InstructionCounter() {
            entries.append(
                Entry(
                    probe: "instructions (perf_event_open)",
                    nanosecondsPerRead: time(reads / 4) { blackHole(counter.read()) }))
        } else {
            entries.append(
                Entry(
                    probe: "instructions (perf_event_open)", nanosecondsPerRead: .nan,
                    unavailableReason: InstructionCounter.unavailableReason))
        }
        let probes = ProbeSet(metrics: [.wallClock])
        var empty: [Double] = []
        for _ in 0..<(reads * 5) { empty.append(Double(probes.measureTimed { () }.values.wallClock)) }
        entries.append(
            Entry(
                probe: "empty measured region, median wall time",
                nanosecondsPerRead: Quantile.percentile(sorted: empty.sorted(), 50)))
        return entries
    }

    /// Times `reads` calls of a body: the median nanoseconds a call over the batches.
    typealias Timer = (_ reads: Int, _ body: () -> Void) -> Double

    /// The allocator's probes (jemalloc's counters), or why they are unavailable.
    static func allocatorEntries(reads: Int, time: Timer) -> [Entry] {
        guard let counter = ThreadAllocationCounter() else {
            let reason = ProbeSet.unavailableReason(for: .bytesAllocated)
            return [
                Entry(
                    probe: "thread bytes allocated (thread.allocatedp)", nanosecondsPerRead: .nan,
                    unavailableReason: reason),
                Entry(probe: "exact malloc/free count", nanosecondsPerRead: .nan, unavailableReason: reason),
            ]
        }
        return [
            Entry(
                probe: "thread bytes allocated (thread.allocatedp)",
                nanosecondsPerRead: time(reads) { blackHole(counter.allocated) }),
            Entry(
                probe: "allocator totals (epoch + 4 reads)",
                nanosecondsPerRead: time(reads / 40) { blackHole(Jemalloc.totals()) }),
            Entry(
                probe: "exact malloc/free count (tcache off, epoch, 4 reads, twice)",
                nanosecondsPerRead: time(reads / 40) { blackHole(ExactAllocationCounter.count { 0 }) }),
        ]
    }
}
