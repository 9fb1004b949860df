import Foundation

/// A descriptor of something the viewport can show: an id, a frame and a content closure.
///
/// Describing an event does not build its view; the closure runs only when a view is bound.
package struct ViewDescriptor: Sendable {
    /// The piece's identity (a segment id: an overnight occurrence has one per day column).
    package var id: SegmentID
    /// The view's frame in content coordinates.
    package var frame: Rect
    /// The kind of view, for per-kind reuse pools.
    package var kind: String
    /// Builds the view's content.
    package var content: @Sendable () -> ViewContent

    /// A descriptor; `content` is evaluated only when a cell is bound.
    package init(id: SegmentID, frame: Rect, kind: String = "event", content: @escaping @Sendable () -> ViewContent) {
        self.id = id
        self.frame = frame
        self.kind = kind
        self.content = content
    }
}

/// What an event view shows.
package struct ViewContent: Sendable, Hashable {
    /// The title shown.
    package var title: String
    /// The time text shown.
    package var timeText: String
    /// The event's calendar.
    package var calendarID: String
    /// The occurrence shown: a late result for another occurrence must not repaint the cell.
    package var occurrence: OccurrenceID
    /// Content.
    package init(title: String, timeText: String, calendarID: String, occurrence: OccurrenceID) {
        self.title = title
        self.timeText = timeText
        self.calendarID = calendarID
        self.occurrence = occurrence
    }
}

/// Answers "which descriptors intersect this rect" in O(log n + k).
///
/// Frames are grouped into rows of equal top edge (a lane of a day row, in the Timeline), rows
/// sorted by top with the running maximum of their bottoms, frames inside a row sorted along
/// the time axis (x) with the row's widest frame. A query binary-searches the first row that
/// can reach the rect, and in each row that meets the rect's band binary-searches the first
/// frame that can reach its left edge. Frames live in their own contiguous array, so a query
/// never touches descriptors' closures. The answer always equals a brute-force filter.
package struct ViewportIndex: Sendable {
    /// Descriptors sorted by top edge, then x, then id: each row is a contiguous run.
    package let descriptors: [ViewDescriptor]
    private let frames: [Rect]
    private let rows: [Row]
    /// reach[r] = the largest bottom edge among rows[0...r].
    private let reach: [Double]

    struct Row: Sendable {
        var top: Double
        var bottom: Double
        var widest: Double
        var start: Int
        var end: Int
    }

    /// Number of index rows (runs of frames sharing a top edge).
    package var rowCount: Int { rows.count }
    /// Indexed frames: the most a query can return.
    package var frameCount: Int { frames.count }

    /// Indexes descriptors.
    /// - Complexity: O(n log n).
    package init(_ descriptors: [ViewDescriptor]) {
        self.descriptors = descriptors.sorted { a, b in
            if a.frame.y != b.frame.y { return a.frame.y < b.frame.y }
            if a.frame.x != b.frame.x { return a.frame.x < b.frame.x }
            return a.id < b.id
        }
        let frames = self.descriptors.map(\.frame)
        var rows: [Row] = []
        for (i, frame) in frames.enumerated() {
            if let last = rows.last, last.top == frame.y {
                rows[rows.count - 1].bottom = max(last.bottom, frame.maxY)
                rows[rows.count - 1].widest = max(last.widest, frame.width)
                rows[rows.count - 1].end = i + 1
            } else {
                rows.append(Row(top: frame.y, bottom: frame.maxY, widest: frame.width, start: i, end: i + 1))
            }
        }
        var running = -Double.infinity
        reach = rows.map { row in
            running = max(running, row.bottom)
            return running
        }
        self.frames = frames
        self.rows = rows
    }

    /// Indices (into ``descriptors``) of descriptors whose frames intersect `rect`, ascending.
    /// - Complexity: O(log n + r·log w + k) for r rows meeting the rect's band, w frames per row, k results.
    package func query(_ rect: Rect) -> [Int] {
        var result: [Int] = []
        query(rect, into: &result)
        return result
    }

    /// Like ``query(_:)``, writing into a caller-owned buffer so a scroll step need not allocate.
    /// - Parameters:
    ///   - rect: The rect to query.
    ///   - result: Receives the indices, ascending; emptied first.
    /// - Returns: How many rows the query examined: those meeting the rect's band, never all rows.
    @discardableResult
    package func query(_ rect: Rect, into result: inout [Int]) -> Int {
        result.removeAll(keepingCapacity: true)
        return frames.withUnsafeBufferPointer { frames in
            rows.withUnsafeBufferPointer { rows in
                reach.withUnsafeBufferPointer { reach in
                    var low = 0, high = reach.count
                    while low < high {
                        let mid = (low + high) / 2
                        if reach[mid] <= rect.y { low = mid + 1 } else { high = mid }
                    }
                    var r = low
                    while r < rows.count && rows[r].top < rect.maxY {
                        let row = rows[r]
                        r += 1
                        guard row.bottom > rect.y else { continue }
                        // First frame whose x could reach the rect's left edge.
                        var a = row.start, b = row.end
                        let from = rect.x - row.widest
                        while a < b {
                            let mid = (a + b) / 2
                            if frames[mid].x <= from { a = mid + 1 } else { b = mid }
                        }
                        while a < row.end && frames[a].x < rect.maxX {
                            if frames[a].intersects(rect) { result.append(a) }
                            a += 1
                        }
                    }
                    return r - low
                }
            }
        }
    }

    /// The brute-force answer, for checking.
    package func bruteForce(_ rect: Rect) -> [Int] {
        descriptors.indices.filter { descriptors[$0].frame.intersects(rect) }
    }
}

extension CalendarLayout {
    /// Descriptors for every placed segment; content closures capture only plain values.
    package func descriptors(events: [CalendarEvent]) -> [ViewDescriptor] {
        allPlaced.map { placed in
            let event = events[placed.segment.eventIndex]
            let start = Int(placed.segment.startMinute), end = Int(placed.segment.endMinute)
            let content = ViewContent(
                title: event.title,
                timeText: String(format: "%02d:%02d–%02d:%02d", start / 60, start % 60, end / 60 % 24, end % 60),
                calendarID: event.calendarID, occurrence: placed.segment.actionTarget)
            return ViewDescriptor(
                id: placed.segment.id, frame: placed.frame, kind: placed.isAllDay ? "allDay" : "event"
            ) { content }
        }
    }
}
