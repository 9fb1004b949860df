import CalendarSubjects
import PerfKit
import Synchronization
import Testing

/// Holds submitted jobs until the test runs them, so coalescing and cancellation are deterministic.
final class ManualExecutor: ArtworkExecutor {
    let jobs = Mutex<[@Sendable () -> Void]>([])
    func submit(_ job: @escaping @Sendable () -> Void) { jobs.withLock { $0.append(job) } }
    func runAll() {
        for job in jobs.withLock({ j -> [@Sendable () -> Void] in
            defer { j = [] }; return j
        }) { job() }
    }
    var pending: Int { jobs.withLock { $0.count } }
}

final class Deliveries: Sendable {
    let leases = Mutex<[ArtworkLease]>([])
    func add(_ lease: ArtworkLease) { leases.withLock { $0.append(lease) } }
    var count: Int { leases.withLock { $0.count } }
}

@Suite struct ArtworkCacheTests {
    static func paint(_ title: String, width: Int = 10) -> PaintDescription {
        PaintDescription(title: title, timeText: "10:00", color: 0x1F6FEB, width: width, height: 10, scale: 1)
    }

    @Test func leastRecentlyUsedIsEvictedFirstAndCountIsBounded() {
        let cache = ArtworkCache(limits: .init(maxBytes: 1 << 20, maxCount: 2), executor: ManualExecutor())
        cache.image(Self.paint("a")).release()
        cache.image(Self.paint("b")).release()
        cache.lookup(Self.paint("a"))!.release()  // a is now most recent
        cache.image(Self.paint("c")).release()
        #expect(cache.lruOrder.map(\.title) == ["a", "c"])
        #expect(cache.counters.evictions == 1)
    }

    @Test func byteLimitEntryCapAndTrim() {
        let cache = ArtworkCache(
            limits: .init(maxBytes: 1_000, maxCount: 100, maxEntryBytes: 500), executor: ManualExecutor())
        cache.image(Self.paint("small")).release()  // 10×10×4 = 400 B
        cache.image(Self.paint("big", width: 20)).release()  // 800 B: over the entry cap, delivered but not kept
        #expect(cache.counters.bytesCached == 400)
        cache.image(Self.paint("other")).release()
        cache.image(Self.paint("third")).release()  // 1,200 B would exceed 1,000: oldest goes
        #expect(cache.counters.bytesCached == 800)
        cache.trim(toBytes: 400)
        #expect(cache.counters.bytesCached == 400 && cache.lruOrder.map(\.title) == ["third"])
    }

    /// A request cancelled while its job delivers to an earlier one gets no lease.
    ///
    /// A request cancelled while its job delivers to an earlier one (the window between the job
    /// taking its requests and completing them) gets no lease, and the lease made for it is
    /// released: consumers own exactly the delivered bytes (found by the mutation check: a lease
    /// never released for a cancelled delivery went unnoticed).
    @Test func aRequestCancelledDuringDeliveryLeavesNoBytesOwned() {
        let executor = ManualExecutor()
        let cache = ArtworkCache(executor: executor)
        let deliveries = Deliveries()
        let second = Mutex<ArtworkRequest?>(nil)
        cache.request(Self.paint("same")) { lease in
            deliveries.add(lease)
            if let request = second.withLock({ $0 }) { cache.cancel(request) }
        }
        let request = cache.request(Self.paint("same")) { deliveries.add($0) }
        second.withLock { $0 = request }
        executor.runAll()
        #expect(deliveries.count == 1)
        #expect(cache.counters.bytesOwnedByConsumers == 400)
        #expect(cache.counters.cancellations == 1)
    }

    @Test func overwritingAnEntryKeepsOneCopyAndExactByteCounts() {
        let executor = ManualExecutor()
        let cache = ArtworkCache(executor: executor)
        let deliveries = Deliveries()
        cache.request(Self.paint("same")) { deliveries.add($0) }  // a job in flight …
        cache.image(Self.paint("same")).release()  // … while a synchronous path inserts the same key
        executor.runAll()  // the job's result overwrites the entry
        #expect(cache.counters.entries == 1)
        #expect(cache.counters.bytesCached == 400)
        #expect(cache.counters.imagesPrepared == 2)
        #expect(deliveries.count == 1)
        deliveries.leases.withLock { $0.forEach { $0.release() } }
        #expect(cache.counters.bytesOwnedByConsumers == 0)
    }

    @Test func aTitleEditIsANewImage() {
        let cache = ArtworkCache(executor: ManualExecutor())
        cache.image(Self.paint("Standup")).release()
        #expect(cache.lookup(Self.paint("Standup (moved)")) == nil)
        #expect(cache.counters.imagesPrepared == 1)
    }

    @Test func identicalRequestsAreCoalescedAndPartialCancelDetachesOnlyOne() {
        let executor = ManualExecutor()
        let cache = ArtworkCache(executor: executor)
        let first = Deliveries(), second = Deliveries()
        let a = cache.request(Self.paint("x")) { first.add($0) }
        _ = cache.request(Self.paint("x")) { second.add($0) }
        #expect(executor.pending == 1)
        cache.cancel(a)
        #expect(cache.hasJob(for: Self.paint("x")))
        executor.runAll()
        #expect(first.count == 0 && second.count == 1)
        #expect(
            cache.counters.imagesPrepared == 1 && cache.counters.coalesced == 1 && cache.counters.cancellations == 1)
    }

    @Test func fullCancellationCancelsTheJobAndNothingIsDelivered() {
        let executor = ManualExecutor()
        let cache = ArtworkCache(executor: executor)
        let deliveries = Deliveries()
        let a = cache.request(Self.paint("y")) { deliveries.add($0) }
        let b = cache.request(Self.paint("y")) { deliveries.add($0) }
        cache.cancel(a)
        cache.cancel(b)
        #expect(!cache.hasJob(for: Self.paint("y")))
        executor.runAll()
        #expect(deliveries.count == 0 && cache.counters.imagesPrepared == 0)
    }

    @Test func consumerBytesReturnToZeroWhenAllLeasesAreReleased() {
        let cache = ArtworkCache(executor: ManualExecutor())
        let leases = (0..<5).map { cache.image(Self.paint("e\($0)")) } + [cache.lookup(Self.paint("e0"))!]
        #expect(cache.counters.bytesOwnedByConsumers == 6 * 400)
        for lease in leases { lease.release() }
        leases[0].release()  // a second release does nothing
        #expect(cache.counters.bytesOwnedByConsumers == 0)
    }
}

@Suite struct LRUOrderTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func touchInsertAndEvictKeepLeastRecentlyUsedOrder(seed: UInt64) {
        // Against a plain list model, over seeded random operations.
        var generator = SeededGenerator(seed: seed)
        let cache = ArtworkCache(limits: .init(maxBytes: 1 << 30, maxCount: 6), executor: ManualExecutor())
        var model: [String] = []
        for _ in 0..<300 {
            let title = "t\(generator.index(below: 10))"
            if let lease = cache.lookup(ArtworkCacheTests.paint(title)) {  // a hit makes it the most recent
                lease.release()
                model.removeAll { $0 == title }
                model.append(title)
            } else {  // a miss prepares it and evicts the least recent beyond six
                cache.image(ArtworkCacheTests.paint(title)).release()
                model.append(title)
                if model.count > 6 { model.removeFirst() }
            }
            #expect(cache.lruOrder.map(\.title) == model)
        }
    }
}
