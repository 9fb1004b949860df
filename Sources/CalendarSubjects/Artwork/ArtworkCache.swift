import Dispatch
import PerfKit
import Synchronization

/// Runs preparation jobs off the calling thread. Injectable so tests can hold jobs back.
package protocol ArtworkExecutor: Sendable {
    /// Submits a job; it must run later, on another thread or when the owner drains it.
    func submit(_ job: @escaping @Sendable () -> Void)
}

/// The default executor: a concurrent dispatch queue.
package struct DispatchArtworkExecutor: ArtworkExecutor {
    let queue = DispatchQueue(label: "perfkit.artwork", qos: .userInitiated, attributes: .concurrent)
    /// An executor on a concurrent global queue.
    package init() {}
    /// Runs `job` asynchronously on the queue.
    package func submit(_ job: @escaping @Sendable () -> Void) { queue.async(execute: job) }
}

/// A bounded, least-recently-used cache of rasterized event artwork, keyed by the whole paint description.
///
/// Preparation runs on an ``ArtworkExecutor``; identical requests in flight are coalesced into
/// one job; cancelling a request detaches only that requester and the job is cancelled only when
/// all its requesters have cancelled; a cancelled request is never delivered. Consumers hold
/// ``ArtworkLease``s, and the bytes they own return to zero when every lease is released.
///
/// A class with a `Mutex`: the cache is shared between the consumer's thread and preparation threads.
package final class ArtworkCache: Sendable {
    /// Bounds; the cache never grows past them.
    package struct Limits: Sendable, Equatable {
        /// Most bytes the cache holds.
        package var maxBytes: Int
        /// Most images the cache holds.
        package var maxCount: Int
        /// Larger images are delivered but not kept.
        package var maxEntryBytes: Int
        /// Limits; an image larger than `maxEntryBytes` is handed out but never cached.
        package init(maxBytes: Int = 32 << 20, maxCount: Int = 512, maxEntryBytes: Int = 4 << 20) {
            self.maxBytes = maxBytes
            self.maxCount = maxCount
            self.maxEntryBytes = maxEntryBytes
        }
    }

    /// What the cache has done and holds.
    package struct Counters: Sendable, Equatable {
        /// Bytes of the images the cache holds.
        package var bytesCached = 0
        /// Images the cache holds.
        package var entries = 0
        /// Bytes of the images held by live leases.
        package var bytesOwnedByConsumers = 0
        /// Images rasterized since the cache was made (a running total).
        package var imagesPrepared = 0
        /// Requests answered from the cache.
        package var hits = 0
        /// Requests that started a rasterization.
        package var misses = 0
        /// Requests that joined a rasterization already running.
        package var coalesced = 0
        /// Images evicted to stay within the limits.
        package var evictions = 0
        /// Requests cancelled before delivery.
        package var cancellations = 0
        /// Sum of per-job rasterize times: a total of queued jobs, not one stall.
        package var rasterizeTotalNanoseconds: UInt64 = 0
        /// The longest single job: the worst stall one image can cause.
        package var rasterizeMaxNanoseconds: UInt64 = 0
    }

    struct Job {
        var requests: [ArtworkRequest] = []
    }

    struct State {
        var entries = LRUStore<PaintDescription, Artwork>()
        var jobs: [PaintDescription: Job] = [:]
        var counters = Counters()
    }

    /// The cache's limits.
    package let limits: Limits
    private let executor: any ArtworkExecutor
    private let state = Mutex(State())

    /// Creates a cache.
    package init(limits: Limits = Limits(), executor: any ArtworkExecutor = DispatchArtworkExecutor()) {
        self.limits = limits
        self.executor = executor
    }

    /// A snapshot of the counters.
    package var counters: Counters { state.withLock { $0.counters } }

    /// The cached descriptions from least to most recently used.
    package var lruOrder: [PaintDescription] {
        state.withLock { $0.entries.keysOldestFirst }
    }

    /// Looks an image up without preparing it.
    /// - Returns: A lease on the image, or `nil` on a miss.
    package func lookup(_ description: PaintDescription) -> ArtworkLease? {
        state.withLock { state in
            guard let artwork = state.entries.touch(description) else {
                state.counters.misses += 1
                return nil
            }
            state.counters.hits += 1
            state.counters.bytesOwnedByConsumers += artwork.byteCount
            return ArtworkLease(artwork, cache: self)
        }
    }

    /// Returns the image, rasterizing it on the calling thread on a miss (for synchronous paths and benchmarks).
    package func image(_ description: PaintDescription) -> ArtworkLease {
        if let lease = lookup(description) { return lease }
        let (artwork, elapsed) = rasterize(description)
        return state.withLock { state in
            record(elapsed, &state)
            insert(artwork, &state)
            state.counters.bytesOwnedByConsumers += artwork.byteCount
            return ArtworkLease(artwork, cache: self)
        }
    }

    /// Requests an image; a hit is delivered at once on the calling thread, a miss is prepared off it.
    /// - Parameters:
    ///   - description: What to draw.
    ///   - deliver: Receives a lease, exactly once, unless the request is cancelled first.
    /// - Returns: The request, for cancelling.
    @discardableResult
    package func request(_ description: PaintDescription, deliver: @escaping @Sendable (ArtworkLease) -> Void)
        -> ArtworkRequest
    {
        let request = ArtworkRequest(description: description, deliver: deliver)
        if let lease = lookup(description) {
            request.complete(with: lease)
            return request
        }
        let startJob = state.withLock { state -> Bool in
            if state.jobs[description] != nil {
                state.jobs[description]!.requests.append(request)
                state.counters.coalesced += 1
                return false
            }
            state.jobs[description] = Job(requests: [request])
            return true
        }
        if startJob { executor.submit { [self] in runJob(description) } }
        return request
    }

    /// Detaches one requester; the shared job is cancelled when no requester is left.
    package func cancel(_ request: ArtworkRequest) {
        guard request.cancel() else { return }
        state.withLock { state in
            state.counters.cancellations += 1
            guard var job = state.jobs[request.description] else { return }
            job.requests.removeAll { $0 === request }
            state.jobs[request.description] = job.requests.isEmpty ? nil : job
        }
    }

    /// Whether a job for `description` is in flight.
    package func hasJob(for description: PaintDescription) -> Bool { state.withLock { $0.jobs[description] != nil } }

    /// Evicts least recently used images until at most `bytes` are cached.
    package func trim(toBytes bytes: Int) { state.withLock { evict(toBytes: bytes, count: Int.max, &$0) } }

    /// Empties the cache (leases already handed out stay valid).
    package func removeAll() { trim(toBytes: 0) }

    func leaseReleased(_ bytes: Int) { state.withLock { $0.counters.bytesOwnedByConsumers -= bytes } }

    private func runJob(_ description: PaintDescription) {
        guard state.withLock({ $0.jobs[description] != nil }) else { return }  // cancelled before it started
        let (artwork, elapsed) = rasterize(description)
        let requests = state.withLock { state -> [ArtworkRequest] in
            record(elapsed, &state)
            guard let job = state.jobs.removeValue(forKey: description) else { return [] }  // cancelled while running
            insert(artwork, &state)
            return job.requests
        }
        for request in requests {
            let lease = ArtworkLease(artwork, cache: self)
            state.withLock { $0.counters.bytesOwnedByConsumers += artwork.byteCount }
            if !request.complete(with: lease) { lease.release() }  // cancelled in the meantime: never delivered
        }
    }

    private func rasterize(_ description: PaintDescription) -> (Artwork, UInt64) {
        let start = SystemClock.monotonicNanoseconds()
        let artwork = Rasterizer.rasterize(description)
        return (artwork, SystemClock.monotonicNanoseconds() - start)
    }

    private func record(_ elapsed: UInt64, _ state: inout State) {
        state.counters.imagesPrepared += 1
        state.counters.rasterizeTotalNanoseconds += elapsed
        state.counters.rasterizeMaxNanoseconds = max(state.counters.rasterizeMaxNanoseconds, elapsed)
    }

    private func insert(_ artwork: Artwork, _ state: inout State) {
        guard artwork.byteCount <= limits.maxEntryBytes else { return }
        if let old = state.entries.insert(artwork, for: artwork.description) {
            state.counters.bytesCached -= old.byteCount
        }
        state.counters.bytesCached += artwork.byteCount
        evict(toBytes: limits.maxBytes, count: limits.maxCount, &state)
    }

    private func evict(toBytes bytes: Int, count: Int, _ state: inout State) {
        while state.counters.bytesCached > bytes || state.entries.count > count {
            guard let oldest = state.entries.removeOldest() else { break }
            state.counters.bytesCached -= oldest.value.byteCount
            state.counters.evictions += 1
        }
        state.counters.entries = state.entries.count
    }
}

