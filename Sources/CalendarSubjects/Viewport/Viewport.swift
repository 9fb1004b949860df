/// An event view: a cell that is bound to one descriptor's content at a time.
public final class EventCell {
    /// Distinct per cell, for reuse checks.
    public let serial: Int
    public let kind: String
    /// The piece it currently shows.
    public private(set) var boundID: SegmentID?
    /// Index of the bound descriptor in the viewport's index.
    public private(set) var descriptorIndex: Int?
    public private(set) var content: ViewContent?
    /// Bumped on every bind: a late artwork result carrying an older generation is dropped.
    public private(set) var generation = 0
    /// The artwork lease the cell holds, released on rebind.
    public var artwork: ArtworkLease?

    init(serial: Int, kind: String) {
        self.serial = serial
        self.kind = kind
    }

    func bind(_ descriptor: ViewDescriptor, at index: Int) {
        boundID = descriptor.id
        descriptorIndex = index
        content = descriptor.content()
        generation += 1
    }

    func unbind() {
        boundID = nil
        descriptorIndex = nil
        content = nil
        artwork?.release()
        artwork = nil
        generation += 1
    }
}

/// Which views a viewport keeps alive.
public enum ViewportPolicy: String, Sendable, CaseIterable, Codable {
    /// Every event view of the loaded range is built and stays alive (the old scroll view holding the whole tree).
    case reference
    /// Views exist only for the visible rect plus overscan, from per-kind reuse pools.
    case native
}

/// Counters a viewport keeps; all deterministic for a given workload and scroll path.
public struct ViewportCounters: Sendable, Equatable {
    public var liveViews = 0
    public var viewsCreated = 0
    public var viewsReused = 0
    public var contentEvaluations = 0
}

/// A scrolling viewport over indexed descriptors, under one policy.
public struct Viewport {
    public let index: ViewportIndex
    public let policy: ViewportPolicy
    /// Margin added above and below the visible rect (native policy).
    public let overscan: Double
    public private(set) var counters = ViewportCounters()
    /// Views by piece identity.
    public private(set) var live: [SegmentID: EventCell] = [:]
    private var pools: [String: [EventCell]] = [:]
    private var nextSerial = 0
    /// The piece being dragged: its view is never replaced or recycled.
    public var dragging: SegmentID?

    /// Creates a viewport; the reference policy builds every view at once.
    public init(index: ViewportIndex, policy: ViewportPolicy, overscan: Double = 200) {
        self.index = index
        self.policy = policy
        self.overscan = overscan
        if policy == .reference {
            for i in index.descriptors.indices { _ = insert(at: i) }
        }
    }

    private mutating func insert(at position: Int) -> EventCell {
        let descriptor = index.descriptors[position]
        let cell: EventCell
        if var pool = pools[descriptor.kind], let reused = pool.popLast() {
            pools[descriptor.kind] = pool
            cell = reused
            counters.viewsReused += 1
        } else {
            cell = EventCell(serial: nextSerial, kind: descriptor.kind)
            nextSerial += 1
            counters.viewsCreated += 1
        }
        cell.bind(descriptor, at: position)
        counters.contentEvaluations += 1
        live[descriptor.id] = cell
        counters.liveViews = live.count
        return cell
    }

    /// Scrolls to show `visible`: diffs the visible set, recycles removed views, keeps kept ones,
    /// and binds inserted ones to pooled cells (or new ones).
    /// - Returns: The cells that were bound in this step (they need artwork).
    @discardableResult
    public mutating func scroll(to visible: Rect) -> [EventCell] {
        guard policy == .native else { return [] }
        let expanded = Rect(x: visible.x, y: visible.y - overscan, width: visible.width, height: visible.height + 2 * overscan)
        let wanted = index.query(expanded)
        var wantedIDs = Set<SegmentID>(minimumCapacity: wanted.count)
        for i in wanted { wantedIDs.insert(index.descriptors[i].id) }
        for (id, cell) in live where !wantedIDs.contains(id) && id != dragging {
            live[id] = nil
            cell.unbind()
            pools[cell.kind, default: []].append(cell)
        }
        var bound: [EventCell] = []
        for i in wanted where live[index.descriptors[i].id] == nil {
            bound.append(insert(at: i))
        }
        counters.liveViews = live.count
        return bound
    }
}
