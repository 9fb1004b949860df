import Foundation
import PerfKit

/// The days a `calendar-demo calendar layout` lays out.
///
/// From a first day (or the first event's day) for a number of days (or to the last event's end), at most
/// ``maximumDays``.
package enum LayoutWindow {
    /// The longest window: ten years of days.
    package static let maximumDays = 3_650

    /// Why a window cannot be laid out: a one-line reason naming the option or file.
    package struct Problem: Error, CustomStringConvertible {
        /// The reason.
        package var description: String
    }

    /// The time of the layout's current-time line.
    /// - Parameters:
    ///   - text: A local date-time (`yyyy-MM-ddTHH:mm`), or nil for no line.
    ///   - timeZone: The zone of the local time.
    /// - Returns: The moment, or nil when `text` is nil.
    /// - Throws: ``Problem`` naming `--now` when `text` is not a date-time.
    package static func now(_ text: String?, timeZone: TimeZone) throws(Problem) -> Date? {
        guard let text else { return nil }
        guard let date = CalendarEventFile.parseDate(text, zone: timeZone) else {
            throw Problem(description: "--now: '\(text)' is not a date-time (yyyy-MM-ddTHH:mm)")
        }
        return date
    }

    /// The day grid of the window.
    /// - Parameters:
    ///   - events: The events.
    ///   - timeZone: Their time zone.
    ///   - firstDay: The first day as `yyyy-MM-dd` (or a date-time), nil for the first event's.
    ///   - days: Days in the window, nil to reach the last event's end.
    ///   - path: The events file, named in a problem about the events themselves.
    /// - Returns: The grid.
    /// - Throws: ``Problem`` for a first day that is not a date, or events spanning more than ``maximumDays``.
    package static func grid(events: [CalendarEvent], timeZone: TimeZone, firstDay: String?, days: Int?, path: String)
        throws(Problem) -> DayGrid
    {
        let first: Date
        if let firstDay {
            guard
                let date = CalendarEventFile.parseDate(
                    firstDay + (firstDay.count == 10 ? "T00:00:00" : ""), zone: timeZone)
            else {
                throw Problem(description: "--first-day: '\(firstDay)' is not a date (yyyy-MM-dd)")
            }
            first = date
        } else {
            first = events.map(\.start).min() ?? Workloads.epoch
        }
        if let days { return DayGrid(timeZone: timeZone, from: first, count: days) }
        let last = events.map(\.end).max() ?? first
        let span = max(1, Int((last.timeIntervalSince(first) / 86_400).rounded(.up)) + 1)
        guard span <= maximumDays else {
            throw Problem(
                description:
                    "\(path): events span \(span) days; lay out a window of at most \(maximumDays) with --first-day "
                    + "DATE --days N (longer events are clipped to it)"
            )
        }
        return DayGrid(timeZone: timeZone, from: first, count: span)
    }
}
