import PerfKit
import Testing

private final class Pair {
    var a: Int
    var b: Int
    init(_ a: Int, _ b: Int) {
        self.a = a
        self.b = b
    }
}

/// Touches the process allocator and its per-thread state, so these run one at a time.
@Suite(.serialized) struct AllocationCounterTests {
    @inline(never)
    static func allocatePairs(_ count: Int) -> Int {
        var sum = 0
        for i in 0..<count {
            let pair = Pair(i, i)
            blackHole(pair)
            sum &+= pair.a
        }
        return sum
    }

    @Test(.enabled(if: Jemalloc.isLinked))
    func thousandObjectsAreExactlyThousandMallocs() throws {
        let (result, counts) = ExactAllocationCounter.count { Self.allocatePairs(1_000) }
        #expect(result == 499_500)
        let exact = try #require(counts)
        #expect(exact.mallocs == 1_000)
        // Frees are counted by the arena that owns a block, from any thread; parallel suites free
        // blocks they allocated in pooled arenas earlier, so only a lower bound is exact here.
        #expect(exact.frees >= 1_000)
    }

    @Test(.enabled(if: Jemalloc.isLinked))
    func thousandObjectsAreExactlyTheirSizeClassBytes() throws {
        let probes = ProbeSet()
        _ = probes.measureTimed { Self.allocatePairs(10) }  // first use of the path
        let (_, values) = probes.measureTimed { Self.allocatePairs(1_000) }
        // Header (16 B) + two Ints (16 B) = 32 B, exactly a jemalloc size class.
        #expect(values.bytesAllocated == 32_000)
        #expect(values.bytesFreed == 32_000)
    }

    @Test(.enabled(if: Jemalloc.isLinked))
    func bodyThatAllocatesNothingCountsZero() throws {
        let (_, counts) = ExactAllocationCounter.count { Self.allocatePairs(0) }
        #expect(try #require(counts).mallocs == 0)
        let probes = ProbeSet()
        let (_, values) = probes.measureTimed { 1 + 1 }
        #expect(values.bytesAllocated == 0)
    }

    @Test func allocationMetricsAreUnavailableNotZeroWithoutJemalloc() {
        if Jemalloc.isLinked {
            #expect(ProbeSet.unavailableReason(for: .mallocs) == nil)
            #expect(Jemalloc.verifyIsProcessAllocator() == nil)
        } else {
            #expect(ProbeSet.unavailableReason(for: .mallocs) != nil)
            let (_, values) = ProbeSet().measureTimed { 0 }
            #expect(values.bytesAllocated == nil)
        }
    }

    @Test func instructionCounterReportsAReasonWhenUnavailable() {
        if let reason = ProbeSet.unavailableReason(for: .retiredInstructions) {
            #expect(!reason.isEmpty)
        } else {
            let (_, values) = ProbeSet(metrics: [.retiredInstructions]).measureTimed { Self.allocatePairs(10) }
            #expect((values.instructions ?? 0) > 0)
        }
    }
}