/// One requester's claim on a prepared image.
package final class ArtworkRequest: Sendable {
    /// What the request asks to be painted.
    package let description: PaintDescription
    private let deliver: @Sendable (ArtworkLease) -> Void
    private enum Status { case pending, delivered, cancelled }
    private let status = Mutex(Status.pending)

    init(description: PaintDescription, deliver: @escaping @Sendable (ArtworkLease) -> Void) {
        self.description = description
        self.deliver = deliver
    }

    /// Delivers unless cancelled; returns whether it delivered.
    @discardableResult
    func complete(with lease: ArtworkLease) -> Bool {
        let proceed = status.withLock { status -> Bool in
            guard status == .pending else { return false }
            status = .delivered
            return true
        }
        if proceed { deliver(lease) }
        return proceed
    }

    /// Marks the request cancelled; returns `false` when it was already delivered or cancelled.
    func cancel() -> Bool {
        status.withLock { status in
            guard status == .pending else { return false }
            status = .cancelled
            return true
        }
    }
}

/// A consumer's hold on an image; the bytes count as owned by consumers until released.
package final class ArtworkLease: Sendable {
    /// The image the lease keeps alive.
    package let artwork: Artwork
    private let cache: ArtworkCache
    private let released = Mutex(false)

    init(_ artwork: Artwork, cache: ArtworkCache) {
        self.artwork = artwork
        self.cache = cache
    }

    /// Releases the lease; later calls do nothing.
    package func release() {
        let first = released.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        if first { cache.leaseReleased(artwork.byteCount) }
    }
}
