import Foundation

/// A calendar event as a provider delivers it.
package struct CalendarEvent: Sendable, Hashable, Codable {
    /// The provider's identifier of the (possibly recurring) event.
    package var sourceID: String
    /// The calendar the event belongs to.
    package var calendarID: String
    /// The title shown.
    package var title: String
    /// Inclusive start.
    package var start: Date
    /// Exclusive end: intervals are half-open.
    package var end: Date
    /// Whether it is an all-day event (shown in the all-day lanes).
    package var isAllDay: Bool

    /// Creates an event.
    package init(sourceID: String, calendarID: String, title: String, start: Date, end: Date, isAllDay: Bool = false) {
        self.sourceID = sourceID
        self.calendarID = calendarID
        self.title = title
        self.start = start
        self.end = end
        self.isAllDay = isAllDay
    }

    /// The occurrence's identity: source id plus original start. It never changes between loads.
    package var occurrenceID: OccurrenceID {
        OccurrenceID(sourceID: sourceID, originalStart: start.timeIntervalSince1970)
    }
}

/// The stable identity of one occurrence of an event.
package struct OccurrenceID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The provider's identifier of the event.
    package var sourceID: String
    /// Original start, seconds since 1970.
    package var originalStart: Double
    /// An occurrence of `sourceID` originally starting at `originalStart` (seconds since 1970).
    package init(sourceID: String, originalStart: Double) {
        self.sourceID = sourceID
        self.originalStart = originalStart
    }
    /// `source@start`.
    package var description: String { "\(sourceID)@\(Int64(originalStart))" }
    /// Ordered by source id, then original start.
    package static func < (a: OccurrenceID, b: OccurrenceID) -> Bool {
        (a.sourceID, a.originalStart) < (b.sourceID, b.originalStart)
    }
}

/// A calendar day in a time zone, `yyyy-MM-dd`.
package struct DayKey: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The year.
    package var year: Int
    /// The month, 1 to 12.
    package var month: Int
    /// The day of the month.
    package var day: Int
    /// A day.
    package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }
    /// `YYYY-MM-DD`.
    package var description: String { String(format: "%04d-%02d-%02d", year, month, day) }
    /// The month, `yyyy-MM`.
    package var monthKey: String { String(format: "%04d-%02d", year, month) }
    /// Calendar order.
    package static func < (a: DayKey, b: DayKey) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
}

/// An occurrence clipped to one day. Its identity is namespaced by day; its action target stays the occurrence.
package struct Segment: Sendable, Hashable {
    /// The segment's own identity: occurrence plus day index (an overnight occurrence has two).
    package var id: SegmentID
    /// Index of the event in the input, for looking up title and calendar.
    package var eventIndex: Int
    /// Wall-clock minute of day where the segment starts, `0..<1440`.
    package var startMinute: Double
    /// Wall-clock minute where it ends (exclusive), `startMinute < endMinute ≤ 1440`.
    package var endMinute: Double
    /// Whether the event began on an earlier day.
    package var continuesFromPreviousDay: Bool
    /// Whether the event goes on into a later day.
    package var continuesToNextDay: Bool
    /// The occurrence actions act on.
    package var actionTarget: OccurrenceID { id.occurrence }
}

/// A segment's identity: the occurrence and the day it is clipped to.
package struct SegmentID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The occurrence this segment belongs to.
    package var occurrence: OccurrenceID
    /// The day it lies on.
    package var day: DayKey
    /// A segment's identity.
    package init(occurrence: OccurrenceID, day: DayKey) {
        self.occurrence = occurrence
        self.day = day
    }
    /// `occurrence#day`.
    package var description: String { "\(occurrence)#\(day)" }
    /// Ordered by occurrence, then day.
    package static func < (a: SegmentID, b: SegmentID) -> Bool { (a.occurrence, a.day) < (b.occurrence, b.day) }
}
