/// An event view: a cell that is bound to one descriptor's content at a time.
///
/// A reference type because a cell's identity is what reuse is about: the same cell object is
/// unbound from one event and bound to another. Cells belong to the viewport's thread.
package final class EventCell {
    /// Distinct per cell, for reuse checks.
    package let serial: Int
    /// The view kind (reuse pools are per kind).
    package let kind: String
    /// The piece it currently shows.
    package private(set) var boundID: SegmentID?
    /// Index of the bound descriptor in the viewport's index.
    package private(set) var descriptorIndex: Int?
    /// What the cell shows now; nil while unbound.
    package private(set) var content: ViewContent?
    /// Bumped on every bind and unbind: a late artwork result carrying an older generation is dropped.
    package private(set) var generation = 0
    /// The artwork lease the cell holds, released on rebind.
    package var artwork: ArtworkLease?

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
package enum ViewportPolicy: String, Sendable, CaseIterable, Codable {
    /// Every event view of the loaded range is built and stays alive (the old scroll view holding the whole tree).
    case reference
    /// Views exist only for the visible rect plus overscan, from per-kind reuse pools.
    case native
}

/// Counters a viewport keeps; all deterministic for a given workload and scroll path.
package struct ViewportCounters: Sendable, Equatable {
    /// Views alive now (bound or pooled).
    package var liveViews = 0
    /// Views created so far (a running total).
    package var viewsCreated = 0
    /// Views taken from a reuse pool so far (a running total).
    package var viewsReused = 0
    /// Content closures evaluated so far (a running total).
    package var contentEvaluations = 0
    /// Artwork results dropped because their cell had been rebound since the request.
    package var lateResultsRejected = 0
    /// Counters.
    package init(
        liveViews: Int = 0, viewsCreated: Int = 0, viewsReused: Int = 0, contentEvaluations: Int = 0,
        lateResultsRejected: Int = 0
    ) {
        self.liveViews = liveViews
        self.viewsCreated = viewsCreated
        self.viewsReused = viewsReused
        self.contentEvaluations = contentEvaluations
        self.lateResultsRejected = lateResultsRejected
    }
}

/// A scrolling viewport over indexed descriptors, under one policy.
package struct Viewport {
    /// The index queried for the visible rect.
    package let index: ViewportIndex
    /// Reference (every view up front) or native (visible plus overscan, reused).
    package let policy: ViewportPolicy
    /// Margin added above and below the visible rect (native policy).
    package let overscan: Double
    /// What the viewport has done so far.
    package internal(set) var counters = ViewportCounters()
    /// Cells by descriptor index; `nil` where no view exists.
    private(set) var cells: [EventCell?]
    /// Descriptor indices with a live view, ascending.
    private(set) var liveIndices: [Int] = []
    private var pools: [String: [EventCell]] = [:]
    private var nextSerial = 0
    private var wanted: [Int] = []
    private var next: [Int] = []
    /// Every cell ever made, by serial (for delivering artwork by cell).
    var cellsBySerial: [EventCell] = []
    let inbox = ArtworkInbox()
    /// The piece being dragged: its view is never replaced or recycled.
    package var dragging: SegmentID?

    /// Creates a viewport; the reference policy builds every view at once.
    package init(index: ViewportIndex, policy: ViewportPolicy, overscan: Double = 200) {
        self.index = index
        self.policy = policy
        self.overscan = overscan
        cells = [EventCell?](repeating: nil, count: index.descriptors.count)
        if policy == .reference {
            for i in index.descriptors.indices { _ = insert(at: i) }
            liveIndices = Array(index.descriptors.indices)
        }
    }

    /// The live cell showing `id`, if any.
    package func cell(for id: SegmentID) -> EventCell? {
        liveIndices.lazy.compactMap { cells[$0] }.first { $0.boundID == id }
    }

    /// Every live cell, in descriptor order.
    package var liveCells: [EventCell] { liveIndices.compactMap { cells[$0] } }

    private mutating func insert(at position: Int) -> EventCell {
        let descriptor = index.descriptors[position]
        let cell: EventCell
        if let reused = pools[descriptor.kind]?.popLast() {
            cell = reused
            counters.viewsReused += 1
        } else {
            cell = EventCell(serial: nextSerial, kind: descriptor.kind)
            cellsBySerial.append(cell)
            nextSerial += 1
            counters.viewsCreated += 1
        }
        cell.bind(descriptor, at: position)
        counters.contentEvaluations += 1
        cells[position] = cell
        counters.liveViews += 1
        return cell
    }

    private mutating func recycle(at position: Int) {
        guard let cell = cells[position] else { return }
        cells[position] = nil
        cell.unbind()
        pools[cell.kind, default: []].append(cell)
        counters.liveViews -= 1
    }

    /// Scrolls to show `visible`.
    ///
    /// Diffs the visible set against the live one, recycles removed views into their pools, keeps kept views in their
    /// cells, and binds inserted ones to pooled cells (or new ones). The dragged piece's view is kept whatever the
    /// rect.
    /// - Returns: The cells bound in this step (they need artwork).
    /// - Complexity: O(log n + m + r) for m frames in the rect's band and r live views.
    @discardableResult
    package mutating func scroll(to visible: Rect) -> [EventCell] {
        guard policy == .native else { return [] }
        let expanded = Rect(
            x: visible.x, y: visible.y - overscan, width: visible.width, height: visible.height + 2 * overscan)
        index.query(expanded, into: &wanted)
        if let dragging, let position = liveIndices.first(where: { cells[$0]?.boundID == dragging }),
            !wanted.contains(position)
        {
            wanted.append(position)
            wanted.sort()
        }
        // Merge the two ascending lists: removed views first, so their cells can be reused at once.
        var i = 0, j = 0
        while i < liveIndices.count {
            let live = liveIndices[i]
            while j < wanted.count && wanted[j] < live { j += 1 }
            if j >= wanted.count || wanted[j] != live { recycle(at: live) }
            i += 1
        }
        var bound: [EventCell] = []
        for position in wanted where cells[position] == nil { bound.append(insert(at: position)) }
        swap(&liveIndices, &wanted)
        return bound
    }
}
