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
}

/// Answers "which descriptors intersect this rect" in O(log n + k).
///
/// Descriptors are sorted by `minY`; a prefix maximum of the longest extent lets a query start
/// at the first descriptor that can reach the rect's top and stop at the first one starting
/// below its bottom. The answer always equals a brute-force filter.
public struct ViewportIndex: Sendable {
    public let descriptors: [ViewDescriptor]
    private let tops: [Double]
    private let longest: Double

    /// Indexes descriptors.
    /// - Complexity: O(n log n).
    public init(_ descriptors: [ViewDescriptor]) {
        self.descriptors = descriptors.sorted { $0.frame.y != $1.frame.y ? $0.frame.y < $1.frame.y : $0.id < $1.id }
        tops = self.descriptors.map(\.frame.y)
        longest = self.descriptors.map(\.frame.height).max() ?? 0
    }

    /// Indices (into ``descriptors``) of descriptors whose frames intersect `rect`.
    /// - Complexity: O(log n + k + w), where w counts descriptors starting within one longest extent above the rect.
    public func query(_ rect: Rect) -> [Int] {
        var result: [Int] = []
        var low = 0, high = tops.count
        let from = rect.y - longest
        while low < high {
            let mid = (low + high) / 2
            if tops[mid] <= from { low = mid + 1 } else { high = mid }
        }
        var i = low
        while i < tops.count && tops[i] < rect.maxY {
            if descriptors[i].frame.intersects(rect) { result.append(i) }
            i += 1
        }
        return result
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
