import PerfKit
import Synchronization
import Testing

/// Fake operating-system reads that record their order.
///
/// The clock advances 1,000 ns per read and each `getrusage` snapshot is 500 ns of user CPU and one page fault later
/// than the last.
private enum RecordingReads: ProbeReading {
    struct Log {
        var events: [String] = []
        var clock: UInt64 = 0
        var snapshots: UInt64 = 0
    }
    // Shared by the fake's static functions; a Mutex because Swift Testing may run tests on any thread.
    static let log = Mutex(Log())

    static func reset() { log.withLock { $0 = Log() } }
    static func note(_ event: String) { log.withLock { $0.events.append(event) } }
    static var events: [String] { log.withLock { $0.events } }

    static func monotonicNanoseconds() -> UInt64 {
        log.withLock {
            $0.events.append("clock")
            $0.clock += 1_000
            return $0.clock
        }
    }
    static func threadCPUNanoseconds() -> UInt64 {
        log.withLock {
            $0.events.append("threadCPU")
            return UInt64($0.events.count) * 100
        }
    }
    static func resourceUsage() -> ResourceUsage {
        let k = log.withLock {
            $0.events.append("rusage")
            $0.snapshots += 1
            return $0.snapshots
        }
        return ResourceUsage(
            userCPUNanoseconds: 500 * k, systemCPUNanoseconds: 0, contextSwitches: 0, pageFaults: k,
            peakResidentBytes: 0)
    }
}

/// The tests share the recording fake's log, so they run one at a time.
@Suite(.serialized) struct ProbeSetTests {
    @Test func theClockBracketIsInnermostAndASampleIsTheDifferenceOfItsReads() {
        RecordingReads.reset()
        let probes = ProbeSet(metrics: [.wallClock, .threadCPU, .processUserCPU, .pageFaults])
        let (result, values) = probes.measureTimed(
            {
                RecordingReads.note("body")
                return 7
            }, reads: RecordingReads.self)
        #expect(result == 7)
        // Every other read sits outside the two clock reads, so its cost never lands in the wall time.
        #expect(RecordingReads.events == ["rusage", "threadCPU", "clock", "body", "clock", "threadCPU", "rusage"])
        #expect(values.wallClock == 1_000)
        #expect(values.threadCPU == 400)  // read as the 2nd and 6th event
        #expect(values.processUserCPU == 500)
        #expect(values.pageFaults == 1)
    }

    @Test func readsNobodyAskedForAreSkipped() {
        RecordingReads.reset()
        let (_, values) = ProbeSet(metrics: [.wallClock]).measureTimed(
            { RecordingReads.note("body") }, reads: RecordingReads.self)
        #expect(RecordingReads.events == ["clock", "body", "clock"])
        #expect(values.wallClock == 1_000)
    }
}
