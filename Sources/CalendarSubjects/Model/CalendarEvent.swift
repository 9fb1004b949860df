import Foundation

/// A calendar event as a provider delivers it.
public struct CalendarEvent: Sendable, Hashable, Codable {
    /// The provider's identifier of the (possibly recurring) event.
    public var sourceID: String
    /// The calendar the event belongs to.
    public var calendarID: String
    /// The title shown.
    public var title: String
    /// Inclusive start.
    public var start: Date
    /// Exclusive end: intervals are half-open.
    public var end: Date
    /// Whether it is an all-day event (shown in the all-day lanes).
    public var isAllDay: Bool

    /// Creates an event.
    public init(sourceID: String, calendarID: String, title: String, start: Date, end: Date, isAllDay: Bool = false) {
        self.sourceID = sourceID
        self.calendarID = calendarID
        self.title = title
        self.start = start
        self.end = end
        self.isAllDay = isAllDay
    }

    /// The occurrence's identity: source id plus original start. It never changes between loads.
    public var occurrenceID: OccurrenceID {
        OccurrenceID(sourceID: sourceID, originalStart: start.timeIntervalSince1970)
    }
}

/// The stable identity of one occurrence of an event.
public struct OccurrenceID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The provider's identifier of the event.
    public var sourceID: String
    /// Original start, seconds since 1970.
    public var originalStart: Double
    /// An occurrence of `sourceID` originally starting at `originalStart` (seconds since 1970).
    public init(sourceID: String, originalStart: Double) {
        self.sourceID = sourceID
        self.originalStart = originalStart
    }
    /// `source@start`.
    public var description: String { "\(sourceID)@\(Int64(originalStart))" }
    /// Ordered by source id, then original start.
    public static func < (a: OccurrenceID, b: OccurrenceID) -> Bool {
        (a.sourceID, a.originalStart) < (b.sourceID, b.originalStart)
    }
}

/// A calendar day in a time zone, `yyyy-MM-dd`.
public struct DayKey: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The year.
    public var year: Int
    /// The month, 1 to 12.
    public var month: Int
    /// The day of the month.
    public var day: Int
    /// A day.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }
    /// `YYYY-MM-DD`.
    public var description: String { String(format: "%04d-%02d-%02d", year, month, day) }
    /// The month, `yyyy-MM`.
    public var monthKey: String { String(format: "%04d-%02d", year, month) }
    /// Calendar order.
    public static func < (a: DayKey, b: DayKey) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }
}

/// An occurrence clipped to one day. Its identity is namespaced by day; its action target stays the occurrence.
public struct Segment: Sendable, Hashable {
    /// The segment's own identity: occurrence plus day index (an overnight occurrence has two).
    public var id: SegmentID
    /// Index of the event in the input, for looking up title and calendar.
    public var eventIndex: Int
    /// Wall-clock minute of day where the segment starts, `0..<1440`.
    public var startMinute: Double
    /// Wall-clock minute where it ends (exclusive), `startMinute < endMinute ≤ 1440`.
    public var endMinute: Double
    /// Whether the event began on an earlier day.
    public var continuesFromPreviousDay: Bool
    /// Whether the event goes on into a later day.
    public var continuesToNextDay: Bool
    /// The occurrence actions act on.
    public var actionTarget: OccurrenceID { id.occurrence }
}

/// A segment's identity: the occurrence and the day it is clipped to.
public struct SegmentID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The occurrence this segment belongs to.
    public var occurrence: OccurrenceID
    /// The day it lies on.
    public var day: DayKey
    /// A segment's identity.
    public init(occurrence: OccurrenceID, day: DayKey) {
        self.occurrence = occurrence
        self.day = day
    }
    /// `occurrence#day`.
    public var description: String { "\(occurrence)#\(day)" }
    /// Ordered by occurrence, then day.
    public static func < (a: SegmentID, b: SegmentID) -> Bool { (a.occurrence, a.day) < (b.occurrence, b.day) }
}
