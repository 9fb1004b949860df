import Synchronization

/// Artwork results waiting for the viewport's thread, each tagged with the cell and the cell's generation at request
/// time.
///
/// Shared with preparation threads, hence the mutex.
final class ArtworkInbox: Sendable {
    struct Delivery {
        var serial: Int
        var generation: Int
        var lease: ArtworkLease
    }
    private let pending = Mutex<[Delivery]>([])
    func post(_ delivery: Delivery) { pending.withLock { $0.append(delivery) } }
    func take() -> [Delivery] {
        pending.withLock { list in
            defer { list = [] }; return list
        }
    }
}

extension Viewport {
    /// Requests artwork for a cell through the cache.
    ///
    /// The result is posted to the viewport's inbox and applied by ``applyArtworkDeliveries()`` on the viewport's
    /// thread.
    /// - Returns: The cache request, for cancelling.
    @discardableResult
    package func requestArtwork(for cell: EventCell, _ description: PaintDescription, cache: ArtworkCache)
        -> ArtworkRequest
    {
        let serial = cell.serial, generation = cell.generation, inbox = inbox
        return cache.request(description) { lease in
            inbox.post(.init(serial: serial, generation: generation, lease: lease))
        }
    }

    /// Applies posted artwork results.
    ///
    /// A result whose cell has been rebound (or unbound) since the request is rejected and its lease released: a late
    /// result never repaints a reused cell with the wrong event.
    /// - Returns: How many results were applied.
    @discardableResult
    package mutating func applyArtworkDeliveries() -> Int {
        var applied = 0
        for delivery in inbox.take() {
            let cell = cellsBySerial[delivery.serial]
            guard cell.generation == delivery.generation, cell.boundID != nil else {
                delivery.lease.release()
                counters.lateResultsRejected += 1
                continue
            }
            cell.artwork?.release()
            cell.artwork = delivery.lease
            applied += 1
        }
        return applied
    }
}
