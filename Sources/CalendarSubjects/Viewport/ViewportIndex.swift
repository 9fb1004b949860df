/// A descriptor of something the viewport can show: an id, a frame and a content closure.
/// Describing an event does not build its view; the closure runs only when a view is bound.
public struct ViewDescriptor: Sendable {
    /// The piece's identity (a segment id: an overnight occurrence has one per day column).
    public var id: SegmentID
    public var frame: Rect
    /// The kind of view, for per-kind reuse pools.
    public var kind: String
    /// Builds the view's content.
    public var content: @Sendable () -> ViewContent

    public init(id: SegmentID, frame: Rect, kind: String = "event", content: @escaping @Sendable () -> ViewContent) {
        self.id = id
        self.frame = frame
        self.kind = kind
        self.content = content
    }
}

/// What an event view shows.
public struct ViewContent: Sendable, Hashable {
    public var title: String
    public var timeText: String
    public var calendarID: String
    public var occurrence: OccurrenceID
    public init(title: String, timeText: String, calendarID: String, occurrence: OccurrenceID) {
        self.title = title
        self.timeText = timeText
        self.calendarID = calendarID
        self.occurrence = occurrence
    }
}

/// Answers "which descriptors intersect this rect" in O(log n + k).
///
/// Frames are kept sorted by their top edge, with the running maximum of their bottom edges.
/// A query binary-searches the first frame whose running bottom passes the rect's top (every
/// earlier frame ends above the rect) and scans until frames start below the rect's bottom.
/// Frames live in their own contiguous array, so the scan never touches descriptors' closures.
/// The answer always equals a brute-force filter.
public struct ViewportIndex: Sendable {
    /// Descriptors sorted by top edge, then id.
    public let descriptors: [ViewDescriptor]
    private let frames: [Rect]
    /// reach[i] = the largest bottom edge among frames[0...i].
    private let reach: [Double]

    /// Indexes descriptors.
    /// - Complexity: O(n log n).
    public init(_ descriptors: [ViewDescriptor]) {
        self.descriptors = descriptors.sorted { $0.frame.y != $1.frame.y ? $0.frame.y < $1.frame.y : $0.id < $1.id }
        frames = self.descriptors.map(\.frame)
        var running = -Double.infinity
        reach = frames.map { frame in
            running = max(running, frame.maxY)
            return running
        }
    }

    /// Indices (into ``descriptors``) of descriptors whose frames intersect `rect`, in index order.
    /// - Complexity: O(log n + m), where m counts frames whose vertical extent meets the rect's band.
    public func query(_ rect: Rect) -> [Int] {
        var result: [Int] = []
        query(rect, into: &result)
        return result
    }

    /// Like ``query(_:)``, appending into a caller-owned buffer so a scroll step need not allocate.
    /// - Complexity: O(log n + m).
    public func query(_ rect: Rect, into result: inout [Int]) {
        result.removeAll(keepingCapacity: true)
        frames.withUnsafeBufferPointer { frames in
            reach.withUnsafeBufferPointer { reach in
                var low = 0, high = reach.count
                while low < high {
                    let mid = (low + high) / 2
                    if reach[mid] <= rect.y { low = mid + 1 } else { high = mid }
                }
                var i = low
                while i < frames.count && frames[i].y < rect.maxY {
                    if frames[i].intersects(rect) { result.append(i) }
                    i += 1
                }
            }
        }
    }

    /// The brute-force answer, for checking.
    public func bruteForce(_ rect: Rect) -> [Int] { descriptors.indices.filter { descriptors[$0].frame.intersects(rect) } }
}

extension CalendarLayout {
    /// Descriptors for every placed segment; content closures capture only plain values.
    public func descriptors(events: [CalendarEvent]) -> [ViewDescriptor] {
        allPlaced.map { placed in
            let event = events[placed.segment.eventIndex]
            let start = Int(placed.segment.startMinute), end = Int(placed.segment.endMinute)
            let content = ViewContent(
                title: event.title, timeText: String(format: "%02d:%02d–%02d:%02d", start / 60, start % 60, end / 60 % 24, end % 60),
                calendarID: event.calendarID, occurrence: placed.segment.actionTarget)
            return ViewDescriptor(id: placed.segment.id, frame: placed.frame, kind: placed.isAllDay ? "allDay" : "event") { content }
        }
    }
}

import Foundation
