import Foundation

/// Splits events into per-day segments of a ``DayGrid``.
package enum DaySplitter {
    /// Minimum visual duration of a zero-length or very short event, in minutes.
    package static let minimumMinutes: Double = 15

    /// Timed segments per day and all-day events per day.
    package struct Result: Sendable {
        /// Timed segments, indexed by day.
        package var timed: [[Segment]]
        /// All-day segments (whole days), indexed by day.
        package var allDay: [[Segment]]
    }

    /// Splits every event over the grid's days.
    ///
    /// Intervals are half-open: an event ending at midnight has no segment on the next day; a zero-length event keeps
    /// one segment of ``minimumMinutes``.
    /// - Complexity: O(n log d + s), n events, d days, s segments.
    package static func split(_ events: [CalendarEvent], grid: DayGrid) -> Result {
        var timed = [[Segment]](repeating: [], count: grid.days.count)
        var allDay = [[Segment]](repeating: [], count: grid.days.count)
        guard let windowStart = grid.days.first?.start, let windowEnd = grid.days.last?.end else {
            return Result(timed: timed, allDay: allDay)
        }
        for (index, event) in events.enumerated() {
            let start = event.start.timeIntervalSince1970
            let end = max(event.end.timeIntervalSince1970, start)
            let occurrence = event.occurrenceID
            guard end > windowStart || (end == start && start >= windowStart), start < windowEnd else { continue }
            var day = grid.dayIndex(containing: max(start, windowStart)) ?? 0
            while day < grid.days.count {
                let info = grid.days[day]
                if info.start >= end && !(start == end && day == grid.dayIndex(containing: start)) { break }
                let from = max(start, info.start)
                let to = min(end, info.end)
                var startMinute = grid.wallMinute(from, day: day)
                var endMinute = to >= info.end ? 1440 : grid.wallMinute(to, day: day)
                if event.isAllDay {
                    startMinute = 0
                    endMinute = 1440
                } else if endMinute - startMinute < minimumMinutes {
                    // Zero-length and very short events, and wall-clock inversions in a repeated hour.
                    startMinute = min(startMinute, 1440 - minimumMinutes)
                    endMinute = startMinute + minimumMinutes
                }
                let segment = Segment(
                    id: SegmentID(occurrence: occurrence, day: info.key), eventIndex: index,
                    startMinute: startMinute, endMinute: endMinute,
                    continuesFromPreviousDay: start < info.start, continuesToNextDay: end > info.end)
                if event.isAllDay { allDay[day].append(segment) } else { timed[day].append(segment) }
                if end <= info.end { break }
                day += 1
            }
        }
        return Result(timed: timed, allDay: allDay)
    }
}
