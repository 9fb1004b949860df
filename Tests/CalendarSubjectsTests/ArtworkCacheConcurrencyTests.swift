import CalendarSubjects
import Dispatch
import Foundation
import PerfKit
import Synchronization
import Testing

/// The cache's hit path, double cancels, and the dispatch executor under concurrent requests and
/// cancellations: every assertion is a count, never a time.
@Suite struct ArtworkCacheConcurrencyTests {
    typealias A = ArtworkCacheTests

    @Test func aHitIsDeliveredAtOnceWithoutAJob() {
        let executor = ManualExecutor()
        let cache = ArtworkCache(executor: executor)
        cache.image(A.paint("cached")).release()
        let deliveries = Deliveries()
        _ = cache.request(A.paint("cached")) { deliveries.add($0) }
        #expect(deliveries.count == 1)
        #expect(executor.pending == 0)
        #expect(cache.counters.hits == 1 && cache.counters.imagesPrepared == 1)
        #expect(cache.counters.bytesOwnedByConsumers == 400)
    }

    @Test func cancellingTwiceCountsOnce() {
        let executor = ManualExecutor()
        let cache = ArtworkCache(executor: executor)
        let request = cache.request(A.paint("twice")) { _ in }
        cache.cancel(request)
        cache.cancel(request)
        #expect(cache.counters.cancellations == 1)
        executor.runAll()
        #expect(cache.counters.imagesPrepared == 0)
    }

    @Test func evictionReturnsEveryCachedByte() {
        let cache = ArtworkCache(limits: .init(maxBytes: 1_000, maxCount: 100), executor: ManualExecutor())
        for k in 0..<10 { cache.image(A.paint("e\(k)")).release() }  // 400 B each: two fit
        #expect(cache.counters.entries == 2)
        #expect(cache.counters.bytesCached == 800)
        #expect(cache.counters.evictions == 8)
        cache.trim(toBytes: 0)
        #expect(cache.counters.bytesCached == 0 && cache.counters.entries == 0)
    }

    /// Eight threads request 40 descriptions (half of them shared) through the dispatch executor and cancel a seeded
    /// third of their requests at once.
    ///
    /// Once every job has finished: no request is delivered twice, and the bytes consumers own equal the bytes of the
    /// leases they were handed (a cancelled request's lease is released, never leaked).
    @Test(arguments: [UInt64(1), 2, 3])
    func concurrentRequestsAndCancellationsKeepExactCounts(seed: UInt64) async throws {
        let cache = ArtworkCache(limits: .init(maxBytes: 1 << 20, maxCount: 1_000))
        let delivered = Mutex<[Int: Int]>([:])  // request number → deliveries
        let held = Mutex<[ArtworkLease]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var generator = SeededGenerator(seed: seed &* 31 &+ UInt64(thread))
            for k in 0..<40 {
                let number = thread * 100 + k
                let title = k % 2 == 0 ? "shared\(k)" : "own\(thread)-\(k)"
                let request = cache.request(A.paint(title, width: 10 + k % 5)) { lease in
                    delivered.withLock { $0[number, default: 0] += 1 }
                    held.withLock { $0.append(lease) }
                }
                if generator.index(below: 3) == 0 { cache.cancel(request) }
            }
        }
        var descriptions: [PaintDescription] = []
        for thread in 0..<8 {
            for k in 0..<40 {
                let title = k % 2 == 0 ? "shared\(k)" : "own\(thread)-\(k)"
                descriptions.append(A.paint(title, width: 10 + k % 5))
            }
        }
        func pending() -> Bool { descriptions.contains { cache.hasJob(for: $0) } }
        for _ in 0..<500 where pending() { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(!pending(), "jobs still pending after 5 s")
        try await Task.sleep(nanoseconds: 20_000_000)  // deliveries run right after their job leaves the table
        let counts = delivered.withLock { $0 }
        #expect(counts.values.allSatisfy { $0 == 1 })
        let leases = held.withLock { $0 }
        #expect(cache.counters.bytesOwnedByConsumers == leases.reduce(0) { $0 + $1.artwork.byteCount })
        for lease in leases { lease.release() }
        #expect(cache.counters.bytesOwnedByConsumers == 0)
        #expect(cache.counters.imagesPrepared + cache.counters.hits + cache.counters.coalesced >= counts.count)
    }
}
